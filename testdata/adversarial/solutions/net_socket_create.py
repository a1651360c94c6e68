# expect: WA
# threat: (3) create any socket at all: every family and type (inet, inet6, unix, netlink, packet)
#   and socketpair(), the first step of any network or IPC trick.
# why: seccomp denies socket(2) and socketpair(2) with EACCES; every attempt raises, is caught, and
#   the solution returns 0 (WA). Any socket created raises "LEAK" (RE).
import socket

KINDS = [
    (socket.AF_INET, socket.SOCK_STREAM), (socket.AF_INET, socket.SOCK_DGRAM), (socket.AF_INET, socket.SOCK_RAW),
    (socket.AF_INET6, socket.SOCK_STREAM), (socket.AF_UNIX, socket.SOCK_STREAM), (socket.AF_UNIX, socket.SOCK_DGRAM),
    (socket.AF_NETLINK, socket.SOCK_RAW), (getattr(socket, "AF_PACKET", 17), socket.SOCK_RAW),
]


class Vault:
    def open(self, seed):
        made = []
        for family, kind in KINDS:
            try:
                socket.socket(family, kind).close()
                made.append(f"{family}/{kind}")
            except OSError:
                pass
        try:
            for sock in socket.socketpair():
                sock.close()
            made.append("socketpair")
        except OSError:
            pass
        if made:
            raise RuntimeError(f"LEAK: created sockets {made}")
        return 0
