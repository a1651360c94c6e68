# expect: WA
# threat: (3) a unix-domain socket: connect (stream and seqpacket) and send to the socket file the
#   suite listens on at /tmp/adversarial-judge-listener.sock (mode 0777, so permissions would let
#   any user in).
# why: seccomp denies socket(2) with EACCES (and /tmp is not even visible under Landlock), so the
#   error is caught and the solution returns 0 (WA). The suite asserts no connection arrived.
import socket

PATH = "/tmp/adversarial-judge-listener.sock"


class Vault:
    def open(self, seed):
        for kind in (socket.SOCK_STREAM, socket.SOCK_SEQPACKET):
            try:
                with socket.socket(socket.AF_UNIX, kind) as sock:
                    sock.settimeout(0.5)
                    sock.connect(PATH)
                    sock.sendall(b"seed %d" % seed)
                raise RuntimeError(f"LEAK: connected to {PATH}")
            except OSError:
                pass
        return 0
