# expect: RE
# threat: (1) forge the result channel to blame the judge: claim the harness's own set-up failed, so
#   a wrong solution is reported as an internal error (IE) instead of failing.
# why: the channel is the solution's to write once it runs, so a set-up error there must not be
#   believed; the right verdict is RE (the process exits without returning a value).
import os


class Vault:
    def open(self, seed):
        os.write(3, b'{"kind": "setup-error", "message": "the judge is broken, not me"}')
        os._exit(70)
