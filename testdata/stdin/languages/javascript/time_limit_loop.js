// expect: TLE
let n = 0;
for (;;) n = (n + 1) % 1000003;
