# expect: WA
# threat: (3) network: TCP connect to the listener the suite runs on 127.0.0.1:47011 (and ::1), to
#   ask an accomplice (or the judge's own services) for the answer.
# why: seccomp denies socket(2) with EACCES (Landlock would also deny the TCP connect), so
#   socket.create_connection raises PermissionError, caught here; the solution returns 0 (WA).
#   The suite also asserts that the listener accepted no connection.
import socket


class Vault:
    def open(self, seed):
        for host in ("127.0.0.1", "::1", "localhost"):
            try:
                conn = socket.create_connection((host, 47011), timeout=0.5)
            except OSError:
                continue
            with conn:
                conn.sendall(b"seed %d\n" % seed)
            raise RuntimeError(f"LEAK: connected to {host}:47011")
        return 0
