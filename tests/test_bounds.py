"""Table 1 (RR 8315, section 4) and the proofs' lower bounds, against hand values."""

import math
from fractions import Fraction

import pytest
import sympy

from hetcoll import InputError
from hetcoll.analytics import (
    DELTA,
    HETEROPAR_MISPRINT,
    TABLE1,
    approximation_ratio,
    ceil_log2,
    fibonacci_lower_bound,
    render_table,
    rounds_lower_bound,
    table1,
)

LOG2_PHI = math.log2((1 + math.sqrt(5)) / 2)  # 0.6942...


def hand_table(delta: float, n: int) -> dict[tuple[str, str], float]:
    """Table 1 typed from the paper, with math's floats."""
    rounds = math.ceil(math.log2(n))
    binomial = {"c=0": delta, "any c": delta + 1,
                "c=d": (delta + 1) * (1 + 1 / math.log2(n)) * LOG2_PHI}
    fib = {"c=0": delta / LOG2_PHI + delta / rounds,
           "any c": delta / LOG2_PHI + 2 * delta / rounds,
           "c=d": delta / LOG2_PHI + (delta + 1) / rounds}
    table = {}
    for regime in ("c=0", "any c", "c=d"):
        table[("binomial-stat", regime)] = binomial[regime]
        table[("tree-dyn", regime)] = binomial[regime]
        table[("fibonacci-stat", regime)] = fib[regime]
    return table


@pytest.mark.parametrize("delta, n", [(2, 64), (1, 2), (3, 5), (1.5, 1000), (10, 7)])
def test_table1_equals_hand_values(delta, n):
    expected = hand_table(delta, n)
    assert len(TABLE1) == 9
    for bound in TABLE1:
        assert bound.value(delta, n) == pytest.approx(expected[(bound.algorithm, bound.regime)],
                                                      rel=1e-12)


# Table 1 as decimals, by hand from the paper's formulas with log2(phi) = 0.6942419136
# (1/log2(phi) = 1.4404200904) and ceil(log2 n) = 6 at n = 64, 3 at n = 5; columns
# c=0, any c, c=d.  Binomial-stat and Tree-dyn share their row.
TYPED = {
    (2, 64): {"binomial-stat": (2, 3, 2.4298466977), "tree-dyn": (2, 3, 2.4298466977),
              "fibonacci-stat": (3.2141735142, 3.5475068475, 3.3808401808)},
    (3, 5): {"binomial-stat": (3, 4, 3.9729425259), "tree-dyn": (3, 4, 3.9729425259),
             "fibonacci-stat": (5.3212602712, 6.3212602712, 5.6545936046)},
}


@pytest.mark.parametrize("delta, n", list(TYPED))
def test_table1_equals_typed_decimals(delta, n):
    for bound in TABLE1:
        column = ("c=0", "any c", "c=d").index(bound.regime)
        assert bound.value(delta, n) == pytest.approx(TYPED[(delta, n)][bound.algorithm][column],
                                                      abs=1e-9)


def test_known_decimal_values():
    # Hand arithmetic, Delta = 2, n = 64: log2(phi) = 0.69424191363...
    assert approximation_ratio("tree-dyn", "c=d", 2, 64).evalf(12) == pytest.approx(
        3 * 7 / 6 * 0.694241913631, rel=1e-11)
    assert float(approximation_ratio("fibonacci-stat", "c=0", 2, 64)) == pytest.approx(
        2 / 0.694241913631 + 2 / 6, rel=1e-11)


def test_rational_cells_are_exact():
    assert approximation_ratio("binomial-stat", "c=0", "3/2", 10) == sympy.Rational(3, 2)
    assert approximation_ratio("tree-dyn", "any c", "3/2") == sympy.Rational(5, 2)
    # ceil(log2 n) is an exact integer, even where log2 n is irrational
    value = approximation_ratio("fibonacci-stat", "c=d", 1, 5)
    natural = value.rewrite(sympy.log)
    assert sympy.simplify(natural - sympy.log(2) / sympy.log(sympy.GoldenRatio)) \
        == sympy.Rational(2, 3)


def test_theorems_and_regimes():
    tags = {(b.algorithm, b.regime): b.theorem for b in table1()}
    assert tags == {("binomial-stat", "c=0"): 1, ("binomial-stat", "any c"): 3,
                    ("binomial-stat", "c=d"): 4, ("tree-dyn", "c=0"): 1,
                    ("tree-dyn", "any c"): 3, ("tree-dyn", "c=d"): 4,
                    ("fibonacci-stat", "c=0"): 2, ("fibonacci-stat", "any c"): 5,
                    ("fibonacci-stat", "c=d"): 5}
    assert {b.tight for b in TABLE1 if b.theorem == 1} == {"exact"}
    assert {b.tight for b in TABLE1 if b.theorem == 4} == {"asymptotic"}


def test_heteropar_misprint_recorded():
    proven = next(b for b in TABLE1 if b.algorithm == "fibonacci-stat" and b.regime == "c=d")
    assert HETEROPAR_MISPRINT.expression == DELTA
    assert "misprint" in HETEROPAR_MISPRINT.note and "HeteroPar" in proven.note
    # The misprinted value is below RR's ratio: more than Theorem 5 proves (it holds
    # nonetheless, see tests/test_instances.py::test_heteropar_fibonacci_cell_holds).
    for delta, n in [(1, 2), (2, 64), (5, 1024)]:
        assert HETEROPAR_MISPRINT.value(delta, n) < proven.value(delta, n)


def test_renderings():
    plain = render_table()
    assert plain.splitlines()[0].split() == ["algorithm", "c=0", "any", "c", "c=d"]
    assert "Delta/log2(phi) + Delta/ceil_log2(n) (Th. 2)" in plain
    numbers = render_table(2, 64)
    assert "2.0000 (Th. 1)" in numbers and "3.0000 (Th. 3)" in numbers
    latex = render_table(fmt="latex")
    assert latex.startswith(r"\begin{tabular}") and latex.endswith(r"\end{tabular}")
    assert r"\lceil \log_2 n \rceil" in latex and r"\varphi" in latex
    assert TABLE1[0].latex() == r"\Delta"


@pytest.mark.parametrize("call", [
    lambda: approximation_ratio("tree-dyn", "c=0", delta="1/2"),
    lambda: approximation_ratio("tree-dyn", "c=0", n=1),
    lambda: approximation_ratio("nope", "c=0"),
    lambda: approximation_ratio("tree-dyn", "c=2d"),
    lambda: render_table(fmt="html"),
    lambda: rounds_lower_bound(1, 1),
    lambda: rounds_lower_bound(4, -1),
    lambda: fibonacci_lower_bound(4, 1, "x"),
])
def test_bad_input(call):
    with pytest.raises(InputError):
        call()


def test_lower_bounds_hand_values():
    assert [ceil_log2(n) for n in (1, 2, 3, 4, 5, 8, 9)] == [0, 1, 2, 2, 3, 3, 4]
    assert rounds_lower_bound(8, 1) == 3
    assert rounds_lower_bound(5, "1/2", 2) == 6  # max(c, d) = 2, three rounds
    # F_(k+2) >= n: n = 8 -> F_6 = 8, k = 4, bound 5 * min(c, d)
    assert fibonacci_lower_bound(8, 1, 1) == 5
    assert fibonacci_lower_bound(9, 2, 3) == 12  # F_7 = 13 >= 9: k = 5, 6 * 2
    assert fibonacci_lower_bound(2, 1, 0) == Fraction(0)
