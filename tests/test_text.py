"""Solution-controlled text is made safe where it enters the results: terminal, Markdown and JSON."""

from __future__ import annotations

import json

from tcjudge.engine import results
from tcjudge.text import MESSAGE_LIMIT, is_safe, markdown_cell, safe_text

from .conftest import TESTDATA

FORGED = TESTDATA / "adversarial" / "solutions" / "forge_terminal_escapes.py"
VAULT_PROBLEMS = TESTDATA / "adversarial" / "problem"


def test_controls_bidi_and_line_breaks_are_escaped_visibly():
    text = "\x1b[32mAC\x00\x7f\x9b\u202e\u2066\u200f\u2028\n\t"
    assert safe_text(text) == r"\x1b[32mAC\x00\x7f\x9b\u202e\u2066\u200f\u2028\x0a\x09"
    assert safe_text("plain text, ünïcode and 漢字") == "plain text, ünïcode and 漢字"


def test_lone_surrogates_are_replaced_and_result_encodes():
    cleaned = safe_text("a\ud800b\udfff")
    assert cleaned == "a\ufffdb\ufffd"
    cleaned.encode("utf-8")  # would raise on a surrogate


def test_length_is_capped_with_a_marker_and_escapes_are_never_cut():
    long = safe_text("x" * (MESSAGE_LIMIT + 10))
    assert long.startswith("x" * 100) and long.endswith(f"[... cut: {MESSAGE_LIMIT + 10} characters in all]")
    escapes = safe_text("\x1b" * MESSAGE_LIMIT)
    body = escapes.split(" [... cut")[0]
    assert len(body) <= MESSAGE_LIMIT and body.endswith("\\x1b") and set(body.split("\\x1b")) == {""}
    assert is_safe(long) and is_safe(escapes)


def test_non_strings_become_text():
    assert safe_text(None) == "" and safe_text(12) == "12"


def test_markdown_cell_keeps_the_cell_and_no_tag():
    assert markdown_cell("a|b <img src=x> `c` &") == r"a\|b &lt;img src=x&gt; \`c\` &amp;"


def test_results_are_safe_by_construction():
    test = results.TestResult("t", None, message="\x1b[2Kfake\ud800")
    assert test.message == "\\x1b[2Kfake\ufffd"
    json.dumps(test.to_json(), ensure_ascii=False).encode("utf-8")
    grade = results.GradeResult(problem=None, solution=FORGED, tests=[], compile_message="E\x1b]0;title\x07")
    assert grade.compile_message == "E\\x1b]0;title\\x07"


def test_forged_terminal_escapes_reach_neither_terminal_nor_json(judge, read_json, tmp_path):
    out_json = tmp_path / "result.json"
    code, out, err = judge("--problems", VAULT_PROBLEMS, "grade", FORGED, "--json", out_json, "-j", "1")
    assert code == 1
    for text in (out, err):
        assert "\x1b" not in text and "\u202e" not in text and "\x9b" not in text
        text.encode("utf-8")
    assert "\\x1b[32mAC  passed 188/188" in out  # shown, harmlessly, as what it is
    data = read_json(out_json)
    assert data["verdict"] == "RE" and data["tests"][0]["verdict"] == "RE"
    assert "fake\ufffdmodule\\x1b[8m.Forged" in data["tests"][1]["message"]
    assert all(is_safe(t["message"]) for t in data["tests"]) and is_safe(data["message"])


def test_safe_lines_keeps_line_breaks_and_escapes_the_rest():
    from tcjudge.text import safe_lines

    assert safe_lines("a\x1b[2J\nb\u202e\r\n") == "a\\x1b[2J\nb\\u202e\\x0d\n"
    assert safe_lines("x" * 50, limit=10) == "x" * 10
