"""Hand-written classic-BPF seccomp filter: a deny list over a default-allow policy.

Landlock confines the filesystem (and TCP, and signals on newer kernels); this filter closes what
Landlock leaves open (process creation, sockets of every family, other processes, kernel
facilities, file-metadata changes, persistent IPC, system administration). docs/security.md gives
the reason for each group. Denied calls return an errno, so a solution sees a Python exception.

Syscall numbers: x86_64 from arch/x86/entry/syscalls/syscall_64.tbl, aarch64 from the generic
table (scripts/syscall.tbl, ABIs common/64/rlimit/renameat/newstat/memfd_secret); the test suite
checks both against the installed kernel headers where they have the name.
"""

from __future__ import annotations

import ctypes
import errno
from collections import namedtuple

from . import _sys
from .profiles import PYTHON, Profile

# --- seccomp / BPF constants (include/uapi/linux/seccomp.h, filter.h, audit.h) ---------------

SECCOMP_SET_MODE_FILTER = 1
SECCOMP_GET_ACTION_AVAIL = 2
SECCOMP_MODE_FILTER = 2

RET_KILL_PROCESS = 0x80000000
RET_ERRNO = 0x00050000
RET_ALLOW = 0x7FFF0000

AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}  # EM_* | 64BIT | LE

LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
ALU_AND_K = 0x54  # BPF_ALU | BPF_AND | BPF_K
JMP_JA = 0x05
JMP_JEQ_K = 0x15
JMP_JGT_K = 0x25
JMP_JGE_K = 0x35
RET_K = 0x06

# struct seccomp_data { int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6]; }
OFF_NR = 0
OFF_ARCH = 4


def arg_lo(i: int) -> int:  # both supported arches are little-endian
    return 16 + 8 * i


def arg_hi(i: int) -> int:
    return 16 + 8 * i + 4


CLONE_THREAD = 0x00010000
CLONE_PARENT = 0x00008000
MAP_SHARED = 0x01  # MAP_SHARED_VALIDATE (0x03) includes it
MAP_ANONYMOUS = 0x20  # the same on x86_64 and aarch64
MAP_GROWSDOWN = 0x0100  # x86_64 and aarch64
PROT_WRITE = 0x2
PROT_EXEC = 0x4
# fcntl commands (asm-generic/fcntl.h, the same on both arches)
F_SETFL = 4
F_SETOWN = 8
F_SETSIG = 10
F_SETOWN_EX = 15
F_SETPIPE_SZ = 1031
O_ASYNC = 0o20000  # FASYNC
SIGNALLING_FCNTLS = (F_SETOWN, F_SETSIG, F_SETOWN_EX)
CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
CLONE_NS_FLAGS = CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET

# ioctl requests a Python program legitimately issues on pipes, /dev/null and read-only files.
# Same values on x86_64 and aarch64 (asm-generic/ioctls.h); TCGETS2 = _IOR('T', 0x2A, termios2).
ALLOWED_IOCTLS = {
    "TCGETS": 0x5401,  # isatty(), used by open() to choose buffering
    "TCGETS2": 0x802C542A,  # newer glibc isatty()
    "TIOCGWINSZ": 0x5413,  # shutil.get_terminal_size()
    "TIOCGPGRP": 0x540F,
    "FIONREAD": 0x541B,
    "FIONBIO": 0x5421,
    "FIONCLEX": 0x5450,  # os.set_inheritable()
    "FIOCLEX": 0x5451,
}

# Highest syscall number whose meaning we reviewed (469 = file_setattr, Linux 6.17). Anything
# above - future syscalls, x86 x32 numbers (bit 30), garbage - gets ENOSYS, the answer libc
# expects from an older kernel, so a new syscall can never open a gap unnoticed.
MAX_REVIEWED_NR = 469

# --- syscall numbers ----------------------------------------------------------------------------

