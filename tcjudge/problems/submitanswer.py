"""Submit-answer Kattis packages (2023-07 and later: `type: submit-answer`, with pass-fail or
scoring): a submission is the answers to the tests, not a program that writes them.

A stored submission of answers is a folder under submissions/<verdict>/ holding one answer file per
test, named as the test is under data/ with `.ans` (`sample/1.ans`, `secret/group1/03.ans`): the
layout of data/ itself, which is what a team hands in. Each answer is judged by the problem's output
validator (the default one or the package's own, with its group's flags) as a program's output
would be; nothing runs (engine/judging.judge_answers). A test without its answer file is WA. A
program among the submissions (the format's own example package has `print(42)` there, and
problemtools runs submissions as programs) is graded as in any package: its output is its answers.
The format rules out `interactive` and `multi-pass` with `submit-answer`: refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Mapping

from .expectations import Expectation
from .format import Findings, Problem, SolutionLanguage
from .kattis import PACKAGE, PackageKind, inspect_package, submissions
from .layout import package_type

ANSWER_SUFFIX = ".ans"


def is_submit_answer(spec: dict) -> bool:
    return "submit-answer" in package_type(spec)


class SubmitAnswerKind(PackageKind):
    """A submit-answer package: answer folders (and programs) judged by the output validator."""

    name = "kattis submit-answer"
    answers = True

    def claims(self, folder: Path, spec: dict) -> bool:
        return PACKAGE.claims(folder, spec) and is_submit_answer(spec)

    def inspect(self, folder: Path, spec: dict, lines: dict[str, int],
                findings: Findings) -> tuple[Problem | None, Findings]:
        words = package_type(spec).replace("multipass", "multi-pass")
        clash = [word for word in ("interactive", "multi-pass") if word in words]
        if clash:
            findings.error(f"type: submit-answer cannot be {clash[0]} as well (the format rules it out)",
                           folder / "problem.yaml")
            return None, findings
        return inspect_package(folder, spec, findings, self)

    def signature(self, problem: Problem) -> str:
        return "answers: a folder with one NAME.ans per test (sample/1.ans, ...), or a program that writes them"

    def stored_solutions(self, folder: Path, solutions: Path, languages: Mapping[str, SolutionLanguage],
                         ) -> tuple[list[tuple[Path, Expectation]], list[Path], dict[Path, str]]:
        return submissions(folder, languages, answers=True)


SUBMIT_ANSWER = SubmitAnswerKind()
