# expect: WA
# requires: landlock.fs
# threat: (2) change the checkout: delete the victim file and this solution's own source, rename
#   them, rename the vault's test folder away, make and remove directories in the project.
# why: Landlock denies removing, renaming and making entries (no write access anywhere), so every
#   call raises PermissionError, caught here; the solution returns 0 (WA). Any success raises
#   "LEAK" (RE) and shows in the suite's checkout hash.
# (Skipped without Landlock: as root these calls would really modify the checkout.)
import os

SOLUTIONS = os.path.dirname(os.path.abspath(__file__))
ADVERSARIAL = os.path.dirname(SOLUTIONS)
ROOT = os.path.dirname(os.path.dirname(ADVERSARIAL))
VICTIM = os.path.join(ADVERSARIAL, "victim.txt")
TESTS = os.path.join(ADVERSARIAL, "problem", "vault", "tests")


class Vault:
    def open(self, seed):
        calls = [
            ("unlink victim", os.unlink, VICTIM),
            ("unlink own source", os.unlink, os.path.abspath(__file__)),
            ("rename victim", os.rename, VICTIM, VICTIM + ".adversarial-canary-moved"),
            ("rename own source", os.rename, os.path.abspath(__file__), os.path.join(ROOT, "adversarial-canary-moved.py")),
            ("rename tests folder", os.rename, TESTS, TESTS + ".adversarial-canary-moved"),
            ("mkdir in root", os.mkdir, os.path.join(ROOT, "adversarial-canary-dir")),
            ("mkdir next to problem", os.mkdir, os.path.join(ADVERSARIAL, "adversarial-canary-dir")),
            ("rmdir tests folder", os.rmdir, TESTS),
            ("unlink test file", os.unlink, os.path.join(TESTS, "vault.yaml")),
        ]
        done = []
        for name, call, *args in calls:
            try:
                call(*args)
            except OSError:
                continue
            done.append(name)
        if done:
            raise RuntimeError("LEAK: " + ", ".join(done))
        return 0
