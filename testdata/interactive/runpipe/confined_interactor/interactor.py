# Tries what its confinement forbids and reports each outcome in its judgemessage, then rejects:
# writing beside its feedback folder, writing in /tmp, a TCP connection; writing its own feedback works.
import os
import socket
import sys

feedback = sys.argv[3]
outcomes = []
for path in (os.path.join(os.path.dirname(feedback.rstrip("/")), "escaped"), "/tmp/escaped-interactor"):
    try:
        with open(path, "w") as handle:
            handle.write("x")
        outcomes.append("written")
        os.unlink(path)
    except PermissionError:
        outcomes.append("denied")
try:
    socket.create_connection(("127.0.0.1", 9), timeout=2).close()
    outcomes.append("connected")
except PermissionError:
    outcomes.append("denied")
except OSError:  # refused: the connection was attempted
    outcomes.append("attempted")
sys.stdin.read()
with open(feedback + "judgemessage.txt", "w") as handle:
    handle.write(" ".join(outcomes))
sys.exit(43)
