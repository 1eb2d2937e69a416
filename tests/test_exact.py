from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hetcoll import InputError, fraction_str, to_fraction
from hetcoll.core.numbers import positive_fraction


@pytest.mark.parametrize(
    ("value", "expected"),
    [(3, Fraction(3)), ("3/7", Fraction(3, 7)), (" 3/7 ", Fraction(3, 7)), (0.01, Fraction(1, 100)),
     ("0.25", Fraction(1, 4)), ("1e-3", Fraction(1, 1000)), (Fraction(2, 4), Fraction(1, 2))],
)
def test_to_fraction_reads_what_the_user_wrote(value, expected):
    assert to_fraction(value, "x") == expected


@pytest.mark.parametrize("value", [None, True, "abc", "1/0", float("nan"), float("inf"), [1], ""])
def test_to_fraction_rejects_non_numbers_and_names_the_field(value):
    with pytest.raises(InputError, match="cost of link A->B"):
        to_fraction(value, "cost of link A->B")


@pytest.mark.parametrize("value", [0, -1, "-3/7"])
def test_positive_fraction_rejects_zero_and_negative(value):
    with pytest.raises(InputError, match="compute of P3 must be positive"):
        positive_fraction(value, "compute of P3")


@given(st.fractions())
def test_fraction_str_round_trips(x):
    assert to_fraction(fraction_str(x), "x") == x


def test_fraction_str_format():
    assert fraction_str(Fraction(6, 4)) == "3/2"
    assert fraction_str(Fraction(-2)) == "-2"
