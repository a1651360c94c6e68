// Java port of reference.py: Sprague-Grundy with the closed form (a stone d piles before the last
// one has Grundy value odious(d - 1)); only pile parities matter; the first (i, j, k) in order
// that brings the nim-sum to zero is the answer. O(n^3), n <= 15: accepted.
public class Roxor {
    private static int odious(int m) {
        return 2 * m + (1 - Integer.bitCount(m) % 2);
    }

    public int[] play(int[] piles) {
        int n = piles.length;
        int[] grundy = new int[n];
        for (int p = 0; p < n - 1; p++) grundy[p] = odious(n - 2 - p);
        int total = 0;
        for (int p = 0; p < n; p++) if (piles[p] % 2 == 1) total ^= grundy[p];
        for (int i = 0; i < n; i++) {
            if (piles[i] == 0) continue;
            for (int j = i + 1; j < n; j++)
                for (int k = j; k < n; k++)
                    if ((total ^ grundy[i] ^ grundy[j] ^ grundy[k]) == 0) return new int[] {i, j, k};
        }
        return new int[0];
    }
}
