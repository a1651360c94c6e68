// Reads one integer in [low, high] followed by the expected separator, or exits 43.
#include <cstdio>
#include <cstdlib>

inline long read_int(long low, long high, char after) {
    long value;
    char next;
    if (std::scanf("%ld%c", &value, &next) != 2 || next != after || value < low || value > high) {
        std::fprintf(stderr, "expected an integer in [%ld, %ld]\n", low, high);
        std::exit(43);
    }
    return value;
}
