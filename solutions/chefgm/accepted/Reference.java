// Port of reference.py: every pile is a Blue-Red Hackenbush stalk (even numbers are Chef's "EVEN"
// edges, odd numbers the opponent's), so a game is the sum of its stalk values. A stalk has at most
// 45 distinct numbers, so its value is an exact long in units of 2**-45; a game of up to 100 piles
// stays far below 2**63. Reads tokens with a small byte reader (fast input, as contestants write it).
import java.io.DataInputStream;
import java.io.IOException;
import java.util.Arrays;

public class Reference {
    private static final DataInputStream in = new DataInputStream(System.in);

    private static long next() throws IOException {
        int c = in.read();
        while (c == ' ' || c == '\n' || c == '\r' || c == '\t') c = in.read();
        boolean negative = c == '-';
        if (negative) c = in.read();
        long value = 0;
        for (; c >= '0' && c <= '9'; c = in.read()) value = value * 10 + (c - '0');
        return negative ? -value : value;
    }

    static long stalkValue(long[] stalk, int size) {
        long value = 0, weight = 1L << 45;
        boolean changed = false;
        for (int k = 0; k < size; k++) {
            changed = changed || stalk[k] % 2 != stalk[0] % 2;
            if (changed) weight >>= 1;
            value += stalk[k] % 2 == 0 ? weight : -weight;
        }
        return value;
    }

    public static void main(String[] args) throws IOException {
        StringBuilder answers = new StringBuilder();
        for (long games = next(); games > 0; games--) {
            long total = 0;
            for (long piles = next(); piles > 0; piles--) {
                long[] stalk = new long[(int) next()];
                for (int k = 0; k < stalk.length; k++) stalk[k] = next();
                Arrays.sort(stalk);
                int size = 0;
                for (int k = 0; k < stalk.length; k++) if (k == 0 || stalk[k] != stalk[k - 1]) stalk[size++] = stalk[k];
                total += stalkValue(stalk, size);
            }
            answers.append(total > 0 ? "EVEN" : total < 0 ? "ODD" : "DON'T PLAY").append('\n');
        }
        System.out.print(answers);
    }
}
