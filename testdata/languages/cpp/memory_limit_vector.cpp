// expect: MLE
// Far more than the 64 MiB limit: the allocation fails (std::bad_alloc) or the peak is over.
#include <vector>
using namespace std;

class Adder {
public:
    long long add(vector<int> values, int factor) {
        vector<long long> big(50000000, factor);
        return big[12345] + big.size();
    }
};
