// expect: MLE
// 8 MiB at a time, each page written to, kept: past the 256 MiB limit in the kernel's figures.
using System.Collections.Generic;

class Blocks {
    static void Main() {
        var kept = new List<byte[]>();
        for (;;) {
            var block = new byte[8 << 20];
            for (int i = 0; i < block.Length; i += 4096) block[i] = 1;
            kept.Add(block);
        }
    }
}
