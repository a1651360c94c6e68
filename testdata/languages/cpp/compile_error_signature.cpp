// expect: CE
// The method takes a string where problem.yaml says int[].
#include <string>
using namespace std;

class Adder {
public:
    long long add(string values, int factor) { return values.size() * factor; }
};
