// Wrong answer: plays one move only, never the extra moves a move ending in our home earns.
#include <algorithm>
#include <vector>
using namespace std;

class Mankala {
public:
    int greedyMove(vector<int> player1, vector<int> player2) {
        int best = 0;
        for (int pit = 0; pit < 6; ++pit) {
            if (!player1[pit]) continue;
            vector<int> board(player1);
            board.push_back(0);
            board.insert(board.end(), player2.begin(), player2.end());
            int pos = pit;
            while (true) {
                int hand = board[pos];
                board[pos] = 0;
                for (; hand; --hand) {
                    pos = (pos + 1) % 13;
                    board[pos]++;
                }
                if (pos == 6 || board[pos] == 1) break;
            }
            best = max(best, board[6]);
        }
        return best;
    }
};
