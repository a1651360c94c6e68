// expect: CE
// expect-message: 64 MiB
// threat: (4) fill the judge's disk through its build cache: a file of a few hundred bytes whose
//   initialised 250 MiB array makes a 252 MiB program, which the cache keeps for every submission
//   (another blank or number in the file is another key) and nothing ever removed.
// why: a program may be at most 64 MiB: the compiler may write no file larger than that (the
//   assembler is stopped when its object file reaches it) and a build that is larger anyway is CE
//   with its files removed; the cache as a whole is kept under its cap by removing the builds used
//   least recently. Before: it compiled, 252 MiB stayed in the cache, and it ran (WA).
static char blob[250 << 20] = {1};

class Vault {
public:
    long long open(int seed) { return blob[(unsigned) seed % sizeof blob]; }
};
