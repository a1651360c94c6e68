// Wrong answer: counts the distance to the cell after the last one.
#include <string>
using namespace std;

class EllysCheckers {
public:
    string getWinner(const string& board) const {
        int total = 0;
        for (int i = 0; i < (int)board.size(); ++i)
            if (board[i] == 'o') total += (int)board.size() - i;
        return total % 2 == 1 ? "YES" : "NO";
    }
};