_GENERIC = {  # numbers shared by x86_64 and aarch64 (the unified range >= 424)
    "pidfd_send_signal": 424, "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
    "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
    "pidfd_open": 434, "clone3": 435, "pidfd_getfd": 438, "process_madvise": 440, "mount_setattr": 442,
    "quotactl_fd": 443, "memfd_secret": 447, "process_mrelease": 448, "fchmodat2": 452,
    "setxattrat": 463, "removexattrat": 466, "open_tree_attr": 467, "file_setattr": 469,
}  # fmt: skip

SYSCALLS: dict[str, dict[str, int]] = {
    "x86_64": {
        "mmap": 9, "ioctl": 16, "shmget": 29, "shmat": 30, "shmctl": 31, "socket": 41, "socketpair": 53,
        "clone": 56, "fork": 57, "vfork": 58, "execve": 59, "kill": 62, "semget": 64, "semop": 65,
        "semctl": 66, "shmdt": 67, "msgget": 68, "msgsnd": 69, "msgrcv": 70, "msgctl": 71,
        "truncate": 76, "chmod": 90, "fchmod": 91, "chown": 92, "fchown": 93, "lchown": 94,
        "ptrace": 101, "syslog": 103, "setpgid": 109, "setsid": 112, "utime": 132, "mknod": 133,
        "uselib": 134, "personality": 135, "setpriority": 141, "sched_setparam": 142,
        "sched_setscheduler": 144, "vhangup": 153, "modify_ldt": 154, "pivot_root": 155,
        "adjtimex": 159, "setrlimit": 160, "chroot": 161, "acct": 163, "settimeofday": 164,
        "mount": 165, "umount2": 166, "swapon": 167, "swapoff": 168, "reboot": 169,
        "sethostname": 170, "setdomainname": 171, "iopl": 172, "ioperm": 173, "init_module": 175,
        "delete_module": 176, "quotactl": 179, "setxattr": 188, "lsetxattr": 189, "fsetxattr": 190,
        "removexattr": 197, "lremovexattr": 198, "fremovexattr": 199, "tkill": 200,
        "sched_setaffinity": 203, "semtimedop": 220, "clock_settime": 227, "tgkill": 234,
        "utimes": 235, "mq_open": 240, "mq_unlink": 241, "mq_timedsend": 242, "mq_timedreceive": 243,
        "mq_notify": 244, "mq_getsetattr": 245, "kexec_load": 246, "add_key": 248,
        "request_key": 249, "keyctl": 250, "ioprio_set": 251, "inotify_init": 253,
        "inotify_add_watch": 254, "migrate_pages": 256, "mknodat": 259, "fchownat": 260,
        "futimesat": 261, "fchmodat": 268, "unshare": 272, "move_pages": 279, "utimensat": 280,
        "inotify_init1": 294, "rt_tgsigqueueinfo": 297, "perf_event_open": 298, "fanotify_init": 300,
        "fanotify_mark": 301, "prlimit64": 302, "name_to_handle_at": 303, "open_by_handle_at": 304,
        "clock_adjtime": 305, "setns": 308, "process_vm_readv": 310, "process_vm_writev": 311,
        "kcmp": 312, "finit_module": 313, "sched_setattr": 314, "memfd_create": 319,
        "kexec_file_load": 320, "bpf": 321, "execveat": 322, "userfaultfd": 323,
        "rt_sigqueueinfo": 129, "mprotect": 10, "fcntl": 72, "pkey_mprotect": 329,
        **_GENERIC,
    },
    "aarch64": {
        "setxattr": 5, "lsetxattr": 6, "fsetxattr": 7, "removexattr": 14, "lremovexattr": 15,
        "fremovexattr": 16, "mmap": 222, "mprotect": 226, "fcntl": 25, "pkey_mprotect": 288, "inotify_init1": 26, "inotify_add_watch": 27, "ioctl": 29,
        "ioprio_set": 30, "mknodat": 33, "umount2": 39, "mount": 40, "pivot_root": 41,
        "truncate": 45, "chroot": 51, "fchmod": 52, "fchmodat": 53, "fchownat": 54, "fchown": 55,
        "vhangup": 58, "quotactl": 60, "utimensat": 88, "acct": 89, "personality": 92,
        "unshare": 97, "kexec_load": 104, "init_module": 105, "delete_module": 106,
        "clock_settime": 112, "syslog": 116, "ptrace": 117, "sched_setparam": 118,
        "sched_setscheduler": 119, "sched_setaffinity": 122, "kill": 129, "tkill": 130,
        "tgkill": 131, "rt_sigqueueinfo": 138, "setpriority": 140, "reboot": 142, "setpgid": 154,
        "setsid": 157, "sethostname": 161, "setdomainname": 162, "setrlimit": 164,
        "settimeofday": 170, "adjtimex": 171, "mq_open": 180, "mq_unlink": 181,
        "mq_timedsend": 182, "mq_timedreceive": 183, "mq_notify": 184, "mq_getsetattr": 185,
        "msgget": 186, "msgctl": 187, "msgrcv": 188, "msgsnd": 189, "semget": 190, "semctl": 191,
        "semtimedop": 192, "semop": 193, "shmget": 194, "shmctl": 195, "shmat": 196, "shmdt": 197,
        "socket": 198, "socketpair": 199, "add_key": 217, "request_key": 218, "keyctl": 219,
        "clone": 220, "execve": 221, "swapon": 224, "swapoff": 225, "migrate_pages": 238,
        "move_pages": 239, "rt_tgsigqueueinfo": 240, "perf_event_open": 241, "prlimit64": 261,
        "fanotify_init": 262, "fanotify_mark": 263, "name_to_handle_at": 264,
        "open_by_handle_at": 265, "clock_adjtime": 266, "setns": 268, "process_vm_readv": 270,
        "process_vm_writev": 271, "kcmp": 272, "finit_module": 273, "sched_setattr": 274,
        "memfd_create": 279, "bpf": 280, "execveat": 281, "userfaultfd": 282,
        "kexec_file_load": 294,
        **_GENERIC,
    },
}  # fmt: skip

