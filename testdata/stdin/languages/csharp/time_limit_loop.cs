// expect: TLE
class Spin {
    static volatile int n;
    static void Main() {
        for (;;) n++;
    }
}
