# expect: MLE
# Grows a list until MemoryError, catches it and answers anyway: its peak memory is over the limit.
class Adder:
    def add(self, values, factor):
        hoard = []
        try:
            while True:
                hoard.append(bytearray(1 << 20))
        except MemoryError:
            pass
        return sum(values) * factor
