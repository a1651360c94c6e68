# expect: TLE
# threat: (4) refuse to die: ignore every catchable signal (SIGTERM, SIGXCPU, SIGINT, ...), block
#   them all in the signal mask, then spin forever.
# why: the zygote ends a test with SIGKILL on its process group, which cannot be ignored or
#   blocked, as soon as the CPU clock passes the 1 s limit, however busy the machine: TLE.
import signal


class Vault:
    def open(self, seed):
        catchable = signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP}
        for number in catchable:
            try:
                signal.signal(number, signal.SIG_IGN)
            except (OSError, RuntimeError, ValueError):
                pass
        signal.pthread_sigmask(signal.SIG_BLOCK, catchable)
        while True:
            pass
