"""What the commands share: exit codes, common options, and the steps of a grading run (the run's
owner for now: choose, reuse, grade, record).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .. import languages
from ..engine.grading import GradeResult, Pool, SolutionRun
from ..engine.isolation import missing_layers_warning
from ..errors import JudgeInputError
from ..formats import versioned
from ..problems.catalog import Catalog, display_path
from ..reports.history import History, Judged, grade_and_record
from ..reports.junit import write_junit
from ..reports.progress import Progress

EXIT_OK, EXIT_FAILED, EXIT_INPUT_ERROR, EXIT_INTERRUPTED, EXIT_CLOSED_PIPE = 0, 1, 2, 130, 141


def add_grading_options(parser: argparse.ArgumentParser, fresh: bool = True) -> None:
    """What every command that grades stored or given solutions takes: --fresh (for the stored
    ones), --hide-expected, -j and --cluster."""
    if fresh:
        add_fresh(parser)
    add_hide(parser)
    add_jobs(parser)
    add_cluster(parser)


def add_hide(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hide-expected", action="store_true",
                        help="verdicts only, for contests: failing tests show neither the expected value nor the "
                             "input, nor what the solution printed, returned or raised")


def add_jobs(parser: argparse.ArgumentParser) -> None:
    default = len(os.sched_getaffinity(0))
    parser.add_argument("-j", "--jobs", type=positive, default=default, metavar="N",
                        help=f"tests run in parallel on N workers (default: {default}, the number of cores)")


def add_cluster(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cluster", default=os.environ.get("JUDGE_CLUSTER") or None, metavar="ADDRESS",
                        help="grade on the workers of this Dask scheduler, e.g. tcp://host:8786 "
                             "(default: $JUDGE_CLUSTER; see docs/cluster.md)")
    parser.add_argument("--cluster-require-isolation", action="store_true",
                        help="grade only on workers that confine tests as well as this machine")


def add_fresh(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--fresh", action="store_true",
                        help="grade every solution again instead of reusing unchanged results from the history")


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def stored_runs(catalog: Catalog, slugs: list[str], stop_on_failure: bool,
                 verdicts_only: bool = False) -> list[SolutionRun]:
    """A run for every stored solution of the chosen problems (all problems are loaded first)."""
    runs = []
    unavailable: dict[languages.Language, int] = {}  # a language whose compiler is missing here -> solutions left out
    for slug in slugs or catalog.slugs():
        problem = catalog.problem(slug)
        for stored in catalog.stored_solutions(slug):
            language = languages.for_path(stored.path)
            if language.toolchain() is None:
                unavailable[language] = unavailable.get(language, 0) + 1
                continue
            runs.append(SolutionRun(problem, stored.path, problem.tests, stop_on_failure, stored.expected,
                                    verdicts_only=verdicts_only))
    for path in catalog.skipped:
        print(f"judge: note: not graded (a language, compiler or layout the judge cannot run here): {display_path(path)}",
              file=sys.stderr)
    for language, count in unavailable.items():  # the machine's limit, not a mismatch: said once per language
        print(f"judge: note: {count} stored {language.title} solution(s) not graded: {language.missing_message()}",
              file=sys.stderr)
    if not runs:
        raise JudgeInputError("no stored solutions to check", catalog.solutions_dir)
    return runs


def solution_and_problem(catalog: Catalog, solution: Path, slug: str | None):
    """For stress and challenge, which draw or check inputs from a method problem's declared types."""
    if not solution.is_file():
        raise JudgeInputError("no such file", solution)
    problem = catalog.problem(slug) if slug else catalog.problem_for(solution)
    if problem.kind.program:
        raise JudgeInputError(f"{problem.slug} is a {problem.kind.mode} problem: stress and challenge need declared "
                              "parameter types (a method problem)")
    return problem


def judge_runs(options, command: str, runs: list[SolutionRun], fresh: bool, line=None) -> Judged:
    """Grade runs (reusing unchanged results unless `fresh`) with progress, and record them in the history.
    `line(result)` is printed as each solution finishes."""

    def grade(to_grade: list[SolutionRun]) -> list[GradeResult]:
        if not to_grade:
            return []
        with Progress(sum(len(run.tests) for run in to_grade), len(to_grade)) as progress:
            return grade_runs(options, to_grade, progress, line)

    def reused(result: GradeResult) -> None:
        if line:
            print(f"{line(result)} (reused)", flush=True)

    history = History(options.history, options.source_limit * 1024)
    try:
        return grade_and_record(history, command, options.argv, runs, fresh, grade, reused)
    finally:
        history.close()


def grade_runs(options, runs: list[SolutionRun], progress: Progress, line=None) -> list[GradeResult]:
    """Grade runs on a pool of `options.jobs` workers (or the cluster's), and say when isolation is partial."""
    warning = None if options.cluster else missing_layers_warning()  # on a cluster, the workers' counts
    if warning:
        print(warning, file=sys.stderr)
    with pool_for(options) as pool:
        results = pool.grade(runs, on_test=lambda run, index, test: progress.test_done(display_path(run.solution)),
                             on_done=lambda result: progress.solution_done(line(result) if line else None))
    for problem in sorted(pool.warnings):
        print(f"judge: warning: {problem}", file=sys.stderr)
    return results


def save_junit(path: Path, results: list[GradeResult], stored: bool) -> None:
    try:
        write_junit(path, results, stored)
    except OSError as err:
        raise JudgeInputError(f"cannot write: {err.strerror}", path) from None
    print(f"wrote {path}")


def pool_for(options):
    """A local Pool of -j workers, or the Dask cluster of --cluster / JUDGE_CLUSTER (connected once
    per command; only then is dask imported)."""
    if not options.cluster:
        return Pool(options.jobs, source_limit=options.source_limit * 1024)
    if getattr(options, "cluster_pool", None) is None:
        from ..cluster.client import ClusterPool
        options.cluster_pool = ClusterPool(options.cluster, options.cluster_require_isolation,
                                           source_limit=options.source_limit * 1024)
    return options.cluster_pool


def worker_count(options) -> int:
    """How many tests run at once, for the headers."""
    return pool_for(options).jobs if options.cluster else options.jobs


def make_folder(path: Path) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise JudgeInputError(f"cannot create the output folder: {err.strerror}", path) from None


def save_json(path: Path, data) -> None:
    try:
        path.write_text(json.dumps(versioned(data), indent=2) + "\n", encoding="utf-8")
    except OSError as err:
        raise JudgeInputError(f"cannot write: {err.strerror}", path) from None
    print(f"wrote {path}")
