import pytest

from tcjudge.problems.tctypes import TCType


@pytest.mark.parametrize("text", ["int", "long", "double", "String", "boolean", "int[]", "String[]", "int[][]"])
def test_parse_round_trips(text):
    assert str(TCType.parse(text)) == text


@pytest.mark.parametrize("text", ["integer", "int[][][]", "string", "int[", "", "[]int", None])
def test_parse_rejects_unknown_types(text):
    with pytest.raises(ValueError):
        TCType.parse(text)


@pytest.mark.parametrize(
    "type_text, value, problem",
    [
        ("int", True, "expected int, got boolean (True)"),
        ("int", 2.0, "expected int, got double (2.0)"),
        ("int", 2**31, "outside the 32-bit range"),
        ("int", -(2**31) - 1, "outside the 32-bit range"),
        ("long", 2**63, "outside the 64-bit range"),
        ("long", None, "expected long, got None"),
        ("String", 5, "expected String, got int (5)"),
        ("boolean", 1, "expected boolean, got int (1)"),
        ("double", "1.5", "expected double, got String"),
        ("int[]", (1, "2"), "element 1: expected int, got String"),
        ("int[][]", [[1], 2], "element 1: expected int[], got int (2)"),
        ("int[]", 5, "expected int[], got int (5)"),
    ],
)
def test_mismatch_names_expected_and_received(type_text, value, problem):
    assert problem in TCType.parse(type_text).mismatch(value)


@pytest.mark.parametrize(
    "type_text, value",
    [("int", 2**31 - 1), ("int", -(2**31)), ("long", 2**63 - 1), ("double", 3), ("double", 0.5),
     ("String", ""), ("boolean", False), ("int[]", []), ("int[]", (1, 2)), ("int[][]", [[], [1, 2]])],
)
def test_valid_values_have_no_mismatch(type_text, value):
    assert TCType.parse(type_text).mismatch(value) is None


def test_arguments_are_shaped_as_topcoder_passes_them():
    assert TCType.parse("int[][]").to_argument([[1, 2], []]) == ((1, 2), ())
    assert isinstance(TCType.parse("int[][]").to_argument([[1, 2]])[0], tuple)
    assert TCType.parse("double").to_argument(3) == 3.0
    assert type(TCType.parse("double").to_argument(3)) is float
    assert TCType.parse("String[]").to_argument(["a"]) == ("a",)
