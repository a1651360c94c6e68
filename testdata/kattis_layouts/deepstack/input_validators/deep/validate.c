/* Recurses through ~100 MiB of stack, then checks the input: two integers in [-1000, 1000]. */
#include <stdio.h>

static long descend(long n) {
    volatile char frame[1024];
    frame[0] = (char) n;
    if (n == 0) return frame[0];
    return descend(n - 1) + frame[0];
}

int main(void) {
    long a, b;
    char extra;
    descend(100000);
    if (scanf("%ld %ld", &a, &b) != 2 || scanf(" %c", &extra) == 1) return 43;
    return a >= -1000 && a <= 1000 && b >= -1000 && b <= 1000 ? 42 : 43;
}
