"""Whether a folder is laid out as a Kattis/ICPC package, from its files and problem.yaml alone.

Every package kind (kattis.py and the kinds built on it) claims only such a folder; this module holds
that test apart from them, with nothing to import, so that the loader can tell a package from one of
our own problems before it imports any package kind.
"""

from __future__ import annotations

from pathlib import Path

# problem.yaml keys only a package has (ours name a class or say type: stdin): such a folder is a package
# even without data/ (interactive and submit-answer examples often have none), and says so
PACKAGE_KEYS = ("problem_format_version", "validation", "validator_flags", "limits", "uuid", "license", "rights_owner")


def claims_package(folder: Path, spec: dict) -> bool:
    """Whether the folder (and its problem.yaml, {} when unreadable) is a package."""
    return is_package(folder) or ("class" not in spec and not (folder / "tests").is_dir()
                                  and any(key in spec for key in PACKAGE_KEYS))


def is_package(folder: Path) -> bool:
    return (folder / "problem.yaml").is_file() and (folder / "data").is_dir() and not (folder / "tests").is_dir()


def format_version(spec: dict) -> str:
    """problem.yaml's `problem_format_version`: "legacy" when it names none, as the format says."""
    return str(spec.get("problem_format_version", "legacy"))


def package_type(spec: dict) -> str:
    """What problem.yaml says the package is: its 2023-07 `type` and legacy `validation`, lower case."""
    return " ".join(str(spec.get(key, "")) for key in ("type", "validation")).lower()
