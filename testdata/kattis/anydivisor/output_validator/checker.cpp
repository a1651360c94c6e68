// A checker in the testlib convention, written for the judge's tests (no testlib.h):
//     checker input_file output_file answer_file
// exit 0 accepted, 1 wrong answer, 2 presentation error, 3 the checker's own failure; the message on
// standard error as testlib words it. Any proper divisor of n is right; -1 only when n is prime.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

static void verdict(int code, const std::string& message) {
    std::fprintf(stderr, "%s\n", message.c_str());
    std::exit(code);
}

int main(int argc, char** argv) {
    if (argc < 4) verdict(3, "FAIL usage: checker input output answer");
    long long n = 0, answer = 0;
    std::ifstream(argv[1]) >> n;
    std::ifstream(argv[3]) >> answer;
    if (answer != -1 && !(1 < answer && answer < n && n % answer == 0))
        verdict(3, "FAIL the answer file holds no proper divisor of n");
    std::ifstream output(argv[2]);
    long long found = 0;
    if (!(output >> found)) verdict(2, "wrong output format expected an integer");
    std::string extra;
    if (output >> extra) verdict(2, "wrong output format extra tokens after the integer");
    if (found == -1) {
        if (answer == -1) verdict(0, "ok n is prime");
        verdict(1, "wrong answer n is not prime: " + std::to_string(answer) + " divides it");
    }
    if (1 < found && found < n && n % found == 0) verdict(0, "ok " + std::to_string(found) + " divides n");
    verdict(1, "wrong answer " + std::to_string(found) + " is not a proper divisor of " + std::to_string(n));
}
