/* Input validator built by `build`: the two integers are not both zero. */
#include <stdio.h>

int main(void) {
    long a, b;
    if (scanf("%ld %ld", &a, &b) != 2) return 43;
    if (a == 0 && b == 0) {
        printf("both numbers are zero\n");
        return 43;
    }
    return 42;
}
