#include "bounds.h"

int main() {
    read_int(-1000, 1000, ' ');
    read_int(-1000, 1000, '\n');
    if (std::getchar() != EOF) {
        std::fprintf(stderr, "trailing data\n");
        return 43;
    }
    return 42;
}
