// expect: CE
// Compiles, but the method takes a String where problem.yaml says int[]: no such method.
public class Adder {
    public long add(String values, int factor) {
        return values.length() * factor;
    }
}
