# expect: WA
# threat: (3) network: send UDP datagrams to the listener the suite runs on 127.0.0.1:47012 (UDP
#   is not covered by Landlock's TCP rules, so only seccomp stands in the way).
# why: seccomp denies socket(2) with EACCES, so no datagram socket exists; the error is caught and
#   the solution returns 0 (WA). The suite asserts that the listener received no datagram.
import socket


class Vault:
    def open(self, seed):
        for family, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
            try:
                with socket.socket(family, socket.SOCK_DGRAM) as sock:
                    sock.sendto(b"seed %d" % seed, (host, 47012))
                raise RuntimeError(f"LEAK: sent a datagram to {host}:47012")
            except OSError:
                pass
        return 0
