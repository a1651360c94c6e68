# expect: WA
# threat: (1) monkeypatch the judge: put the checkout back on sys.path and import
#   tcjudge.problems.checkers.exact and tcjudge.engine.judging to make check() always succeed; patch
#   the child's module (already in sys.modules after fork) so that its _plain() and _report() claim
#   success.
# why: the project is unreadable under Landlock, so the judge's modules that the zygote never
#   loaded cannot be imported; the child's own module can be patched, but only in this process:
#   the comparison happens in the judge, which sees the plain value 0. WA.
import os
import sys

SOLUTIONS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(SOLUTIONS)))


class Vault:
    def open(self, seed):
        sys.path.insert(0, ROOT)
        try:
            import tcjudge.problems.checkers.exact as exact

            exact.check = lambda *args, **kwargs: exact.Comparison(True)
            raise RuntimeError("LEAK: imported tcjudge.problems.checkers.exact from the checkout")
        except (ImportError, OSError):  # PermissionError: Landlock
            pass
        child = sys.modules.get("tcjudge.engine.child")
        if child is not None:
            child._plain = lambda value, depth: {"verdict": "AC", "value": value}
            child.REPORT_CAP = 0
            child.OUTPUT_CAP = 0
        return 0
