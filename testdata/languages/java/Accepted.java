// expect: AC
import java.util.*;

public class Adder {
    public long add(int[] values, int factor) {
        long total = 0;
        for (int v : values) total += (long) v * factor;
        return total;
    }

    public static void main(String[] args) {  // local testing: never called by the judge
        System.out.println(new Adder().add(new int[] {1, 2}, 3));
        System.exit(3);
    }
}
