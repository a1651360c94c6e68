// Java port of reference.py: each pile is a Hackenbush stalk (sorted, duplicates removed); edges
// up to the first parity change are worth 1 each, every later one half the edge below; 45-bit
// fixed point in a long. Accepted.
import java.util.TreeSet;

public class ChefGame {
    public String choose(int[][] piles) {
        long total = 0;
        for (int[] pile : piles) {
            TreeSet<Integer> stalk = new TreeSet<>();
            for (int x : pile) stalk.add(x);
            long weight = 1L << 45;
            boolean changed = false;
            int first = stalk.isEmpty() ? 0 : stalk.first();
            for (int number : stalk) {
                if (number % 2 != first % 2) changed = true;
                if (changed) weight >>= 1;
                total += number % 2 == 0 ? weight : -weight;
            }
        }
        return total > 0 ? "EVEN" : total < 0 ? "ODD" : "DON'T PLAY";
    }

    public static void main(String[] args) {  // local testing: the judge never calls it
        System.out.println(new ChefGame().choose(new int[][] {{1, 2, 3}, {4}}));
    }
}
