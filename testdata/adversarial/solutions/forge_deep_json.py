# expect: RE
# engine-bug: a deeply nested report kills the judge's grading thread. json.loads raises
#   RecursionError in harness/grading.py _parse_report, which catches only ValueError; it escapes
#   judge_test and Pool._run_job and ends the worker thread, so this test and every job that thread
#   would have taken are left unrun (IE); two such tests at once lose the whole batch.
# isolate: it ends the grading thread that reads its report, so it is graded on its own
# threat: (1) forge the result channel with a report the judge cannot parse safely, to crash the
#   judge's grading threads and take the other solutions' verdicts down with it.
# why: any report that does not parse must be "something unexpected on the result channel": RE.
import os


class Vault:
    def open(self, seed):
        os.write(3, b'{"kind": "return", "value": ' + b"[" * 100000 + b"]" * 100000 + b"}")
        os._exit(0)
