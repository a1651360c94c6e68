/* One integer in [1, 100] on a line of its own: 42 valid, 43 not. */
#include <stdio.h>

int main(void) {
    int secret;
    char end;
    if (scanf("%d%c", &secret, &end) != 2 || end != '\n' || secret < 1 || secret > 100 || getchar() != EOF) {
        fprintf(stderr, "expected one number in [1, 100]\n");
        return 43;
    }
    return 42;
}
