// expect: AC
// An archive submission: its own size() clashes with std::size under C++17 (compiled under gnu++14
// by the fallback rule), and a main() for local testing that the judge never calls.
#include <bits/stdc++.h>
using namespace std;

template <class T> int size(const T& c) { return (int)c.size(); }

class Adder {
public:
    long long add(vector<int> values, int factor) {
        long long total = 0;
        for (int i = 0; i < size(values); ++i) total += (long long)values[i] * factor;
        return total;
    }
};

int main() {
    cout << Adder().add({1, 2}, 3) << endl;
    exit(3);
}
