// A C++ program in dialogue with the interactor: std::endl flushes each guess.
#include <iostream>
#include <string>
int main() {
    int low = 1, high = 1000;
    std::string reply;
    while (true) {
        int guess = (low + high) / 2;
        std::cout << guess << std::endl;
        if (!(std::cin >> reply) || reply == "correct") return 0;
        if (reply == "higher") low = guess + 1; else high = guess - 1;
    }
}
