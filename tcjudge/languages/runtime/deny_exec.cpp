// Linked into every C++ program the judge builds (tcjudge/languages/cpp.py), methods and
// standard-input programs alike, as a translation unit of its own: the contestant's file never
// sees its headers or names.
#include <cerrno>
#include <cstddef>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace {

// The sandbox let this process be exec'd; from here on it may exec nothing. A constructor with a
// priority runs before every unprioritized initializer, so before any of the contestant's own.
#if defined(__x86_64__)
#define TCJUDGE_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define TCJUDGE_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

__attribute__((constructor(101))) static void deny_exec() {
#ifdef TCJUDGE_AUDIT_ARCH
    struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TCJUDGE_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execve, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execveat, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
    };
    struct sock_fprog program = {sizeof(code) / sizeof(code[0]), code};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) {
        static const char message[] = "judge runtime: cannot deny execve to itself\n";
        (void)!::write(2, message, sizeof(message) - 1);
        _exit(70);
    }
#endif
}

}  // namespace
