"""JUnit XML, the format every CI system reads: one testsuite per solution, one testcase per test.

For `grade`, a test that did not pass is a <failure> (an internal error is an <error>). For `check`,
a stored solution is meant to fail when its folder says so: its failing tests are then expected, and
are reported as skipped with the reason (as pytest reports an xfail), so the XML is red exactly when
`check` exits 1. Each check suite opens with an "expected verdict" testcase that fails on a mismatch;
a submission left out for a fault of its own is a suite whose one testcase is an <error>.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from ..engine.results import GradeResult, TestResult
from ..problems.catalog import display_path
from ..text import safe_lines, safe_text
from ..verdicts import Verdict


def junit_tree(results: list[GradeResult], stored: bool, left_out: dict[Path, str] | None = None) -> ET.ElementTree:
    root = ET.Element("testsuites", name="judge")
    for path, why in (left_out or {}).items():  # left out for its own fault: an error, as check exits 1
        suite = ET.SubElement(root, "testsuite", name=display_path(path), tests="1", failures="0", errors="1", skipped="0", time="0")
        case = ET.SubElement(suite, "testcase", classname=safe_text(f"{path.parent.parent.parent.name}.{path.stem}"),
                             name="expected verdict", time="0")
        ET.SubElement(case, "error", type="left out", message=safe_text(f"left out: {why}"))
    for result in results:
        suite = ET.SubElement(root, "testsuite", name=display_path(result.solution))
        classname = safe_text(f"{result.problem.slug}.{result.solution.stem}")  # a file name is the submitter's
        cases = []
        if stored:
            case = ET.Element("testcase", classname=classname, name="expected verdict", time="0")
            if not result.matched:
                ET.SubElement(case, "failure", type=str(result.verdict),
                              message=safe_text(f"expected {result.expected}, got {result.verdict}"
                                                + (f": {result.mismatch}" if result.mismatch else ""))).text = safe_lines(
                    result.compile_message or _failure_text(result.first_failure))
            cases.append(case)
        cases += [_testcase(result, test, classname, stored) for test in result.tests]
        suite.extend(cases)
        counts = {kind: sum(case.find(kind) is not None for case in cases) for kind in ("failure", "error", "skipped")}
        suite.set("tests", str(len(cases)))
        suite.set("failures", str(counts["failure"]))
        suite.set("errors", str(counts["error"]))
        suite.set("skipped", str(counts["skipped"]))
        suite.set("time", f"{sum(test.wall_ms for test in result.tests) / 1000:.3f}")
    ET.indent(root)
    return ET.ElementTree(root)


def _testcase(result: GradeResult, test: TestResult, classname: str, stored: bool) -> ET.Element:
    case = ET.Element("testcase", classname=classname, name=safe_text(test.name), time=f"{test.wall_ms / 1000:.3f}")
    if test.verdict is None:
        reason = f"not run: {result.compile_message}" if result.compile_message else "not run: an earlier test failed"
        ET.SubElement(case, "skipped", message=safe_text(reason, 500))
    elif test.verdict is Verdict.IE:
        ET.SubElement(case, "error", type="IE", message=safe_text(test.message)).text = _failure_text(test)
    elif test.verdict is not Verdict.AC:
        if stored and result.expected is not None and not result.expected.allows_accepted and result.matched:
            ET.SubElement(case, "skipped", type="xfail",
                          message=safe_text(f"expected failure ({result.expected}): {test.verdict}: {test.message}"))
        else:
            ET.SubElement(case, "failure", type=str(test.verdict),
                          message=safe_text(f"{test.verdict}: {test.message}")).text = _failure_text(test)
    return case


def _failure_text(test: TestResult | None) -> str:
    if test is None:
        return ""
    lines = [f"{test.verdict}: {test.message}", f"CPU {test.cpu_ms:.1f} ms, memory {test.memory_mib:.1f} MiB"]
    if test.input:
        lines.append(f"input: {test.input}")
    if test.output:
        lines.append(f"output:\n{test.output}")
    return safe_lines("\n".join(lines), 1_000_000)  # XML cannot hold a control character or a lone surrogate


def write_junit(path: Path, results: list[GradeResult], stored: bool, left_out: dict[Path, str] | None = None) -> None:
    junit_tree(results, stored, left_out).write(path, encoding="utf-8", xml_declaration=True)
