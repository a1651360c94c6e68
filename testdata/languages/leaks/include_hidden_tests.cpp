// expect: CE
// Reads a problem's hidden tests at compile time. tests/test_languages.py puts a project (the adder
// fixture) under a system folder the compiler may read, /usr/local, and replaces HIDDEN_TESTS with
// the path of its problems/adder/tests/more.yaml. When the compiler could read it (all of /usr was
// granted), the CE message quoted the file, expected values included ("expected: 3000000000000").
// The compiler's Landlock rules grant /usr minus the way to the project: the #include is denied, and
// the message names the file but quotes none of it.
#include "HIDDEN_TESTS"

class Adder {
public:
    long long add(std::vector<int> values, int factor) { return 0; }
};
