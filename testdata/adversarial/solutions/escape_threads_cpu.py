# expect: TLE
# threat: (4) burn the judge's CPU from eight non-daemon threads while the main thread blocks
#   forever, hoping the time limit counts only the main thread or only wall time.
# why: the zygote watches the whole process's CPU clock (all threads) and kills the test's process
#   group at the 1 s limit: TLE. Threads die with their process; nothing is left behind.
import threading


def burn():
    while True:
        pass


class Vault:
    def open(self, seed):
        for _ in range(8):
            threading.Thread(target=burn).start()
        threading.Event().wait()
