// The entry class: Main (the format's default entry point for Java); Kattio from include/java/.
public class Main {
    public static void main(String[] args) throws Exception {
        Kattio in = new Kattio();
        System.out.println(Arith.product(in.nextLong(), in.nextLong()));
    }
}
