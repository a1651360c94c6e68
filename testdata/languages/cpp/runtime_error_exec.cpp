// expect: RE
// Tries to run another program after the judge's one allowed execve: denied (EACCES), so it
// gives up with an exception.
#include <stdexcept>
#include <unistd.h>
#include <vector>
using namespace std;

class Adder {
public:
    long long add(vector<int> values, int factor) {
        char* argv[] = {(char*)"/bin/true", nullptr};
        execv("/bin/true", argv);
        throw runtime_error("execv failed");
    }
};
