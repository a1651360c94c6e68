// expect: MLE
// 1 MiB at a time, each written to, kept: past the 256 MiB limit in the kernel's figures.
const kept = [];
for (;;) kept.push(Buffer.alloc(1 << 20, 1));
