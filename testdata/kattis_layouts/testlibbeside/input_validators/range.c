/* Input validator: both integers within [-LIMIT, LIMIT] (LIMIT from range.h beside it). */
#include <stdio.h>
#include "range.h"

int main(void) {
    long a, b;
    if (scanf("%ld %ld", &a, &b) != 2) return 43;
    if (a < -LIMIT || a > LIMIT || b < -LIMIT || b > LIMIT) {
        printf("a number outside [-%d, %d]\n", LIMIT, LIMIT);
        return 43;
    }
    return 42;
}
