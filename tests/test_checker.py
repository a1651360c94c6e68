import math

import pytest

from harness.problems.checker import compare, doubles_match
from harness.problems.tctypes import UNSUPPORTED, TCType


def check(type_text, expected, got, tolerance=1e-9):
    return compare(expected, got, TCType.parse(type_text), tolerance)


def test_exact_values_match():
    assert check("String", "YES", "YES").ok
    assert check("int[]", [2, 4, 5], [2, 4, 5]).ok
    assert check("int[]", [], []).ok


def test_different_values_say_what_differs():
    result = check("int[]", [2, 4, 5], [2, 4, 6])
    assert not result.ok and "expected [2, 4, 5], got [2, 4, 6]" in result.message
    assert "expected 3 elements, got 0" in check("int[]", [1, 2, 3], []).message
    assert "expected 'YES', got 'NO'" in check("String", "YES", "NO").message


def test_long_strings_show_where_they_first_differ():
    expected = "." * 100 + "X" + "." * 50
    message = check("String", expected, expected.replace("X", "Y")).message
    assert message == ("first difference at character 100: expected ...'..........X...................'..., "
                       "got ...'..........Y...................'...")
    assert "(lengths 151 and 100)" in check("String", expected, expected[:100]).message
    assert check("String[]", ["a" * 40], ["a" * 39 + "b"]).message.startswith(
        "expected ['aaaa")  # short arrays still show both whole


def test_wrong_types_are_wrong_answers_with_both_types_named():
    assert check("int", 1, True).message == "wrong type: expected int, got boolean (True)"
    assert check("long", 12, 12.0).message == "wrong type: expected long, got double (12.0)"
    assert "outside the 32-bit range" in check("int", 0, 2**31).message
    assert "got None" in check("String", "x", None).message
    assert "object of type set" in check("int[]", [1], {UNSUPPORTED: "set"}).message


@pytest.mark.parametrize(
    "expected, got, ok",
    [
        (1.0, 1.0 + 5e-10, True),  # absolute error
        (1e12, 1e12 + 900, True),  # relative error 9e-10
        (1e12, 1e12 + 2000, False),
        (0.0, 2e-9, False),
        (1.0, float("nan"), False),
        (float("inf"), float("inf"), True),
        (1.0, float("inf"), False),
    ],
)
def test_doubles_compare_with_absolute_or_relative_error(expected, got, ok):
    assert doubles_match(expected, got, 1e-9) is ok


def test_double_arrays_and_ints_for_doubles():
    assert check("double[]", [0.1, 0.2], [0.1, 0.2 + 1e-12]).ok
    assert not check("double[]", [0.1, 0.2], [0.1, 0.3]).ok
    assert check("double", 3.0, 3).ok  # an int is an acceptable double
    assert check("double", 1.0, 1.0 + 1e-7, tolerance=1e-6).ok


def test_nan_never_matches_even_itself():
    assert not check("double", math.nan, math.nan).ok
