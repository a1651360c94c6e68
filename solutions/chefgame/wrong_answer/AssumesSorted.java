// Wrong answer: takes each pile in the given order instead of sorting it (and keeps duplicates).
public class ChefGame {
    public String choose(int[][] piles) {
        long total = 0;
        for (int[] stalk : piles) {
            long weight = 1L << 45;
            boolean changed = false;
            for (int number : stalk) {
                if (number % 2 != stalk[0] % 2) changed = true;
                if (changed) weight >>= 1;
                total += number % 2 == 0 ? weight : -weight;
            }
        }
        return total > 0 ? "EVEN" : total < 0 ? "ODD" : "DON'T PLAY";
    }
}
