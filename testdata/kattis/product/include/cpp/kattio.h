// Given to every C++ submission of this package (include/cpp/): reads one integer.
#include <cstdio>

static inline long long read_int() {
    long long x = 0;
    if (std::scanf("%lld", &x) != 1) return 0;
    return x;
}
