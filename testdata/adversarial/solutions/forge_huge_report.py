# expect: RE
# threat: (1) forge the result channel with a report larger than its 16 MiB cap (17 MiB of JSON
#   whitespace followed by a valid return report), hoping to exhaust the zygote's or the judge's
#   memory or to smuggle a report past the cut.
# why: the zygote keeps 16 MiB and drops the rest; a truncated report is ignored, and a process that
#   exits without a usable report is a runtime error: RE.
import os


class Vault:
    def open(self, seed):
        blob = b" " * (17 * 1024 * 1024) + b'{"kind": "return", "value": 0}'
        view = memoryview(blob)
        while view:
            view = view[os.write(3, view):]
        os._exit(0)