# --- policy -------------------------------------------------------------------------------------

EPERM = ("errno", errno.EPERM)
EACCES = ("errno", errno.EACCES)
ENOSYS = ("errno", errno.ENOSYS)
IGNORED = ("errno", 0)  # RET_ERRNO with errno 0: the call returns 0 without running

# (group, reason, action, names). Names missing on an architecture (fork on aarch64) are skipped.
DENY_GROUPS: list[tuple[str, str, tuple[str, int], tuple[str, ...]]] = [
    ("processes", "no new processes (fork bombs, double-fork daemons, escaping the process group)",
     EPERM, ("fork", "vfork", "setsid", "setpgid")),
    ("exec", "no other program may replace the interpreter", EACCES, ("execve", "execveat")),
    ("execveat", "a program the judge exec'd may exec nothing: its one execve went through execve", EACCES,
     ("execveat",)),
    ("clone3", "clone3 flags live in memory BPF cannot read: ENOSYS makes glibc fall back to clone",
     ENOSYS, ("clone3",)),
    ("sockets", "no socket of any family: network, unix, netlink, packet", EACCES, ("socket", "socketpair")),
    ("other-processes", "no reading, writing, signalling or re-prioritising other processes",
     EPERM, ("ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_open", "pidfd_getfd",
             "pidfd_send_signal", "process_madvise", "process_mrelease", "tkill", "rt_sigqueueinfo",
             "rt_tgsigqueueinfo", "setpriority", "ioprio_set", "sched_setaffinity", "sched_setscheduler",
             "sched_setparam", "sched_setattr", "migrate_pages", "move_pages")),
    ("own-limits", "setting its own resource limits succeeds and changes nothing (the judge's limits hold; "
     "the `setrlimit(RLIMIT_STACK, ...)` preamble runs as in plain Python, the stack being at the memory limit)",
     IGNORED, ("setrlimit",)),
    ("namespaces-mounts", "no namespaces, mounts, chroot or quota changes", EPERM,
     ("mount", "umount2", "pivot_root", "chroot", "unshare", "setns", "open_tree", "open_tree_attr",
      "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr", "quotactl", "quotactl_fd")),
    ("kernel-facilities", "large kernel attack surface or fd sources that bypass other layers", EPERM,
     ("keyctl", "add_key", "request_key", "bpf", "perf_event_open", "userfaultfd", "io_uring_setup",
      "io_uring_enter", "io_uring_register", "fanotify_init", "fanotify_mark", "inotify_init",
      "inotify_init1", "inotify_add_watch", "name_to_handle_at", "open_by_handle_at")),
    ("persistent-ipc", "SysV IPC, POSIX queues and memfd outlive the process or escape RLIMIT_DATA", EPERM,
     ("shmget", "shmat", "shmctl", "shmdt", "semget", "semop", "semctl", "semtimedop", "msgget", "msgsnd",
      "msgrcv", "msgctl", "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify",
      "mq_getsetattr", "memfd_create", "memfd_secret")),
    ("file-metadata", "Landlock does not cover chmod/chown/utime/xattr/fsxattr, nor truncate(2) before ABI 3",
     EPERM, ("chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "fchown", "lchown", "fchownat", "utime",
             "utimes", "futimesat", "utimensat", "setxattr", "lsetxattr", "fsetxattr", "removexattr",
             "lremovexattr", "fremovexattr", "setxattrat", "removexattrat", "file_setattr", "truncate",
             "mknod", "mknodat")),
    ("system-admin", "matters if the child keeps root: no reboot, modules, clocks, swap, port I/O, kernel log",
     EPERM, ("reboot", "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
             "swapon", "swapoff", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
             "sethostname", "setdomainname", "iopl", "ioperm", "acct", "syslog", "vhangup",
             "personality", "modify_ldt", "uselib")),
]  # fmt: skip

