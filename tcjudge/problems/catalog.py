"""Where things are: the problems folder, stored solutions and their expected verdicts, and which
problem a solution file is for.

The catalog does not know the languages (they live on a floor above problems/): whoever makes one
passes them in, by file extension (`Catalog(problems, solutions, languages.EXTENSIONS)`).
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Mapping

from ..errors import JudgeInputError
from ..protocol import SOURCE_LIMIT
from ..record import record
from ..text import safe_text, whole_line
from .format import Problem, SolutionLanguage, did_you_mean
from .loader import kind_of, load_problem
from .yamlio import load_mapping

if TYPE_CHECKING:  # (imported where stored solutions are listed: format.Kind.stored_solutions)
    from .expectations import Expectation



@record(frozen=True)
class StoredSolution:
    path: Path
    expected: Expectation


class Catalog:
    """The problems under one folder, loaded once each, and the stored solutions for them."""

    def __init__(self, problems_dir: Path, solutions_dir: Path, languages: Mapping[str, SolutionLanguage]):
        self.problems_dir = problems_dir
        self.solutions_dir = solutions_dir
        self.languages = languages  # file extension -> language: what a solution file is, and its classes
        self._loaded: dict[str, Problem] = {}
        self.skipped: list[Path] = []  # package submissions the judge cannot run (language, layout)
        self.faults: dict[Path, str] = {}  # package submissions left out for a fault of their own -> why
        self.faults_noted: set[Path] = set()  # (each said once a command)
        self.broken: dict[str, str] = {}  # problems an every-problem command left out: slug -> why it does not load

    def slugs(self) -> list[str]:
        if self.problems_dir.exists() and not self.problems_dir.is_dir():
            raise JudgeInputError("not a folder: --problems takes the folder that holds the problems", self.problems_dir)
        if not self.problems_dir.is_dir():
            raise JudgeInputError("no problems folder here (`judge init` makes a project; or pass --problems DIR)", self.problems_dir)
        found = sorted(p.name for p in self.problems_dir.iterdir() if (p / "problem.yaml").is_file())
        if not found and (self.problems_dir / "problem.yaml").is_file():
            raise JudgeInputError(f"this is one problem's folder, and --problems takes the folder that holds the "
                                  f"problems: --problems {display_path(_absolute(self.problems_dir).parent)}",
                                  self.problems_dir)
        return found

    def chosen(self, slugs: list[str]) -> list[str]:
        """The problems a command over problems works on: those named (a name that is no problem here
        ends the command at once), else every one. One that does not load is said on stderr, as an
        input error is, and left out (`broken`), named or not: one broken package no longer stops the
        others being checked, nor ends the command after the others were timed."""
        known = self.slugs()
        lookalikes = self._without_problem_yaml()
        for slug in slugs:
            if slug not in known and slug not in lookalikes:
                raise JudgeInputError(f"unknown problem {slug!r}" + did_you_mean(slug, known))
        if not slugs and lookalikes:
            print(f"judge: note: left out, no problem.yaml (a package needs one): {', '.join(lookalikes)}", file=sys.stderr)
        loaded = []
        for slug in slugs or known:
            try:
                if slug in lookalikes:  # named: left out as a package that does not load is
                    raise JudgeInputError("no problem.yaml: not a problem (a package needs one, as the format and "
                                          "problemtools say)", self.problems_dir / slug / "problem.yaml")
                self.problem(slug)
            except JudgeInputError as err:
                self.broken[slug] = str(err)
                print(f"judge: error: {whole_line(str(err))} (left out: the other problems go on)", file=sys.stderr)
            else:
                loaded.append(slug)
        if self.broken and not loaded:
            where = "named" if slugs else "here"
            raise JudgeInputError(f"no problem {where} loads ({len(self.broken)} left out, see the errors above)",
                                  self.problems_dir)
        return loaded

    def _without_problem_yaml(self) -> list[str]:
        """The folders here that look like a problem (data/ or submissions/ in them) but have no
        problem.yaml: left out, said rather than skipped silently (issue 46)."""
        return sorted(p.name for p in self.problems_dir.iterdir() if p.is_dir() and not (p / "problem.yaml").is_file()
                      and ((p / "data").is_dir() or (p / "submissions").is_dir()))

    def problem(self, slug: str) -> Problem:
        if slug not in self._loaded:
            if slug not in self.slugs():
                raise JudgeInputError(f"unknown problem {slug!r}" + did_you_mean(slug, self.slugs()))
            self._loaded[slug] = load_problem(self.problems_dir / slug)
        return self._loaded[slug]

    def problem_for(self, solution: Path, source_limit: int = SOURCE_LIMIT) -> Problem:
        """The problem whose class the file defines (read without running it)."""
        names = defined_classes(solution, self.languages, source_limit)
        matches, unreadable, programs, wanted_by = [], [], [], {}
        for slug in self.slugs():
            try:
                wanted = self._class_name(slug)
            except JudgeInputError as err:  # only an error if no other problem matches
                unreadable.append(err)
                continue
            if isinstance(wanted, str):
                wanted_by[wanted] = slug
            if wanted in names:
                matches.append(slug)
            elif wanted is None:  # a standard-input problem (ours or a Kattis package)
                programs.append(slug)
        if len(matches) == 1:
            return self.problem(matches[0])
        holder = None if matches else next((slug for slug in programs if self._holds(slug, solution)), None)
        if holder is not None:  # a program (its classes, if any, are its own) kept in its problem's solutions folder
            return self.problem(holder)
        if not names:
            hint = f" (standard-input problems here: {', '.join(programs)})" if programs else ""
            raise JudgeInputError(f"the file defines no class: a program reading standard input needs --problem "
                                  f"SLUG{hint}", solution)
        if not matches and unreadable:
            raise unreadable[0]
        if not matches:
            found = ", ".join(sorted(names))
            import difflib  # (only for this message)

            close = sorted({hit for name in names for hit in difflib.get_close_matches(name, wanted_by, 1)})
            hint = (": did you mean " + " or ".join(f"{hit} (problem {wanted_by[hit]})" for hit in close)
                    + "? Else use --problem" if close else "; use --problem")
            raise JudgeInputError(f"no problem has a class named like this file's ({found}){hint}", solution)
        raise JudgeInputError(f"the file matches several problems ({', '.join(matches)}); use --problem", solution)

    def _holds(self, slug: str, solution: Path) -> bool:
        """Whether `solution` lies in the folder where the problem keeps its stored solutions."""
        return _within(solution, self.solutions_folder(slug))

    def _class_name(self, slug: str) -> object:
        """The class a problem asks for, read from problem.yaml alone: a fault elsewhere in another
        problem's folder must not stop grading for this one."""
        spec, _ = load_mapping(self.problems_dir / slug / "problem.yaml")
        return spec.get("class")

    def solutions_folder(self, slug: str) -> Path:
        """Where the problem keeps its stored solutions (its kind says)."""
        folder = self.problems_dir / slug
        return kind_of(folder).solutions_folder(folder, self.solutions_dir / slug)

    def stored_solution(self, problem: Problem, path: Path) -> StoredSolution | None:
        """The stored solution that `path` names (by its own path, a link as itself; else the same file),
        or None: not in the problem's solutions folder, or not a stored solution there, or that folder
        cannot be listed (a stray file in it: grading one file never depended on the others)."""
        if not _within(path, problem.kind.solutions_folder(problem.path, self.solutions_dir / problem.slug)):
            return None
        try:
            stored = self.stored_solutions(problem.slug)
        except JudgeInputError:
            return None
        named = own_path(path)  # a link is the submission it names, though others lead to the same file
        return next((solution for solution in stored if own_path(solution.path) == named),
                    next((solution for solution in stored if _same_file(solution.path, path)), None))

    def stored_solutions(self, slug: str) -> list[StoredSolution]:
        """The stored solutions of a problem, in a stable order, where its kind keeps them (ours:
        solutions/<slug>/<expected verdict folder>/; a Kattis/ICPC package: its own submissions/<verdict>/,
        what cannot run yet noted in `skipped`, what is left out for its own fault in `faults`)."""
        folder = self.problems_dir / slug
        found, skipped, faults = kind_of(folder).stored_solutions(folder, self.solutions_dir / slug, self.languages)
        self.skipped += skipped
        self.faults |= faults
        return [StoredSolution(path, expected) for path, expected in found]

    def note_faults(self, only: Path | None = None) -> int:
        """Say, once each, which submissions are left out for a fault of their own (an expectation
        that cannot be read, a file that cannot be), one line each (`only`: that one's, if it is);
        how many there are in all."""
        for path, why in self.faults.items():
            if path not in self.faults_noted and (only is None or own_path(path) == own_path(only)):
                print(f"judge: note: left out ({safe_text(why)}): {display_path(path)}", file=sys.stderr)
                self.faults_noted.add(path)
        return len(self.faults)


