# Reads everything the program writes and never answers; once the program is gone it rejects.
import sys

sys.stdin.read()
open(sys.argv[3] + "judgemessage.txt", "w").write("the program ended")
sys.exit(43)
