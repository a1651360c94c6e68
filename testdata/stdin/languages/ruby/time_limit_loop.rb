# expect: TLE
n = 0
loop { n = (n + 1) % 1_000_003 }
