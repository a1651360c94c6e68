"""2025-09 constants: problem.yaml's `constants:` map, and its `{{name}}` / `{{name.variant}}`
sequences replaced in the files the format names (statements, validators, included files, example
submissions, test_group.yaml; never test data or problem.yaml itself). An undefined name is left as
it is, as the format says."""

from __future__ import annotations

import re
from pathlib import Path

from ..protocol import substitute_constants as substitute

NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")


def read_constants(spec: dict) -> tuple[dict[str, str], str]:
    """problem.yaml's constants as {"name": value, "name.variant": value} texts, or ({}, why not)."""
    given = spec.get("constants")
    if given is None:
        return {}, ""
    if not isinstance(given, dict):
        return {}, "constants: expected a mapping of names to values"
    found: dict[str, str] = {}
    for name, value in given.items():
        if not isinstance(name, str) or not NAME.fullmatch(name):
            return {}, f"constants: {name!r} is not a name ([a-zA-Z_][a-zA-Z0-9_]*)"
        variants = value if isinstance(value, dict) else {"value": value}
        if "value" not in variants:
            return {}, f"constants: {name} has no 'value'"
        for variant, text in variants.items():
            if not isinstance(text, (int, float, str)) or isinstance(text, bool):
                return {}, f"constants: {name}.{variant} must be a number or a text"
            found[name if variant == "value" else f"{name}.{variant}"] = str(text)
            if variant == "value":
                found[f"{name}.value"] = str(text)
    return found, ""


def substitute_file(path: Path, constants: dict[str, str]) -> None:
    """Replace the sequences in a file in place (a scratch copy: never a package's own file)."""
    data = path.read_bytes()
    changed = substitute(data, constants)
    if changed != data:
        path.write_bytes(changed)
