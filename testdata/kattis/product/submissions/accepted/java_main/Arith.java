public class Arith {
    static long product(long a, long b) {
        return a * b;
    }
}