# (own_scheduling profiles) a thread's scheduling policy set "successfully", changing nothing: mono sets
# its finalizer thread's and, refused, prints a warning on standard output, into the program's answer
OWN_SCHEDULING = ("own-scheduling", "setting a scheduling policy succeeds and changes nothing (mono sets its "
                  "finalizer thread's, and prints a warning into the answer when refused)", IGNORED,
                  ("sched_setscheduler", "sched_setparam"))

# (processes profiles) what stays of the "processes" group: the tree keeps to the test's process group
TREE_PROCESSES = ("processes", "no leaving the process group, which the engine kills at the test's end (fork and "
                  "vfork allowed: a bounded tree)", EPERM, ("setsid", "setpgid"))

# Calls decided on their arguments (handlers below).
CONDITIONAL = {
    "clone": "allowed only with CLONE_THREAD and no CLONE_NEW* flag (threads yes, processes no)",
    "execve": "(exec profiles) only with the path pointer the judge's child chose at random before it entered "
              "the filter (patched in at enter()): the judge's one exec of the program; the program itself, "
              "which cannot know that address, can exec nothing, whatever it links or runs before main",
    "kill": "allowed only to the process itself (pid patched in at enter())",
    "tgkill": "allowed only within the process itself (raise(), pthread_kill)",
    "prlimit64": "only for itself; reading works, setting succeeds and changes nothing (as setrlimit): no limit can be raised",
    "ioctl": f"only {', '.join(ALLOWED_IOCTLS)}; anything else ENOTTY (FIFREEZE, chattr, TIOCSTI, ...)",
    "mmap": "no shared anonymous memory, no MAP_GROWSDOWN (ENOMEM): RLIMIT_DATA counts neither; "
            "no PROT_EXEC on anonymous or writable memory (EACCES): no hand-made machine code",
    "mprotect": "no PROT_EXEC (EACCES): memory the process could write never becomes executable",
    "pkey_mprotect": "as mprotect",
    "fcntl": "no F_SETOWN/F_SETOWN_EX/F_SETSIG, no O_ASYNC (signal-driven I/O can signal the judge), "
             "no F_SETPIPE_SZ (pipe buffers are memory no limit counts)",
}


def conditional(profile: Profile) -> list[str]:
    """The calls decided on their arguments under `profile` (the others of CONDITIONAL are allowed)."""
    relaxed = {"mprotect", "pkey_mprotect"} if profile.executable_memory else set()
    if not profile.exec:
        relaxed.add("execve")  # denied outright by the "exec" group
    return [name for name in CONDITIONAL if name not in relaxed]


