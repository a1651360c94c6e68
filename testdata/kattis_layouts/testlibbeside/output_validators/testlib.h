// A stand-in for a package's testlib.h, written for the judge's tests (not testlib itself): the few
// names checker.cpp uses, in the Kattis flavour some packages' copies have (the answer and feedback
// folder as arguments, the output on standard input, exit status 42 or 43).
#pragma once
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>

enum TResult { _ok, _wa };

static std::string feedback_folder;

inline void quitf(TResult result, const char *format, ...) {
    std::FILE *message = std::fopen((feedback_folder + "judgemessage.txt").c_str(), "w");
    if (message != nullptr) {
        va_list words;
        va_start(words, format);
        std::vfprintf(message, format, words);
        va_end(words);
        std::fclose(message);
    }
    std::exit(result == _ok ? 42 : 43);
}

struct InStream {
    std::FILE *file = nullptr;
    long readLong() {
        long value;
        if (file == nullptr || std::fscanf(file, "%ld", &value) != 1) quitf(_wa, "expected an integer");
        return value;
    }
    bool seekEof() {
        int c;
        while ((c = std::fgetc(file)) != EOF)
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return false;
        return true;
    }
};

static InStream inf, ouf, ans;

inline void registerKattisChecker(int argc, char **argv) {
    if (argc < 4) std::exit(1);
    inf.file = std::fopen(argv[1], "r");
    ans.file = std::fopen(argv[2], "r");
    feedback_folder = argv[3];
    ouf.file = stdin;
}
