# expect: WA
# threat: (1) read the memory of the zygote and of the judge through /proc/<pid>/maps and
#   /proc/<pid>/mem (the judge holds every expected value), scanning for "expected".
# why: Landlock makes /proc unreadable, so opening maps or mem raises PermissionError (and the
#   kernel would also require ptrace access, which seccomp and no_new_privs keep out of reach).
#   The solution returns 0 (WA); any successful open raises "LEAK" (RE).
import os


class Vault:
    def open(self, seed):
        zygote = os.getppid()
        candidates = [zygote, zygote - 1, zygote - 2]
        for lookup in (os.getpgid, os.getsid):
            try:
                candidates.append(lookup(zygote))
            except OSError:
                pass
        opened = []
        for pid in dict.fromkeys(p for p in candidates if p > 1):
            try:
                with open(f"/proc/{pid}/maps") as maps:
                    regions = [line.split()[0].split("-") for line in maps if " rw" in line]
                opened.append(f"{pid}/maps")
                with open(f"/proc/{pid}/mem", "rb", buffering=0) as mem:
                    opened.append(f"{pid}/mem")
                    for start, end in regions[:50]:
                        try:
                            mem.seek(int(start, 16))
                            if b"expected" in mem.read(min(int(end, 16) - int(start, 16), 1 << 20)):
                                opened.append(f"{pid}: found 'expected'")
                        except OSError:
                            pass
            except OSError:
                continue
        if opened:
            raise RuntimeError(f"LEAK: {opened}")
        return 0
