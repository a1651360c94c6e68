# expect: WA
# threat: (4) replace the interpreter with another program (os.execv of a shell that would create a
#   canary file after a second), to leave Python's confinement-aware world behind.
# why: seccomp denies execve and execveat with EACCES, so every exec raises PermissionError, caught
#   here; the solution returns 0 (WA). Had an exec worked, the shell would have exited without a
#   report (RE) and the canary scan would have found its file.
import os

SCRIPT = "sleep 1; echo escaped > /tmp/adversarial-canary-exec # adversarial-marker"


class Vault:
    def open(self, seed):
        for program, argv in (("/bin/sh", ["sh", "-c", SCRIPT]), ("/usr/bin/env", ["env", "sh", "-c", SCRIPT])):
            try:
                os.execv(program, argv)
            except OSError:
                pass
        return 0
