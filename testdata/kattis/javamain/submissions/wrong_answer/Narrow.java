// A file named otherwise, with the class Adder that Main calls (not public: javac allows it in
// any file); it adds in 32 bits.
class Adder {
    public long add(long a, long b) {
        return (int) a + (int) b;
    }
}
