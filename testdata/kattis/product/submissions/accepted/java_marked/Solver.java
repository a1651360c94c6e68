// No Main.java: the one class with a main method is the entry.
public class Solver {
    public static void main(String[] args) throws Exception {
        Kattio in = new Kattio();
        System.out.println(Times.of(in.nextLong(), in.nextLong()));
    }
}
