long long multiply(long long a, long long b);
