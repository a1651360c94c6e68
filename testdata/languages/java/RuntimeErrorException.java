// expect: RE
public class Adder {
    public long add(int[] values, int factor) {
        return values[values.length + 1] * factor;
    }
}
