# expect: WA
# requires: landlock.fs
# threat: (2) leave files outside the checkout: create, write and append canary files and make
#   directories and symlinks in $HOME (root's and nobody's), /tmp, /var/tmp, /dev/shm and the
#   current directory (/), where a later run or another user could pick them up.
# why: Landlock grants no write or create access anywhere (and /tmp, /dev, $HOME are not even
#   readable), so every call raises PermissionError, caught here; the solution returns 0 (WA).
#   Any success raises "LEAK" (RE), and the suite's canary scan finds the file.
# (Skipped without Landlock: these files would really be created.)
import os

DIRS = [os.environ.get("HOME", ""), "/root", "/nonexistent", "/home/nobody", "/tmp", "/var/tmp", "/dev/shm", "/", "."]


class Vault:
    def open(self, seed):
        done = []
        for folder in dict.fromkeys(d for d in DIRS if d):
            path = os.path.join(folder, "adversarial-canary-home-tmp")
            for mode in ("x", "a", "w"):
                try:
                    with open(path, mode) as handle:
                        handle.write("escaped\n")
                    done.append(f"{mode} {path}")
                except OSError:
                    pass
            for call, args in ((os.mkdir, (path + "-dir",)), (os.symlink, ("/etc/passwd", path + "-link"))):
                try:
                    call(*args)
                    done.append(f"{call.__name__} {args[-1]}")
                except OSError:
                    pass
        if done:
            raise RuntimeError("LEAK: " + "; ".join(done))
        return 0
