// Wrong answer: plays one move only, never the extra moves a move ending in our home earns.
public class Mankala {
    public int greedyMove(int[] player1, int[] player2) {
        int best = 0;
        for (int pit = 0; pit < 6; pit++) {
            if (player1[pit] == 0) continue;
            int[] board = new int[13];
            System.arraycopy(player1, 0, board, 0, 6);
            System.arraycopy(player2, 0, board, 7, 6);
            int pos = pit;
            while (true) {
                int hand = board[pos];
                board[pos] = 0;
                for (; hand > 0; hand--) {
                    pos = (pos + 1) % 13;
                    board[pos]++;
                }
                if (pos == 6 || board[pos] == 1) break;
            }
            best = Math.max(best, board[6]);
        }
        return best;
    }
}
