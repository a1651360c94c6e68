"""The generator API, a stable interface (docs/stability.md): what a problem's generator.py imports to
call the reference solution and write test files that validate can rebuild bit for bit.

    from tcjudge.testgen import reference, write_tests

The paths documented before, `harness.testgen` and `harness.problems.testgen`, still work when the
judge runs the generator (tcjudge.setter.legacy_imports), with a deprecation warning.
"""

from .problems.testgen import (append_test, load_solution, reference, run_program, write_program_tests,
                               write_tests)

__all__ = ["reference", "load_solution", "write_tests", "append_test", "run_program", "write_program_tests"]
