"""Safe YAML loading that keeps line numbers, so every complaint about a file can name its line."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..errors import JudgeInputError

# libyaml's parser when PyYAML was built with it (ten times faster on large test files); both keep
# line numbers on every node.
SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Located:
    """A value read from a YAML file with the (1-based) line where it starts."""

    value: Any
    line: int


def _compose(path: Path) -> yaml.Node | None:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise JudgeInputError(f"cannot read file: {err.strerror}", path) from None
    except UnicodeDecodeError:
        raise JudgeInputError("not UTF-8 text", path) from None
    try:
        return yaml.compose(text, Loader=SafeLoader)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark else None
        raise JudgeInputError(f"malformed YAML: {err.problem or err.context}", path, line) from None
    except yaml.YAMLError as err:
        raise JudgeInputError(f"malformed YAML: {err}", path) from None


def _construct(node: yaml.Node, path: Path) -> Any:
    loader = SafeLoader("")
    try:
        return loader.construct_object(node, deep=True)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        raise JudgeInputError(f"invalid YAML value: {err.problem}", path, mark.line + 1 if mark else None) from None
    finally:
        loader.dispose()


def load_mapping(path: Path) -> tuple[dict[str, Any], dict[str, int]]:
    """A top-level mapping, with the line of each key and of each nested key or list item, by dotted
    path ("time_limit", "constraints.board", "rules.0"), for messages about that part. An empty
    document is an empty mapping."""
    node = _compose(path)
    if node is None:  # an empty file, or comments only: no keys (a package's testdata.yaml often is)
        return {}, {}
    if not isinstance(node, yaml.MappingNode):
        raise JudgeInputError("expected a mapping (key: value lines) at the top level", path, _line(node))
    lines: dict[str, int] = {}
    _record_lines(node, "", lines)
    data = _construct(node, path)
    return data, lines


def _record_lines(node: yaml.Node, prefix: str, lines: dict[str, int]) -> None:
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode):
                path = prefix + key.value
                lines.setdefault(path, key.start_mark.line + 1)
                _record_lines(value, path + ".", lines)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            path = f"{prefix}{index}"
            lines.setdefault(path, item.start_mark.line + 1)
            _record_lines(item, path + ".", lines)


def load_sequence(path: Path) -> list[Located]:
    """A top-level list, each item with the line where it starts."""
    node = _compose(path)
    if node is None:
        return []
    if not isinstance(node, yaml.SequenceNode):
        raise JudgeInputError("expected a list of test cases at the top level", path, _line(node))
    return [Located(_construct(item, path), item.start_mark.line + 1) for item in node.value]


def _line(node: yaml.Node | None) -> int | None:
    return node.start_mark.line + 1 if node is not None else None
