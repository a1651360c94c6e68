# Burns `rounds` iterations of a fixed loop and holds `mib` MiB of touched memory; rounds -1 loops
# forever. It prints the CPU time of its loop as measured inside its own process, which the
# benchmark compares with the judge's figure for the whole test.
import time


def spin(rounds):
    total = 0
    for i in range(rounds):
        total = (total + i * i) % 1000003
    return total


class Work:
    def run(self, rounds, mib):
        held = bytearray(mib << 20)
        for offset in range(0, len(held), 4096):
            held[offset] = 1
        if rounds < 0:
            while True:
                pass
        started = time.process_time()
        total = spin(rounds)
        print(f"in-process cpu {time.process_time() - started:.6f}")
        return total + sum(held[::4096]) - (len(held) >> 12)
