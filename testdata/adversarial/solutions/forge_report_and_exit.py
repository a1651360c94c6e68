# expect: WA
# threat: (1) forge the result channel: write a complete fake report on descriptor 3, dressed up
#   with fields a naive judge might trust ("verdict": "AC", "ok", "expected"), then os._exit(0)
#   before the real report is written.
# why: the judge reads only "kind" and "value" from the channel and compares the value with the
#   expected one, which only the judge holds; forging lets a solution claim a value, never a
#   verdict. The claimed 0 is wrong: WA.
import json
import os


class Vault:
    def open(self, seed):
        fake = {"kind": "return", "value": 0, "verdict": "AC", "ok": True, "expected": 0, "passed": True}
        os.write(3, json.dumps(fake).encode())
        os._exit(0)
