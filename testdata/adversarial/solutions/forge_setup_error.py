# expect: RE
# engine-bug: a solution can forge a set-up error and be judged IE. harness/grading.py judge_test
#   believes {"kind": "setup-error"} on the result channel ("the judge could not set up the test"),
#   which only the zygote's own set-up code (harness/zygote.py Zygote._child) should be able to send.
# threat: (1) forge the result channel to blame the judge: claim the harness's own set-up failed, so
#   a wrong solution is reported as an internal error (IE) instead of failing.
# why: the channel is the solution's to write once it runs, so a set-up error there must not be
#   believed; the right verdict is RE (the process exits without returning a value).
import os


class Vault:
    def open(self, seed):
        os.write(3, b'{"kind": "setup-error", "message": "the judge is broken, not me"}')
        os._exit(70)
