# expect: WA
# threat: (5) spy on the judge: look for the secret variable ADVERSARIAL_JUDGE_SECRET that the suite
#   sets in the judge's environment, in os.environ, os.environb, /proc/self/environ and the
#   zygote's /proc/<ppid>/environ.
# why: the judge starts each zygote with a minimal environment (PATH, LC_ALL, PYTHONHASHSEED), and
#   /proc is unreadable under Landlock, so the variable is nowhere to be seen and the solution
#   returns its "not found" code, -7: WA "expected ..., got -7". If found, it returns the secret's
#   value, which the suite looks for in every message.
import os

NAME = "ADVERSARIAL_JUDGE_SECRET"


class Vault:
    def open(self, seed):
        for environ in (os.environ, {k.decode(): v.decode() for k, v in os.environb.items()}):
            if NAME in environ:
                return int(environ[NAME])
        for path in ("/proc/self/environ", f"/proc/{os.getppid()}/environ"):
            try:
                with open(path, "rb") as handle:
                    for entry in handle.read().split(b"\0"):
                        if entry.startswith(NAME.encode() + b"="):
                            return int(entry.split(b"=", 1)[1])
            except OSError:
                pass
        return -7
