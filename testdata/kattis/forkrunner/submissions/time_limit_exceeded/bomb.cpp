// A fork bomb in the child the runner forked: every process forks for ever (its forks fail once the
// tree is at its process cap, and it goes on trying). Named forkbomb46, so that a test can see that
// none of its processes outlives the test.
#include <sys/prctl.h>
#include <unistd.h>

#include "add.h"

long long add(long long a, long long b) {
    prctl(PR_SET_NAME, "forkbomb46", 0, 0, 0);
    for (;;) fork();
    return a + b;
}
