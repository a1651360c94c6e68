"""Accepts the one number of the answer, which is at most the cap."""
import sys

CAP = {{cap}}
answer = open(sys.argv[2]).read().split()
got = sys.stdin.read().split()
feedback = sys.argv[3]
if got != answer or int(got[0]) > CAP:
    with open(feedback + "judgemessage.txt", "w") as message:
        message.write(f"expected {answer} (at most {CAP}), got {got[:3]}\n")
    sys.exit(43)
sys.exit(42)
