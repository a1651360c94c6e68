# expect: RE
# isolate: it ends the grading thread that reads its report, so it is graded on its own
# threat: (1) forge the result channel with a report the judge cannot parse safely, to crash the
#   judge's grading threads and take the other solutions' verdicts down with it.
# why: any report that does not parse must be "something unexpected on the result channel": RE.
import os


class Vault:
    def open(self, seed):
        os.write(3, b'{"kind": "return", "value": ' + b"[" * 100000 + b"]" * 100000 + b"}")
        os._exit(0)