def deny_groups(profile: Profile) -> list[tuple[str, str, tuple[str, int], tuple[str, ...]]]:
    """DENY_GROUPS under `profile`: an exec profile trades the "exec" group for "execveat" (its one
    execve is decided on its path pointer), the others deny both calls outright; an own_scheduling one
    ignores a scheduling policy (OWN_SCHEDULING) where the others refuse it; a processes one keeps only
    setsid and setpgid of the "processes" group (TREE_PROCESSES)."""
    left_out = "exec" if profile.exec else "execveat"
    groups = [group for group in DENY_GROUPS if group[0] != left_out]
    if profile.processes:  # fork allowed (TREE_PROCESSES)
        groups = [TREE_PROCESSES if group[0] == "processes" else group for group in groups]
    if not profile.own_scheduling:
        return groups
    return [(name, why, action, tuple(call for call in calls if call not in OWN_SCHEDULING[3]))
            for name, why, action, calls in groups] + [OWN_SCHEDULING]


def errno_action(err: int) -> int:
    return RET_ERRNO | (err & 0xFFFF)


class Program(namedtuple("Program", "arch instructions pid_slots exec_slots", defaults=((),))):
    """arch; instructions: ((code, jt, jf, k), ...); pid_slots: indexes whose k is the confined
    process's pid, filled at enter(); exec_slots: ((index, shift), ...), k is (exec token >> shift)
    & 0xFFFFFFFF."""

    __slots__ = ()


class _Asm:
    """Minimal classic-BPF assembler with symbolic labels."""

    def __init__(self) -> None:
        self.ins: list[list] = []
        self.labels: dict[str, int] = {}
        self.pid_slots: list[int] = []
        self.exec_slots: list[tuple[int, int]] = []
        self._n = 0

    def new_label(self, hint: str) -> str:
        self._n += 1
        return f"{hint}#{self._n}"

    def label(self, name: str) -> None:
        assert name not in self.labels, name
        self.labels[name] = len(self.ins)

    def emit(self, code: int, jt: int | str = 0, jf: int | str = 0, k: int | str = 0) -> None:
        self.ins.append([code, jt, jf, k])

    def ld(self, off: int) -> None:
        self.emit(LD_W_ABS, k=off)

    def jump_if(self, code: int, k: int, jt: int | str, jf: int | str) -> None:
        self.emit(code, jt, jf, k)

    def jeq_pid(self, jt: int | str, jf: int | str) -> None:
        self.pid_slots.append(len(self.ins))
        self.emit(JMP_JEQ_K, jt, jf, 0)

    def jeq_exec_token(self, shift: int, jt: int | str, jf: int | str) -> None:
        self.exec_slots.append((len(self.ins), shift))
        self.emit(JMP_JEQ_K, jt, jf, 0)

    def ret(self, k: int) -> None:
        self.emit(RET_K, k=k)

    def ja(self, target: str) -> None:
        self.emit(JMP_JA, k=target)

    def _rel(self, i: int, target: int | str, limit: int) -> int:
        """Offset from instruction i to a label (or a literal offset); forward only, in range."""
        off = self.labels[target] - (i + 1) if isinstance(target, str) else target
        if not 0 <= off <= limit:
            raise ValueError(f"BPF jump at {i} out of range: {off}")
        return off

    def assemble(self) -> tuple[tuple[int, int, int, int], ...]:
        out = []
        for i, (code, jt, jf, k) in enumerate(self.ins):
            if code == JMP_JA:
                k = self._rel(i, k, 0xFFFFFFFF)
            elif code & 0x07 == 0x05:  # conditional jumps carry 8-bit offsets
                jt, jf = self._rel(i, jt, 255), self._rel(i, jf, 255)
            out.append((code, jt, jf, k))
        if len(out) > 4096:  # BPF_MAXINSNS
            raise ValueError("seccomp program too long")
        return tuple(out)


