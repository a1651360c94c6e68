# expect: TLE
# Burns CPU in four threads: all threads' CPU counts against this solution's limit, and nothing
# it does can slow other solutions' verdicts.
import threading


def burn():
    while True:
        pass


class Stability:
    def run(self, n):
        for _ in range(4):
            threading.Thread(target=burn, daemon=True).start()
        threading.Event().wait()
