// C++ port of reference.py: compare each side's colour count with the other side's exclusive
// colours. Accepted.
#include <set>
#include <string>
using namespace std;

class DoorsGame {
public:
    int determineOutcome(string doors, int trophy) {
        set<char> john(doors.begin(), doors.begin() + trophy), gogo(doors.begin() + trophy, doors.end());
        int gogoOnly = 0, johnOnly = 0;
        for (char c : gogo) gogoOnly += !john.count(c);
        for (char c : john) johnOnly += !gogo.count(c);
        if ((int)john.size() <= gogoOnly) return 2 * john.size() - 1;
        if ((int)gogo.size() < johnOnly) return -2 * (int)gogo.size();
        return 0;
    }
};
