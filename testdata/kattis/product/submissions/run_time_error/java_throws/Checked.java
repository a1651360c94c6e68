public class Checked {
    static long product(long a, long b) {
        throw new IllegalStateException("refusing to multiply " + a + " by " + b);
    }
}
