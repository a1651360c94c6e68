// The descriptors a C program's process holds from its first instruction on (tests/test_descriptors.py):
// a constructor, run before main, writes one line per open descriptor on standard error,
// "fd N KIND ACCESS" (/proc is out of reach under Landlock: every number is probed); main then fails
// (exit status 1, RE), so that the judge keeps what was written.
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

static const char *kind(mode_t mode) {
    return S_ISFIFO(mode) ? "pipe" : S_ISCHR(mode) ? "device" : S_ISREG(mode) ? "file"
         : S_ISSOCK(mode) ? "socket" : S_ISDIR(mode) ? "folder" : "other";
}

__attribute__((constructor)) static void list_descriptors(void) {
    static const char *access[] = {"r", "w", "rw", "?"};
    for (int fd = 0; fd < 1 << 16; fd++) {
        struct stat st;
        int flags = fcntl(fd, F_GETFL);
        if (flags >= 0 && fstat(fd, &st) == 0)
            fprintf(stderr, "fd %d %s %s\n", fd, kind(st.st_mode), access[flags & O_ACCMODE]);
    }
}

int main(void) { return 1; }
