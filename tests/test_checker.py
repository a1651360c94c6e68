import math

import pytest

from tcjudge.problems.checkers import Checker
from tcjudge.problems.checkers.exact import doubles_match
from tcjudge.problems.tctypes import TCType
from tcjudge.protocol import UNSUPPORTED


def check(type_text, expected, got, tolerance=1e-9):
    return Checker(TCType.parse(type_text), tolerance=tolerance)((), expected, got)


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


# -- built-in checkers and a problem's own checker.py ----------------------------------------------


def test_unordered_accepts_any_order_but_not_other_values():
    checker = Checker(TCType.parse("int[]"), ("unordered",))
    assert checker((), [1, 2, 2, 3], [3, 2, 1, 2]).ok
    result = checker((), [1, 2, 2, 3], [3, 2, 1, 1])
    assert not result.ok and result.message == "expected [1, 2, 2, 3] in any order, got [3, 2, 1, 1]"
    assert not checker((), [1, 2], [1, 2, 2]).ok


def test_unordered_rows_and_doubles_within_tolerance():
    checker = Checker(TCType.parse("double[]"), ("unordered",), tolerance=1e-6)
    assert checker((), [0.5, 1.0], [1.0000001, 0.4999999]).ok
    rows = Checker(TCType.parse("String[]"), ("unordered", "ignore_case"))
    assert rows((), ["Ab", "cd"], ["CD", "aB"]).ok
    assert not rows((), ["Ab", "cd"], ["CD", "aC"]).ok


def test_ignore_case_compares_strings_in_any_case():
    checker = Checker(TCType.parse("String"), ("ignore_case",))
    assert checker((), "YES", "yes").ok
    assert checker((), "Possible", "pOSSIBLE").ok
    assert checker((), "YES", "no").message == "expected 'YES' (any case), got 'no'"
    assert Checker(TCType.parse("String"))((), "YES", "yes").message == "expected 'YES', got 'yes'"


def test_type_is_checked_before_any_checker():
    for names in (("unordered",), ("ignore_case",)):
        assert Checker(TCType.parse("int[]"), names)((), [1], [True]).message.startswith("wrong type:")
    custom = Checker(TCType.parse("int"), ("custom",), custom=lambda args, expected, got: None, parameters=("a",))
    assert custom((1,), 1, "1").message == "wrong type: expected int, got String ('1')"


def test_custom_checker_gets_named_arguments_and_tuples():
    seen = []

    def check(args, expected, got):
        seen.append((args, expected, got))
        return None if sum(got) == args["total"] else f"sum {sum(got)} is not {args['total']}"

    checker = Checker(TCType.parse("int[]"), ("custom",), custom=check, parameters=("total",))
    assert checker((5,), [2, 3], [4, 1]).ok
    assert seen[0] == ({"total": 5}, [2, 3], (4, 1))
    result = checker((5,), [2, 3], [4, 4])
    assert not result.ok and not result.judge_fault and result.message == "sum 8 is not 5"


def test_a_failing_custom_checker_is_the_judges_fault():
    def broken(args, expected, got):
        raise KeyError("n")

    result = Checker(TCType.parse("int"), ("custom",), custom=broken)((), 1, 1)
    assert result.judge_fault and result.message == "the problem's checker failed: KeyError: 'n'"
    odd = Checker(TCType.parse("int"), ("custom",), custom=lambda a, e, g: 42)((), 1, 1)
    assert odd.judge_fault and "returned int, not None or a message" in odd.message


def test_comparing_an_output_costs_memory_of_the_output_not_of_its_tokens():
    """issue 22: 64 MiB of two-letter tokens made token lists of 2.6 GiB in the judge; the tokens are
    walked one at a time now (peak measured by tracemalloc, not by a clock)."""
    import tracemalloc

    from tcjudge.problems.checkers.tokens import compare_output

    output = b"ab " * (1 << 18)  # 768 KiB, 262,144 tokens: their lists alone would take ~25 MiB
    answer = output[:-3] + b"zz "
    tracemalloc.start()
    try:
        comparison = compare_output(answer, output)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert not comparison.ok and comparison.message.startswith("token 262144 (answer line 1): expected 'zz'")
    assert peak < 1 << 20, f"{peak / 2**20:.1f} MiB"
