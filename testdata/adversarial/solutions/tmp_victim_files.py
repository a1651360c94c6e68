# expect: WA
# requires: landlock.fs
# threat: (2) change files that already exist outside the checkout: the suite's
#   /tmp/adversarial-victim.txt (mode 0666, so file permissions would let any user write it) and
#   its listening socket /tmp/adversarial-judge-listener.sock: append, truncate, chmod, utime,
#   rename, hard-link, replace with a symlink, unlink.
# why: Landlock grants no access at all beneath /tmp (and seccomp denies chmod, utime and
#   truncate), so every call raises an OSError, caught here; the solution returns 0 (WA). Any
#   success raises "LEAK" (RE), and the suite checks both files are still exactly as it made them.
# (Skipped without Landlock: the victim's permissions would let these calls through.)
import os

VICTIM = "/tmp/adversarial-victim.txt"
SOCKET = "/tmp/adversarial-judge-listener.sock"


def append(path):
    with open(path, "a") as handle:
        handle.write("adversarial-canary: tampered\n")


def replace_with_symlink(path):
    os.symlink("/etc/passwd", path + ".adversarial-canary-tmp")
    os.rename(path + ".adversarial-canary-tmp", path)


class Vault:
    def open(self, seed):
        calls = [
            ("append", append, VICTIM),
            ("truncate", os.truncate, VICTIM, 0),
            ("chmod", os.chmod, VICTIM, 0o600),
            ("utime", os.utime, VICTIM, (0, 0)),
            ("hard link", os.link, VICTIM, "/tmp/adversarial-canary-hardlink"),
            ("rename", os.rename, VICTIM, "/tmp/adversarial-canary-renamed"),
            ("symlink over", replace_with_symlink, VICTIM),
            ("unlink", os.unlink, VICTIM),
            ("chmod socket", os.chmod, SOCKET, 0o600),
            ("unlink socket", os.unlink, SOCKET),
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
