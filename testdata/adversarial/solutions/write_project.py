# expect: WA
# requires: landlock.fs
# threat: (2) change the checkout: create new files (in the project root, next to the problem, in
#   tcjudge/__pycache__ where a planted .pyc would run inside the judge), overwrite the victim file,
#   append to the vault's test file and to this solution's own source, open with O_CREAT|O_EXCL and
#   O_TRUNC.
# why: Landlock grants no write or create access anywhere, so every open for writing raises
#   PermissionError, caught here; the solution returns 0 (WA). (RLIMIT_FSIZE 0 would also stop the
#   bytes, not the creation or truncation.) An open that worked raises "LEAK" (RE), and the suite's
#   checkout hash and canary scan see the change.
# (Skipped without Landlock: as root these writes would really modify the checkout.)
import os

SOLUTIONS = os.path.dirname(os.path.abspath(__file__))
ADVERSARIAL = os.path.dirname(SOLUTIONS)
ROOT = os.path.dirname(os.path.dirname(ADVERSARIAL))
CREATE = [
    os.path.join(ROOT, "adversarial-canary-write"),
    os.path.join(ADVERSARIAL, "adversarial-canary-write"),
    os.path.join(ROOT, "tcjudge", "__pycache__", "adversarial-canary-write.cpython-311.pyc"),
    os.path.join(ROOT, "reports", "adversarial-canary-write.json"),
]
APPEND = [
    os.path.abspath(__file__),
    os.path.join(ADVERSARIAL, "problem", "vault", "tests", "vault.yaml"),
    os.path.join(ADVERSARIAL, "victim.txt"),
]


class Vault:
    def open(self, seed):
        done = []
        for path in CREATE:
            for flags in (os.O_WRONLY | os.O_CREAT | os.O_EXCL, os.O_WRONLY | os.O_CREAT):
                try:
                    fd = os.open(path, flags, 0o644)
                except OSError:
                    continue
                done.append(f"created {path}")
                try:
                    os.write(fd, b"adversarial-canary: tampered\n")
                except OSError:  # EFBIG: RLIMIT_FSIZE is 0
                    pass
                os.close(fd)
        for path in APPEND:
            for mode in ("a", "r+"):
                try:
                    handle = open(path, mode)
                except OSError:
                    continue
                done.append(f"opened {path} for writing ({mode})")
                try:
                    with handle:
                        handle.write("\n# adversarial-canary: tampered\n")
                except OSError:  # EFBIG: RLIMIT_FSIZE is 0
                    pass
        victim = os.path.join(ADVERSARIAL, "victim.txt")
        try:
            fd = os.open(victim, os.O_WRONLY | os.O_TRUNC)
            os.close(fd)
            done.append(f"truncated {victim} with O_TRUNC")
        except OSError:
            pass
        if done:
            raise RuntimeError("LEAK: " + "; ".join(done))
        return 0
