# expect: TLE
# Burns CPU in two threads while the main thread waits: all threads' CPU time counts.
import threading


def burn():
    while True:
        pass


class Adder:
    def add(self, values, factor):
        for _ in range(2):
            threading.Thread(target=burn, daemon=True).start()
        threading.Event().wait()
