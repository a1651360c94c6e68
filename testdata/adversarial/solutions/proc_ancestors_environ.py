# expect: WA
# threat: (1)+(5) read /proc/<pid>/environ and /proc/<pid>/cmdline of the zygote and of the judge
#   above it (walking up with os.getppid() and the ppid field of /proc/<pid>/stat), and of pids
#   near them, looking for the expected value or the judge's secret environment variable.
# why: Landlock makes /proc unreadable (even /proc/self), so every read raises PermissionError and
#   only os.getppid() is known; nothing is found and the solution returns 0 (WA). Any byte read
#   from /proc raises "LEAK" (RE); the secret, if seen, would be returned and show in the message.
import os


def ppid_of(pid):
    with open(f"/proc/{pid}/stat") as handle:
        return int(handle.read().rsplit(")", 1)[1].split()[1])


class Vault:
    def open(self, seed):
        ancestors = [os.getpid(), os.getppid()]
        while True:
            try:
                parent = ppid_of(ancestors[-1])
            except (OSError, ValueError, IndexError):
                break
            if parent <= 1 or parent in ancestors:
                break
            ancestors.append(parent)
        pids = list(dict.fromkeys(ancestors + [p + d for p in ancestors for d in range(-8, 9) if p + d > 1]))
        leaked = []
        for pid in ["self"] + pids:
            for what in ("environ", "cmdline", "status"):
                try:
                    with open(f"/proc/{pid}/{what}", "rb") as handle:
                        data = handle.read()
                except OSError:
                    continue
                leaked.append(f"{pid}/{what}")
                for entry in data.split(b"\0"):
                    if entry.startswith(b"ADVERSARIAL_JUDGE_SECRET="):
                        return int(entry.split(b"=", 1)[1])
        if leaked:
            raise RuntimeError(f"LEAK: read /proc/{leaked[0]} and {len(leaked) - 1} more")
        return 0
