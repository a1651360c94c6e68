// Java port of reference.py: depth-first search over our successive moves in one turn, memoised
// on the board (14-slot ring, slot 6 our home, 13 theirs, skipped when sowing). Accepted.
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

public class Mankala {
    private final Map<String, Integer> memo = new HashMap<>();

    private int best(int[] board) {
        String key = Arrays.toString(board);
        Integer known = memo.get(key);
        if (known != null) return known;
        int result = 0;
        for (int pit = 0; pit < 6; pit++) {
            if (board[pit] == 0) continue;
            int[] after = board.clone();
            int pos = pit;
            while (true) {
                int hand = after[pos];
                after[pos] = 0;
                while (hand > 0) {
                    pos = (pos + 1) % 14;
                    if (pos == 13) continue;
                    after[pos]++;
                    hand--;
                }
                if (pos == 6 || after[pos] == 1) break;
            }
            int gained = after[6];
            after[6] = 0;
            result = Math.max(result, gained + (pos == 6 ? best(after) : 0));
        }
        memo.put(key, result);
        return result;
    }

    public int greedyMove(int[] player1, int[] player2) {
        int[] board = new int[14];
        System.arraycopy(player1, 0, board, 0, 6);
        System.arraycopy(player2, 0, board, 7, 6);
        return best(board);
    }
}
