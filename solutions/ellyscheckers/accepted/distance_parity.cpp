// C++ port of reference.py: the game is decided by the parity of the total distance of the
// checkers to the last cell. Written as an archive submission: its own size() helper next to
// `using namespace std;` (std::size exists from C++17), and a main() for local testing. It
// compiles under gnu++14 only, which the judge falls back to: accepted.
#include <bits/stdc++.h>
using namespace std;

template <class T> int size(const T& c) { return (int)c.size(); }

class EllysCheckers {
public:
    string getWinner(string board) {
        int last = size(board) - 1, total = 0;
        for (int i = 0; i < size(board); ++i)
            if (board[i] == 'o') total += last - i;
        return total % 2 == 1 ? "YES" : "NO";
    }
};

int main() {
    cout << EllysCheckers().getWinner(".o...") << endl;
    return 0;
}
