// The whole submission: runner.cpp, the package's, calls this in the child it forked.
#include "add.h"

long long add(long long a, long long b) { return a + b; }
