// Recurses through ~100 MiB of stack, then judges: the program's one number must be the answer's.
// It writes the input to its standard output too, so it serves as an interactor as well.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

static long descend(long n) {
    volatile char frame[1024];  // 1 KiB a level, kept: 100000 levels are 100 MiB
    frame[0] = static_cast<char>(n);
    if (n == 0) return frame[0];
    return descend(n - 1) + frame[0];
}

int main(int argc, char **argv) {
    if (argc < 4) return 1;
    descend(100000);
    std::ifstream input(argv[1]), answer(argv[2]);
    std::string given((std::istreambuf_iterator<char>(input)), std::istreambuf_iterator<char>());
    std::cout << given << std::flush;
    long expected, got;
    answer >> expected;
    if (!(std::cin >> got) || got != expected) {
        std::ofstream(std::string(argv[3]) + "judgemessage.txt") << "wrong sum";
        return 43;
    }
    return 42;
}
