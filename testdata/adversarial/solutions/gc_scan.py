# expect: WA
# threat: (1) scan the process's own memory for the expected value: gc.unfreeze() + gc.get_objects()
#   for any dict or object with an "expected" entry, and the zygote's stack frames (sys._getframe
#   chain) and their locals.
# why: the zygote is a fresh interpreter that never receives expected values (the judge keeps them
#   and compares after the fact), so nothing is found and the solution returns 0 (WA). If an
#   expected value were there it would be returned: AC, failing the suite.
import gc
import sys


def expected_in(obj):
    if isinstance(obj, dict):
        value = obj.get("expected")
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    value = getattr(obj, "__dict__", {}).get("expected") if hasattr(obj, "__dict__") else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class Vault:
    def open(self, seed):
        gc.unfreeze()
        for obj in gc.get_objects():
            try:
                found = expected_in(obj)
            except Exception:
                continue
            if found is not None:
                return found
        frame = sys._getframe()
        while frame is not None:
            for value in list(frame.f_locals.values()):
                try:
                    found = expected_in(value)
                except Exception:
                    continue
                if found is not None:
                    return found
            frame = frame.f_back
        return 0
