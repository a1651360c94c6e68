// Java port of reference.py: the parity of the checkers' total distance to the last cell. Accepted.
public class EllysCheckers {
    public String getWinner(String board) {
        int last = board.length() - 1, total = 0;
        for (int i = 0; i < board.length(); i++) if (board.charAt(i) == 'o') total += last - i;
        return total % 2 == 1 ? "YES" : "NO";
    }
}
