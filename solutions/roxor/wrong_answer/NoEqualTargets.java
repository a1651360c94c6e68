// Wrong answer: both new stones must go to different piles (k > j).
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
                for (int k = j + 1; k < n; k++)
                    if ((total ^ grundy[i] ^ grundy[j] ^ grundy[k]) == 0) return new int[] {i, j, k};
        }
        return new int[0];
    }
}
