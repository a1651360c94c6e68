// The package's entry point: reads the pairs and prints what the submission's add() makes of each.
#include <cstdio>

#include "add.h"

int main() {
    int count;
    if (scanf("%d", &count) != 1) return 1;
    for (int i = 0; i < count; ++i) {
        long long a, b;
        if (scanf("%lld %lld", &a, &b) != 2) return 1;
        printf("%lld\n", add(a, b));
    }
    return 0;
}
