#include <cstdio>
#include "kattio.h"
#include "mul.h"

int main() {
    long long a = read_int(), b = read_int();
    std::printf("%lld\n", multiply(a, b));
    return 0;
}
