# expect: WA
# requires: landlock.fs
# threat: (2) change the checkout without writing data: chmod the victim and this source file,
#   change their times (utime), chown them, truncate them by path (truncate(2)), make a symlink and
#   a hard link to the victim inside the project, mknod a FIFO there.
# why: seccomp denies chmod/chown/utime/truncate/mknod with EPERM and Landlock denies making links
#   and truncating; every call raises an OSError, caught here, and the solution returns 0 (WA).
#   Any success raises "LEAK" (RE) and shows in the suite's checkout hash (modes included).
# (Skipped without Landlock: as root these calls would really modify the checkout.)
import os

SOLUTIONS = os.path.dirname(os.path.abspath(__file__))
ADVERSARIAL = os.path.dirname(SOLUTIONS)
VICTIM = os.path.join(ADVERSARIAL, "victim.txt")
OWN = os.path.abspath(__file__)


class Vault:
    def open(self, seed):
        calls = [
            ("chmod victim", os.chmod, VICTIM, 0o777),
            ("chmod own source", os.chmod, OWN, 0o777),
            ("utime victim", os.utime, VICTIM, (0, 0)),
            ("chown victim", os.chown, VICTIM, 65534, 65534),
            ("truncate victim", os.truncate, VICTIM, 0),
            ("truncate own source", os.truncate, OWN, 0),
            ("symlink", os.symlink, VICTIM, os.path.join(ADVERSARIAL, "adversarial-canary-symlink")),
            ("hard link", os.link, VICTIM, os.path.join(ADVERSARIAL, "adversarial-canary-hardlink")),
            ("mkfifo", os.mkfifo, os.path.join(ADVERSARIAL, "adversarial-canary-fifo")),
        ]
        done = []
        for name, call, *args in calls:
            try:
                call(*args)
            except OSError:
                continue
            done.append(name)
        try:
            with open(VICTIM, "rb") as handle:
                os.truncate(handle.fileno(), 0)
            done.append("ftruncate victim through a read-only descriptor")
        except OSError:
            pass
        if done:
            raise RuntimeError("LEAK: " + ", ".join(done))
        return 0
