# expect: RE
# threat: (1) forge the result channel with garbage: invalid UTF-8, a JSON fragment and control
#   bytes on descriptor 3, then os._exit(0).
# why: the report is decoded with replacement characters and fails to parse, so the judge says the
#   solution wrote something unexpected on its result channel: RE (never a crash of the judge).
import os


class Vault:
    def open(self, seed):
        os.write(3, b'\xff\xfe\x00{"kind": "return", "value": \x1b[2J\x80garbage')
        os._exit(0)
