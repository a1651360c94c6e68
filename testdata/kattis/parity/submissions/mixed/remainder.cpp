// n % 2 is -1 for a negative odd n in C++: wrong on negative numbers, right otherwise
// @EXPECTED_RESULTS@: AC, WA
#include <iostream>
int main() {
    long long n;
    std::cin >> n;
    std::cout << (n % 2 == 1 ? "odd" : "even") << "\n";
}
