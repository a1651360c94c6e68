# expect: WA
# threat: (1) AC without solving: walk the whole checkout (reports/, solutions/, problems/,
#   testdata/, the judge's own source) reading every file, looking for this seed's expected value.
# why: Landlock leaves the project unreadable: os.walk sees nothing (its listdir errors are
#   swallowed) and direct opens raise PermissionError. The solution returns 0 (WA). Finding the
#   answer would give AC; reading any project byte at all raises "LEAK" (RE): both fail the suite.
import os
import re

SOLUTIONS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(SOLUTIONS)))
DIRECT = ["reports/README.md", "README.md", "tcjudge/grading.py", "judge.py", "pyproject.toml"]


class Vault:
    def open(self, seed):
        pattern = re.compile(r"\{seed: %d\}\s*\n\s*expected: (-?\d+)" % seed)
        read = []
        paths = [os.path.join(ROOT, name) for name in DIRECT]
        for top in ("reports", "solutions", "problems", "testdata", "tcjudge", "tests", ""):
            for folder, _dirs, files in os.walk(os.path.join(ROOT, top)):
                paths += [os.path.join(folder, name) for name in files]
        for path in paths:
            try:
                with open(path, "rb") as handle:
                    text = handle.read().decode("utf-8", "replace")
            except OSError:
                continue
            read.append(path)
            match = pattern.search(text)
            if match:
                return int(match.group(1))
        if read:
            raise RuntimeError(f"LEAK: read {len(read)} project files, e.g. {read[0]}")
        return 0
