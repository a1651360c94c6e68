#include <algorithm>
#include <iostream>

int main() {
    int n, total = 0;
    std::cin >> n;
    for (int i = 0, x; i < n; ++i) {
        std::cin >> x;
        total += x;
    }
    std::cout << std::min(total, {{cap}}) << "\n";
}
