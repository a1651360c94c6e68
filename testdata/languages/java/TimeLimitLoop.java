// expect: TLE
public class Adder {
    public long add(int[] values, int factor) {
        long spin = 0;
        while (spin >= 0) spin = (spin + 1) & 0xffff;
        return spin;
    }
}