def _intervals(arch: str, profile: Profile) -> list[tuple[int, str]]:
    """The syscall-number line cut into runs with one outcome: [(first_nr, exit_label), ...]."""
    nrs = SYSCALLS[arch]
    outcome: dict[int, str] = {}
    for _group, _why, (_kind, err), names in deny_groups(profile):
        for name in names:
            if name in nrs:
                outcome[nrs[name]] = f"errno_{err}"
    for name in conditional(profile):
        outcome[nrs[name]] = "h_" + name
    runs: list[tuple[int, str]] = []
    for nr in range(MAX_REVIEWED_NR + 1):
        label = outcome.get(nr, "allow")
        if not runs or runs[-1][1] != label:
            runs.append((nr, label))
    runs.append((MAX_REVIEWED_NR + 1, f"errno_{errno.ENOSYS}"))  # up to 2**32-1, x32 numbers included
    return runs


def build_program(arch: str, profile: Profile = PYTHON, scoped: bool = False) -> Program:
    """Arch check, then a balanced binary search over number ranges (about 7 comparisons per
    syscall, about 150 instructions in all: attaching costs tens of microseconds), then the
    argument handlers, then the shared exits. Classic BPF only jumps forward, so exits go last.
    `scoped`: Landlock's signal scope is in force (a processes profile then lets signals reach the tree)."""
    a = _Asm()
    a.ld(OFF_ARCH)
    a.jump_if(JMP_JEQ_K, AUDIT_ARCH[arch], 1, 0)
    a.ret(RET_KILL_PROCESS)  # a foreign syscall ABI (i386 int 0x80, arm32 compat): numbers differ
    a.ld(OFF_NR)

    pending: list[tuple[str, list[tuple[int, str]]]] = []

    def target(runs: list[tuple[int, str]]) -> str:
        if len(runs) == 1:
            return runs[0][1]
        label = a.new_label("node")
        pending.append((label, runs))
        return label

    def node(runs: list[tuple[int, str]]) -> None:
        mid = len(runs) // 2
        left, right = runs[:mid], runs[mid:]
        a.jump_if(JMP_JGE_K, right[0][0], target(right), target(left))

    node(_intervals(arch, profile))  # the root; its subtrees are emitted breadth-first below
    while pending:
        label, runs = pending.pop(0)
        a.label(label)
        node(runs)

    _process_handlers(a, profile, scoped)
    _exec_handler(a, profile)
    _memory_handlers(a, profile)
    _descriptor_handlers(a, profile)

    a.label("allow")
    a.ret(RET_ALLOW)
    for err in (errno.EPERM, errno.EACCES, errno.ENOSYS, errno.ENOTTY, errno.ENOMEM, 0):
        a.label(f"errno_{err}")
        a.ret(errno_action(err))

    return Program(arch, a.assemble(), tuple(a.pid_slots), tuple(a.exec_slots))


def _process_handlers(a: _Asm, profile: Profile, scoped: bool) -> None:
    """Processes and signals: threads but no processes (a processes profile: processes too, in no
    namespace and never as a sibling of the caller); signals and limits for itself only (signals to
    any process of a tree where Landlock's signal scope, `scoped`, keeps them within the test)."""
    a.label("h_clone")  # kernel uses lower_32_bits(flags)
    a.ld(arg_lo(0))
    if profile.processes:
        a.emit(ALU_AND_K, k=CLONE_PARENT | CLONE_NS_FLAGS)
        a.jump_if(JMP_JEQ_K, 0, "allow", f"errno_{errno.EPERM}")
    else:
        a.emit(ALU_AND_K, k=CLONE_THREAD | CLONE_NS_FLAGS)
        a.jump_if(JMP_JEQ_K, CLONE_THREAD, "allow", f"errno_{errno.EPERM}")

    for name in ("kill", "tgkill"):  # kill(pid, sig), tgkill(tgid, tid, sig): the kernel reads an int
        a.label(f"h_{name}")
        a.ld(arg_lo(0))
        if profile.processes and scoped:  # a process (pid > 0), which Landlock keeps within the test's domain
            a.jump_if(JMP_JGE_K, 0x80000000, f"errno_{errno.EPERM}", 0)
            a.jump_if(JMP_JEQ_K, 0, f"errno_{errno.EPERM}", "allow")
        else:
            a.jeq_pid("allow", f"errno_{errno.EPERM}")

    a.label("h_prlimit64")  # prlimit64(pid, resource, new_limit, old_limit)
    a.ld(arg_lo(0))
    a.jump_if(JMP_JEQ_K, 0, 1, 0)
    a.jeq_pid(0, f"errno_{errno.EPERM}")  # another process: denied
    a.ld(arg_lo(2))
    a.jump_if(JMP_JEQ_K, 0, 0, "errno_0")  # itself, new limit set: success without effect
    a.ld(arg_hi(2))
    a.jump_if(JMP_JEQ_K, 0, "allow", "errno_0")  # itself, new limit NULL: a plain read


