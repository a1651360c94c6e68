// std::thread with default attributes, as a C++ program would use one.
#include <algorithm>
#include <iostream>
#include <string>
#include <thread>

int main() {
    std::string word;
    std::cin >> word;
    std::thread worker([&word] { std::reverse(word.begin(), word.end()); });
    worker.join();
    std::cout << word << '\n';
}
