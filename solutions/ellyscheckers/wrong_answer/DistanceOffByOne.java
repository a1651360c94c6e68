// Wrong answer: counts the distance to the cell after the last one.
public class EllysCheckers {
    public String getWinner(String board) {
        int total = 0;
        for (int i = 0; i < board.length(); i++) if (board.charAt(i) == 'o') total += board.length() - i;
        return total % 2 == 1 ? "YES" : "NO";
    }
}