def _exec_handler(a: _Asm, profile: Profile) -> None:
    """Exec profiles: execve with the exec token alone (patched in at enter())."""
    if not profile.exec:
        return
    a.label("h_execve")  # execve(const char *path, argv, envp): the path pointer, all 64 bits
    a.ld(arg_lo(0))
    a.jeq_exec_token(0, 0, f"errno_{errno.EACCES}")
    a.ld(arg_hi(0))
    a.jeq_exec_token(32, "allow", f"errno_{errno.EACCES}")


def _memory_handlers(a: _Asm, profile: Profile) -> None:
    """Mappings RLIMIT_DATA would not count, and executable memory the process could write."""
    a.label("h_mmap")  # mmap(addr, length, prot, flags, fd, offset)
    a.ld(arg_lo(3))
    a.emit(ALU_AND_K, k=MAP_SHARED | MAP_ANONYMOUS)
    a.jump_if(JMP_JEQ_K, MAP_SHARED | MAP_ANONYMOUS, f"errno_{errno.ENOMEM}", 0)
    if not profile.growsdown:
        a.ld(arg_lo(3))
        a.emit(ALU_AND_K, k=MAP_GROWSDOWN)
        a.jump_if(JMP_JEQ_K, 0, 0, f"errno_{errno.ENOMEM}")
    if not profile.executable_memory:  # PROT_EXEC only for read-only file mappings (the loader's)
        a.ld(arg_lo(2))
        a.emit(ALU_AND_K, k=PROT_EXEC)
        a.jump_if(JMP_JEQ_K, 0, "allow", 0)
        a.ld(arg_lo(3))
        a.emit(ALU_AND_K, k=MAP_ANONYMOUS)
        a.jump_if(JMP_JEQ_K, 0, 0, f"errno_{errno.EACCES}")
        a.ld(arg_lo(2))
        a.emit(ALU_AND_K, k=PROT_WRITE)
        a.jump_if(JMP_JEQ_K, 0, "allow", f"errno_{errno.EACCES}")
    a.ja("allow")

    if not profile.executable_memory:
        for name in ("mprotect", "pkey_mprotect"):  # (addr, len, prot[, pkey])
            a.label(f"h_{name}")
            a.ld(arg_lo(2))
            a.emit(ALU_AND_K, k=PROT_EXEC)
            a.jump_if(JMP_JEQ_K, 0, "allow", f"errno_{errno.EACCES}")


def _descriptor_handlers(a: _Asm, profile: Profile) -> None:
    """Descriptors: the harmless ioctls, no signal-driven I/O, no pipe resizing."""
    a.label("h_ioctl")  # ioctl(fd, unsigned int cmd, arg)
    a.ld(arg_lo(1))
    for value in ALLOWED_IOCTLS.values():
        a.jump_if(JMP_JEQ_K, value, "allow", 0)
    a.ja(f"errno_{errno.ENOTTY}")

    a.label("h_fcntl")  # fcntl(fd, unsigned int cmd, arg)
    a.ld(arg_lo(1))
    a.jump_if(JMP_JEQ_K, F_SETPIPE_SZ, f"errno_{errno.EPERM}", 0)
    if not profile.async_signals:
        for cmd in SIGNALLING_FCNTLS:
            a.jump_if(JMP_JEQ_K, cmd, f"errno_{errno.EPERM}", 0)
        a.jump_if(JMP_JEQ_K, F_SETFL, 0, "allow")
        a.ld(arg_lo(2))
        a.emit(ALU_AND_K, k=O_ASYNC)
        a.jump_if(JMP_JEQ_K, 0, "allow", f"errno_{errno.EPERM}")
    a.ja("allow")


