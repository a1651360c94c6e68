// expect: CE
public class Adder {
    public long add(int[] values, int factor) {
        return values.length * factor  // missing semicolon
    }
}
