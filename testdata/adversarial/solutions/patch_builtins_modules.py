# expect: WA
# threat: (1) tamper with the interpreter the judge's code runs in: replace builtins (isinstance,
#   int), swap sys.modules["json"] for a fake whose dumps() forges {"kind": "return", "verdict":
#   "AC"}, and point the module that reports from the child (tcjudge.engine.child) at it.
# why: every change lives only in this child process; whatever it puts on the result channel is
#   only a claimed value (here 0), which the judge, in its own process, finds wrong: WA.
import builtins
import sys
import types


class Vault:
    def open(self, seed):
        fake = types.ModuleType("json")
        fake.dumps = lambda *args, **kwargs: '{"kind": "return", "value": 0, "verdict": "AC"}'
        fake.loads = lambda *args, **kwargs: {"verdict": "AC"}
        sys.modules["json"] = fake
        reporter = sys.modules.get("tcjudge.engine.child")
        if reporter is not None:
            reporter.json = fake
        builtins.isinstance = lambda obj, cls: True
        builtins.int = type("int", (int,), {"__eq__": lambda self, other: True, "__hash__": int.__hash__})
        return 1 - 1
