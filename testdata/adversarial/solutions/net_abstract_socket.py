# expect: WA
# threat: (3) an abstract unix socket: connect to "\0adversarial-judge-listener", which the suite
#   listens on. Abstract sockets have no file, so filesystem rules cannot stop them.
# why: seccomp denies socket(2) with EACCES, and Landlock's scope (ABI 6+) would deny an abstract
#   connect out of the sandbox; the error is caught and the solution returns 0 (WA). The suite
#   asserts the listener accepted no connection.
import socket

NAME = "\0adversarial-judge-listener"


class Vault:
    def open(self, seed):
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(0.5)
                sock.connect(NAME)
                sock.sendall(b"seed %d" % seed)
            raise RuntimeError("LEAK: connected to the abstract socket")
        except OSError:
            return 0
