// Adds in 32 bits.
#include "add.h"

long long add(long long a, long long b) { return (int)a + (int)b; }
