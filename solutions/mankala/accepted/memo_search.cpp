// C++ port of reference.py: depth-first search over our successive moves in one turn, memoised on
// the board (14-slot ring, slot 6 our home, 13 theirs, skipped when sowing). Accepted.
#include <map>
#include <vector>
using namespace std;

class Mankala {
    map<vector<int>, int> memo;

    // play `pit` with relays; returns pieces added home, sets `again` when the last one ended there
    static int sow(vector<int>& board, int pit, bool& again) {
        int pos = pit;
        while (true) {
            int hand = board[pos];
            board[pos] = 0;
            while (hand) {
                pos = (pos + 1) % 14;
                if (pos == 13) continue;
                board[pos]++;
                hand--;
            }
            if (pos == 6 || board[pos] == 1) {
                int gained = board[6];
                board[6] = 0;
                again = pos == 6;
                return gained;
            }
        }
    }

    int best(const vector<int>& board) {
        auto known = memo.find(board);
        if (known != memo.end()) return known->second;
        int result = 0;
        for (int pit = 0; pit < 6; ++pit) {
            if (!board[pit]) continue;
            vector<int> after = board;
            bool again = false;
            int gained = sow(after, pit, again);
            result = max(result, gained + (again ? best(after) : 0));
        }
        return memo[board] = result;
    }

public:
    int greedyMove(vector<int> player1, vector<int> player2) {
        vector<int> board(player1);
        board.push_back(0);
        board.insert(board.end(), player2.begin(), player2.end());
        board.push_back(0);
        return best(board);
    }
};
