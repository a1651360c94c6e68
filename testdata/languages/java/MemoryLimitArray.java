// expect: MLE
// Far more than the 64 MiB heap (-Xmx is the memory limit): OutOfMemoryError.
public class Adder {
    public long add(int[] values, int factor) {
        long[][] blocks = new long[64][];
        for (int k = 0; k < blocks.length; k++) blocks[k] = new long[1 << 20];
        return blocks[63][5] + factor;
    }
}
