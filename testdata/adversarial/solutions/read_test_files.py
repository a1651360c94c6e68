# expect: WA
# threat: (1) AC without solving: read the expected outputs from the vault's tests/*.yaml, by the
#   absolute path derived from the solution's own __file__, by the fixed checkout path, and by
#   listing the tests folder.
# why: Landlock grants read access to interpreter paths only, so every open() and listdir() of the
#   project raises PermissionError, caught here; the solution then returns 0 (WA). Had a read
#   worked, it would return the expected value and be judged AC, failing the suite.
import os
import re

SOLUTIONS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(SOLUTIONS)))
CANDIDATE_ROOTS = [ROOT, "/work/main"]


def answer_in(text, seed):
    match = re.search(r"\{seed: %d\}\s*\n\s*expected: (-?\d+)" % seed, text)
    return int(match.group(1)) if match else None


class Vault:
    def open(self, seed):
        for root in CANDIDATE_ROOTS:
            tests = os.path.join(root, "testdata", "adversarial", "problem", "vault", "tests")
            names = ["examples.yaml", "vault.yaml"]
            try:
                names += os.listdir(tests)
            except OSError:
                pass
            for name in names:
                try:
                    with open(os.path.join(tests, name)) as handle:
                        found = answer_in(handle.read(), seed)
                except OSError:
                    continue
                if found is not None:
                    return found
        return 0
