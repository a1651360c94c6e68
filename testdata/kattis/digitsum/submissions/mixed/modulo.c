/* Sums the digits of a long long: right for every test here; its tag also allows the wrong
 * answer it would give on a number of more than 18 digits.
 * @EXPECTED_RESULTS@: ACCEPTED, WRONG-ANSWER
 */
#include <stdio.h>
int main(void) {
    long long n;
    if (scanf("%lld", &n) != 1) return 1;
    int total = 0;
    for (; n > 0; n /= 10) total += (int)(n % 10);
    printf("%d\n", total);
    return 0;
}
