# Burns `rounds` iterations of a fixed loop and holds `mib` MiB of touched memory; rounds -1 loops forever.
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
        return spin(rounds) + sum(held[::4096]) - (len(held) >> 12)
