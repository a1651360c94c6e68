# expect: WA
# threat: (1) attach to the zygote and to the judge (the zygote's process-group leader) with
#   ptrace through ctypes, the first step to reading their memory with PTRACE_PEEKDATA. It uses
#   PTRACE_SEIZE, which does not stop the target, so that a sandbox failure cannot freeze the judge.
# why: seccomp denies ptrace with EPERM (and Yama would too, for a process that is not our
#   descendant), so every call returns -1; the solution returns 0 (WA). A successful seize raises
#   "LEAK" (RE); the kernel detaches the target when this process exits.
import ctypes
import os

PTRACE_SEIZE = 0x4206
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.restype = ctypes.c_long
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]


class Vault:
    def open(self, seed):
        zygote = os.getppid()
        attached = []
        targets = [zygote]
        try:
            targets.append(os.getpgid(zygote))
        except OSError:
            pass
        for pid in dict.fromkeys(targets):
            if libc.ptrace(PTRACE_SEIZE, pid, None, None) == 0:
                attached.append(pid)
        if attached:
            raise RuntimeError(f"LEAK: ptrace attached to {attached}")
        return 0
