// expect: AC
// Statics and members start afresh for every test: a leftover would change the answer.
public class Adder {
    static long calls = 0;
    static StringBuilder seen = new StringBuilder();
    int uses = 0;

    public long add(int[] values, int factor) {
        long total = calls++ + uses++ + seen.length();
        seen.append('x');
        for (int v : values) total += (long) v * factor;
        return total;
    }
}
