# expect: RE
# threat: (1) forge the result channel: write a report of its own on descriptor 3 and then return
#   normally, so that a second report (the real one) follows the first.
# why: the channel must carry exactly one JSON document; two concatenated reports do not parse, so
#   the judge says the solution wrote something unexpected on its result channel: RE.
import os


class Vault:
    def open(self, seed):
        os.write(3, b'{"kind": "return", "value": 0}')
        return 0