# --- kernel interface ----------------------------------------------------------------------------


class SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(SockFilter))]


def availability() -> tuple[str | None, str]:
    """(arch, reason): arch when filter mode with RET_ERRNO can be installed here, else None."""
    arch, why = _sys.native_arch()
    if arch is None:
        return None, why
    lc = _sys.libc()
    if lc.prctl(_sys.PR_GET_SECCOMP, 0, 0, 0, 0) < 0:
        return None, f"kernel built without seccomp (PR_GET_SECCOMP: {_sys.errno_name(ctypes.get_errno())})"
    action = ctypes.c_uint32(RET_ERRNO)
    r = lc.syscall3(_sys.NR_SECCOMP[arch], SECCOMP_GET_ACTION_AVAIL, 0, ctypes.addressof(action))
    if r != 0:
        err = ctypes.get_errno()
        if err in (errno.ENOSYS, errno.EINVAL):
            return None, f"seccomp filter mode unavailable (seccomp(GET_ACTION_AVAIL): {_sys.errno_name(err)})"
        return None, f"seccomp probe failed: {_sys.errno_name(err)}"
    return arch, ""


def compile_program(prog: Program) -> tuple[ctypes.Array, SockFprog]:
    arr = (SockFilter * len(prog.instructions))(*[SockFilter(*ins) for ins in prog.instructions])
    fprog = SockFprog(len(prog.instructions), ctypes.cast(arr, ctypes.POINTER(SockFilter)))
    return arr, fprog


# a compile that lowers its own priority (nice, SCHED_IDLE) waits for a CPU whenever anything else runs,
# and waiting counts as a compile's activity (build.IDLE_SHARE) (breaker 53b F7): such a call succeeds
# and changes nothing, as in a test's filter (OWN_SCHEDULING: mono sets a policy, and fails on EPERM)
LOWER_PRIORITY = ("setpriority", "sched_setscheduler", "sched_setattr", "sched_setparam")


def no_namespaces_program(arch: str) -> Program:
    """The compiler's filter: no new user namespace (unshare or clone with CLONE_NEWUSER: EPERM), and
    clone3, whose flags a filter cannot read, ENOSYS (glibc then uses clone); no change of its
    priority (LOWER_PRIORITY: success, no effect). Everything else is the compile's other layers' to decide.
    Breaker 53b F3: a compile (a Haskell -pgmF shell) made a user namespace and, in it, a network
    namespace whose nf_tables it could then drive as their admin."""
    numbers = SYSCALLS[arch]
    a = _Asm()
    a.ld(OFF_ARCH)
    a.jump_if(JMP_JEQ_K, AUDIT_ARCH[arch], 0, "deny")  # (another ABI's numbers mean other calls)
    a.ld(OFF_NR)
    a.jump_if(JMP_JGE_K, 0x40000000, "deny", 0)  # (x86_64's x32 calls: the same calls by other numbers)
    a.jump_if(JMP_JEQ_K, numbers["clone3"], "nosys", 0)
    for name in LOWER_PRIORITY:
        a.jump_if(JMP_JEQ_K, numbers[name], "ignore", 0)
    a.jump_if(JMP_JEQ_K, numbers["unshare"], "flags", 0)
    a.jump_if(JMP_JEQ_K, numbers["clone"], "flags", "allow")
    a.label("flags")  # (unshare's flags and clone's are both its first argument, on both arches)
    a.ld(arg_lo(0))
    a.emit(ALU_AND_K, k=CLONE_NEWUSER)
    a.jump_if(JMP_JEQ_K, 0, "allow", "deny")
    a.label("nosys")
    a.ret(errno_action(errno.ENOSYS))
    a.label("ignore")
    a.ret(errno_action(0))
    a.label("deny")
    a.ret(errno_action(errno.EPERM))
    a.label("allow")
    a.ret(RET_ALLOW)
    return Program(arch, a.assemble(), ())
