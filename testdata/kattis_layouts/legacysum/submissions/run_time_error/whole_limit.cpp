// Asks for the whole memory limit (128 MiB) at once, then walks it slowly: the allocation fails at
// once where the limit holds everything the program has (Kattis), so this crashes, never times out.
#include <cstdio>
#include <new>

int main() {
    const long size = 128L << 20;
    volatile char *memory = new char[size];
    for (int round = 0; round < 20; ++round)
        for (long i = 0; i < size; ++i)
            memory[i] = static_cast<char>(memory[i] * 7 + round);
    std::printf("%d\n", memory[size - 1]);
}
