// expect: WA
public class Adder {
    public long add(int[] values, int factor) {
        int total = 0;
        for (int v : values) total += v * factor;
        return total;
    }
}
