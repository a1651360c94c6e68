// A number in base 26 with the digits a..z, and back.
#include <iostream>
#include <string>

int main() {
    std::string command, argument;
    std::cin >> command >> argument;
    if (command == "encode") {
        long long n = std::stoll(argument);
        std::string word;
        do {
            word.insert(word.begin(), char('a' + n % 26));
            n /= 26;
        } while (n > 0);
        std::cout << word << "\n";
    } else {
        long long n = 0;
        for (char letter : argument) n = n * 26 + (letter - 'a');
        std::cout << n << "\n";
    }
}