def _absolute(path: Path) -> Path:
    """The path made absolute and rid of `.` and `..` by its words alone (a link stays a link)."""
    return Path(os.path.abspath(path))


def own_path(path: Path) -> Path:
    """The path absolute, the links among its folders followed but not the last part: a link is named
    as itself, not as where it leads (a package's submissions/accepted/x.py that links to
    run_time_error/y.py is the accepted one, as problemtools reads it)."""
    path = _absolute(path)
    return path.parent.resolve() / path.name


def _within(path: Path, folder: Path) -> bool:
    """Whether `path` lies beneath `folder`, as written (a link kept there counts) or with every link
    followed (a checkout reached through a link, where the working folder is the real one)."""
    return (_absolute(path).is_relative_to(_absolute(folder))
            or path.resolve().is_relative_to(folder.resolve()))


def _same_file(one: Path, other: Path) -> bool:
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False


def defined_classes(path: Path, languages: Mapping[str, SolutionLanguage], limit: int = SOURCE_LIMIT) -> set[str]:
    """The class names its language (by file extension, in `languages`) finds in the first `limit` bytes
    of a regular file.

    The judge never parses untrusted source (ast.parse of a hostile file took GBs or a
    RecursionError): a linear scan is enough to pick the problem, and the confined load that
    follows says whether the class really exists (CE if not)."""
    try:
        with open(path, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise JudgeInputError("the solution is not a regular file", path)
            source = handle.read(limit).decode("utf-8", errors="replace")
    except OSError as err:
        raise JudgeInputError(f"cannot read the solution: {err.strerror}", path) from None
    language = languages.get(path.suffix.lower())
    if language is None:
        raise JudgeInputError(f"unknown solution language (file extensions known: {', '.join(sorted(languages))})", path)
    return language.classes(source)


def display_path(path: Path) -> str:
    """A path relative to the current folder (the project) when it is inside it, for tables and
    reports, a link named as itself (own_path); a file name is chosen by whoever submitted it: made
    safe to show."""
    try:
        return safe_text(str(own_path(path).relative_to(Path.cwd().resolve())))
    except ValueError:
        return safe_text(str(path))
