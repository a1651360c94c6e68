# expect: MLE
# Allocates steadily, a MiB at a time, past the 64 MiB limit (each MiB touched, so it is resident).
class Adder:
    def add(self, values, factor):
        held = []
        while True:
            held.append(b"x" * (1 << 20))
