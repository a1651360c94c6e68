# expect: RE
# threat: (1) forge the result channel with a report the judge chokes on: just under the 16 MiB cap
#   (so it is kept), made of \x01 bytes, to tie up the judge's workers and have the test blamed on
#   the judge (IE). Only on the first test (seed 0), so that one worker is held, not both.
# why: a report that does not parse is "something unexpected on the result channel": RE, and
#   reading it should take well under a second.
import os


class Vault:
    def open(self, seed):
        if seed != 0:
            return 0
        view = memoryview(b"\x01" * (16 * 1024 * 1024 - 1024))
        while view:
            view = view[os.write(3, view):]
        os._exit(0)
