"""Tests of the absorbing-CTMC toolkit and of the Tree-dyn / Non-Commut-Tree-dyn chains.

References are independent of the code under test: the paper's formulas
written out with Fractions, cases solved by hand (path enumeration), the
fundamental matrix computed densely (numpy, sympy), and a second, state-by-state
description of Tree-dyn explored by breadth-first search.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import scipy.stats
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.integrate import simpson

from hetcoll.core.errors import InputError
from hetcoll.markov import (
    AbsorbingCTMC,
    absorption_cdf,
    absorption_moments,
    absorption_pdf,
    absorption_quantiles,
    absorption_time,
    exact_absorption_moments,
    noncommut_tree_dyn_chain,
    tree_dyn_chain,
    tree_dyn_closed_form,
    tree_dyn_closed_form_value,
)
from hetcoll.markov.closed_forms import LAMBDA_D, N


def harmonic(m: int, power: int = 1) -> Fraction:
    return sum((Fraction(1, i**power) for i in range(1, m + 1)), Fraction(0))


def paper_mean(n: int, rate: Fraction) -> Fraction:
    """RR 8315 section 5: E[C] = (2 H(n/2 - 1) + 2/n) / lambda_d, n even."""
    return (2 * harmonic(n // 2 - 1) + Fraction(2, n)) / rate


def paper_variance(n: int, rate: Fraction) -> Fraction:
    """RR 8315 section 5: Var[C] = (2 sum_{i<n/2} 1/i^2 + 4/n^2) / lambda_d^2, n even."""
    return (2 * harmonic(n // 2 - 1, 2) + Fraction(4, n * n)) / rate**2


def path_mixture(paths):
    """Mean and variance of a makespan that follows one of several paths.

    ``paths`` lists ``(probability, [exit rate of each state visited])``.  The
    time spent in a state is exponential with its exit rate, independent of
    which transition fires, so along a path the makespan is a sum of
    independent exponentials: mean sum 1/q, variance sum 1/q^2.
    """
    mean = sum(p * sum(1 / q for q in rates) for p, rates in paths)
    second = sum(p * (sum(1 / q**2 for q in rates) + sum(1 / q for q in rates) ** 2)
                 for p, rates in paths)
    return mean, second - mean**2


def exact(chain):
    r = absorption_time(chain, exact=True)
    assert r.status == 0
    assert math.isclose(r.moments[0], float(r.mean_exact), rel_tol=1e-9)
    assert math.isclose(r.moments[1], float(r.moments_exact[1]), rel_tol=1e-9)
    return r.mean_exact, r.variance_exact


# ------------------------------------------------------------ paper formulas
@pytest.mark.parametrize("rate", [Fraction(1), Fraction(3, 7)])
def test_tree_dyn_equals_paper_formulas_for_every_even_n(rate):
    for n in range(2, 201, 2):
        mean, variance = exact(tree_dyn_chain(n, rate))
        assert mean == paper_mean(n, rate), n
        assert variance == paper_variance(n, rate), n


def test_heteropar_misprint_is_wrong():
    # HeteroPar 2013 prints E[C] = (2 H(n/2) + 2/n) / lambda_d: larger by 4/n.
    for n in range(2, 201, 2):
        mean, _ = exact(tree_dyn_chain(n))
        misprint = 2 * harmonic(n // 2) + Fraction(2, n)
        assert mean != misprint
        assert misprint - mean == Fraction(4, n)


def test_symbolic_closed_forms_match_the_chain():
    even_mean, even_var = tree_dyn_closed_form("even")
    odd_mean, odd_var = tree_dyn_closed_form("odd")
    rate = sympy.Rational(5, 3)
    for n in range(1, 61):
        mean, variance = exact(tree_dyn_chain(n, "5/3"))
        m, v = (even_mean, even_var) if n % 2 == 0 else (odd_mean, odd_var)
        assert sympy.Rational(m.subs({N: n, LAMBDA_D: rate})) == sympy.Rational(
            mean.numerator, mean.denominator)
        assert sympy.Rational(v.subs({N: n, LAMBDA_D: rate})) == sympy.Rational(
            variance.numerator, variance.denominator)


def test_odd_closed_form_values():
    # n = 2m + 1: m transfers at time 0 and one processor in the slot; the
    # chain visits m, m, m-1, m-1, ..., 1, 1 transfers: E = 2 H(m), Var = 2 H_2(m).
    for n in range(1, 200, 2):
        m = (n - 1) // 2
        assert tree_dyn_closed_form_value(n, 2) == (harmonic(m), harmonic(m, 2) / 2)
        assert exact(tree_dyn_chain(n, 2)) == (harmonic(m), harmonic(m, 2) / 2)


def test_closed_form_bad_input():
    with pytest.raises(InputError, match="parity"):
        tree_dyn_closed_form("both")
    with pytest.raises(InputError, match="n"):
        tree_dyn_closed_form_value(0)
    with pytest.raises(InputError, match="rate_comm"):
        tree_dyn_closed_form_value(4, "0")


# ------------------------------------------------------ hand-solved small cases
D, C = Fraction(3), Fraction(5, 2)  # lambda_d, lambda_c: distinct, to catch a swap


def test_tree_dyn_n1_is_instant():
    chain = tree_dyn_chain(1, D, C)
    assert chain.n_states == 0
    assert exact(chain) == (0, 0)
    assert absorption_quantiles(chain, [0.5]) == {0.5: 0.0}


def test_tree_dyn_n2_by_hand():
    # P1 -> P0 (rate D), then P0 reduces (rate C), then done.
    assert exact(tree_dyn_chain(2, D)) == (1 / D, 1 / D**2)
    assert exact(tree_dyn_chain(2, D, C)) == (1 / D + 1 / C, 1 / D**2 + 1 / C**2)


def test_tree_dyn_n3_by_hand():
    # P1 -> P0 and P2 in the slot.  Transfer (D); P0 reduces (C); P0 finds P2
    # in the slot and sends to it (D); P2 reduces (C).  One path.
    assert exact(tree_dyn_chain(3, D)) == (2 / D, 2 / D**2)
    assert exact(tree_dyn_chain(3, D, C)) == (2 / D + 2 / C, 2 / D**2 + 2 / C**2)


def test_tree_dyn_n4_by_hand():
    # Without reductions: 2 transfers (2D), the first receiver enters the
    # slot; the second transfer ends (D), its receiver pairs with the slot;
    # last transfer (D).
    assert exact(tree_dyn_chain(4, D)) == path_mixture([(1, [2 * D, D, D])])
    # With reductions, states (transfers a, reductions b, slot s):
    # (2,0,0) -2D-> (1,1,0), where the transfer (D) and the reduction (C) race.
    #   transfer first, prob D/(D+C): (0,2,0) -2C-> (0,1,1) -C-> (1,0,0) -D-> (0,1,0) -C-> end
    #   reduction first, prob C/(D+C): (1,0,1) -D-> (0,1,1) -C-> (1,0,0) -D-> (0,1,0) -C-> end
    expected = path_mixture([
        (D / (D + C), [2 * D, D + C, 2 * C, C, D, C]),
        (C / (D + C), [2 * D, D + C, D, C, D, C]),
    ])
    assert exact(tree_dyn_chain(4, D, C)) == expected


def test_noncommut_small_cases_by_hand():
    # n = 2, 3, 4 behave like Tree-dyn (same pairings up to relabelling).
    assert exact(noncommut_tree_dyn_chain(2, D, C)) == (1 / D + 1 / C, 1 / D**2 + 1 / C**2)
    assert exact(noncommut_tree_dyn_chain(3, D)) == (2 / D, 2 / D**2)
    assert exact(noncommut_tree_dyn_chain(3, D, C)) == (2 / D + 2 / C, 2 / D**2 + 2 / C**2)
    assert exact(noncommut_tree_dyn_chain(4, D)) == path_mixture([(1, [2 * D, D, D])])
    # n = 4 with reductions: "TT" -2D-> "CT" or "TC" (the race of the left
    # example above).  "CT": C wins -> "IT" (its right neighbour is busy), then
    # T ends (D) -> "IC"... identical rates to Tree-dyn's two paths.
    expected = path_mixture([
        (D / (D + C), [2 * D, D + C, 2 * C, C, D, C]),
        (C / (D + C), [2 * D, D + C, D, C, D, C]),
    ])
    assert exact(noncommut_tree_dyn_chain(4, D, C)) == expected


def test_noncommut_n6_differs_from_tree_dyn():
    # Without reductions, rate 1 (E scales as 1/lambda_d).  Status strings,
    # T = a pair transferring, I = an idle holder.
    #   "TI" (3 intervals): 1 + 1 = 2;  "ITI": 1 + E["TI"] = 3;
    #   "TT": 1/2 + 1 + 1 = 5/2;
    #   "ITT": 1/2 + (E["TT"] + E["ITI"]) / 2 = 13/4 (middle T ends -> pairs left);
    #   "TTI": 1/2 + (E["ITI"] + E["TT"]) / 2 = 13/4;
    #   "TIT": 1/2 + E["TT"] = 3 (either end pairs with the idle middle);
    #   "TTT": 1/3 + (13/4 + 3 + 13/4) / 3 = 7/2.
    mean, _ = exact(noncommut_tree_dyn_chain(6, D))
    assert mean == Fraction(7, 2) / D
    # Tree-dyn pairs any two idle processors: 2 H(2) + 1/3 = 10/3 < 7/2.
    assert exact(tree_dyn_chain(6, D))[0] == Fraction(10, 3) / D


def test_noncommut_initial_state_and_state_strings():
    chain = noncommut_tree_dyn_chain(7, 1, 1)
    assert chain.states[chain.initial] == "TTTI"
    assert all(set(s) <= set("TCI") for s in chain.states)
    # No two idle neighbours ever: they would have paired.
    assert not any("II" in s for s in chain.states)


# -------------------------------------- Tree-dyn: an independent BFS description
def tree_dyn_by_bfs(n, rate_comm, rate_comp):
    """Tree-dyn as a processor-level BFS on (transfers, reductions, slot)."""
    def successors(state):
        a, b, s = state
        if a:
            if rate_comp is None:  # receiver idle at once
                yield ((a, 0, 0) if s else (a - 1, 0, 1)), a * rate_comm
            else:
                yield (a - 1, b + 1, s), a * rate_comm
        if b:
            yield ((a + 1, b - 1, 0) if s else (a, b - 1, 1)), b * rate_comp

    return AbsorbingCTMC.from_successors((n // 2, 0, n % 2), successors)


@pytest.mark.parametrize("rate_comp", [None, Fraction(2, 3)])
def test_tree_dyn_vectorised_builder_matches_bfs(rate_comp):
    for n in range(1, 14):
        fast = tree_dyn_chain(n, Fraction(5, 4), rate_comp)
        slow = tree_dyn_by_bfs(n, Fraction(5, 4), rate_comp)
        assert fast.n_states == slow.n_states, n
        assert sorted(map(tuple, fast.states.tolist())) == sorted(slow.states)
        assert exact_absorption_moments(fast, 3) == exact_absorption_moments(slow, 3)
    # About n^2/4 states with reductions: sum_k (min(k, n-k) + 1), minus absorption.
    n = 40
    assert tree_dyn_chain(n, 1, 1).n_states == sum(min(k, n - k) + 1 for k in range(1, n + 1)) - 1
    assert tree_dyn_chain(n).n_states == n - 1


def test_tree_dyn_is_acyclic_and_float_moments_match_exact():
    chain = tree_dyn_chain(30, Fraction(1, 2), 3)
    levels = chain.topological_levels()
    # Every transition goes down a level (or to absorption): the order that
    # back-substitution relies on.  Level 0 states lead only to absorption.
    inner = chain.target >= 0
    assert levels is not None and (levels >= 0).all()
    assert (levels[chain.target[inner]] < levels[chain.source[inner]]).all()
    assert (chain.target[levels[chain.source] == 0] < 0).all()
    # A two-state cycle has no levels.
    cycle = AbsorbingCTMC.from_successors(0, lambda s: [(1 - s, 1)] + [(2, 1)] * (s == 1)
                                          if s < 2 else [])
    assert cycle.topological_levels() is None
    np.testing.assert_allclose(absorption_moments(chain, 4),
                               [float(m) for m in exact_absorption_moments(chain, 4)],
                               rtol=1e-10)


# ------------------------------------------------ generic chains (hypothesis)
@st.composite
def random_chains(draw, acyclic=False):
    """A small absorbing chain; absorption is certain from every state."""
    size = draw(st.integers(1, 5))
    rates = {}
    for i in range(size):
        for j in range(size):
            if i != j and (not acyclic or j < i):
                rates[i, j] = draw(st.integers(0, 4))
        rates[i, "end"] = draw(st.integers(0, 3))
    rates[0, "end"] = max(rates[0, "end"], 1)
    for i in range(1, size):  # a path to state 0, hence to absorption
        rates[i, i - 1] = max(rates[i, i - 1], 1)
    return size, {key: Fraction(draw(st.integers(1, 3)), draw(st.integers(1, 3))) * r
                  for key, r in rates.items() if r}


def chain_of(size, rates):
    def successors(state):
        return [(j, r) for (i, j), r in rates.items() if i == state]

    return AbsorbingCTMC.from_successors(size - 1, successors)


def fundamental_moments(size, rates, order):
    """k! alpha N^k 1 with N = (-S)^(-1), dense and exact (sympy)."""
    minus_s = sympy.zeros(size, size)
    for (i, j), r in rates.items():
        minus_s[i, i] += sympy.Rational(r.numerator, r.denominator)
        if j != "end":
            minus_s[i, j] -= sympy.Rational(r.numerator, r.denominator)
    fundamental = minus_s.inv()
    vector = sympy.ones(size, 1)
    out = []
    for k in range(1, order + 1):
        vector = fundamental * vector
        out.append(Fraction(math.factorial(k)) * Fraction(str(vector[size - 1])))
    return out


@settings(max_examples=60)
@given(st.booleans().flatmap(lambda acyclic: random_chains(acyclic=acyclic)))
def test_first_step_moments_equal_fundamental_matrix_moments(drawn):
    size, rates = drawn
    chain = chain_of(size, rates)
    expected = fundamental_moments(size, rates, 3)
    assert exact_absorption_moments(chain, 3) == expected
    np.testing.assert_allclose(absorption_moments(chain, 3), [float(x) for x in expected],
                               rtol=1e-9)


@settings(max_examples=30)
@given(random_chains())
def test_moments_match_phase_type_integrals(drawn):
    size, rates = drawn
    chain = chain_of(size, rates)
    mean, second = (float(x) for x in exact_absorption_moments(chain, 2))
    horizon = mean + 40 * math.sqrt(second)
    # Fast phases only shape the density near 0 (their modes decay at once):
    # a fine grid there, a coarser one after.
    knee = 20 / float(max(rates.values()))
    early, late = np.linspace(0, knee, 2001), np.linspace(knee, horizon, 4001)
    times = np.concatenate([early, late[1:]])
    density = np.concatenate([absorption_pdf(chain, early), absorption_pdf(chain, late)[1:]])
    survival = np.concatenate([1 - absorption_cdf(chain, early),
                               1 - absorption_cdf(chain, late)[1:]])
    assert math.isclose(simpson(density, x=times), 1, rel_tol=1e-6)
    assert math.isclose(simpson(times * density, x=times), mean, rel_tol=1e-5)
    assert math.isclose(simpson(times**2 * density, x=times), second, rel_tol=1e-5)
    assert math.isclose(simpson(survival, x=times), mean, rel_tol=1e-5)


def test_tree_dyn_moments_match_phase_type_integrals():
    chain = tree_dyn_chain(12, 1, "1/2")
    mean, second = absorption_moments(chain, 2)
    times = np.linspace(0, 120, 6001)
    density = absorption_pdf(chain, times)
    assert math.isclose(simpson(density, x=times), 1, rel_tol=1e-7)
    assert math.isclose(simpson(times * density, x=times), mean, rel_tol=1e-7)
    assert math.isclose(simpson(times**2 * density, x=times), second, rel_tol=1e-7)


def test_quantiles_of_known_distributions():
    probs = [0.01, 0.1, 0.5, 0.9, 0.999]
    # n = 2: one exponential transfer; n = 3: two in series (Erlang 2).
    q2 = absorption_quantiles(tree_dyn_chain(2, 3), probs)
    q3 = absorption_quantiles(tree_dyn_chain(3, 3), probs)
    for p in probs:
        assert math.isclose(q2[p], scipy.stats.expon.ppf(p, scale=1 / 3), rel_tol=1e-8)
        assert math.isclose(q3[p], scipy.stats.gamma.ppf(p, 2, scale=1 / 3), rel_tol=1e-8)
    chain = noncommut_tree_dyn_chain(7, 1, 2)
    for p, t in absorption_quantiles(chain, probs).items():
        assert math.isclose(absorption_cdf(chain, [t])[0], p, abs_tol=1e-8)


# ------------------------------------------------------------------ bad input
def test_bad_input():
    with pytest.raises(InputError, match="n"):
        tree_dyn_chain(0)
    with pytest.raises(InputError, match="n"):
        noncommut_tree_dyn_chain(2.5)
    with pytest.raises(InputError, match="rate_comm"):
        tree_dyn_chain(4, 0)
    with pytest.raises(InputError, match="rate_comp"):
        tree_dyn_chain(4, 1, "fast")
    with pytest.raises(InputError, match="rate_comp"):
        noncommut_tree_dyn_chain(4, 1, float("nan"))
    with pytest.raises(InputError, match="max_states"):
        noncommut_tree_dyn_chain(12, 1, 1, max_states=100)
    # Rates whose float moments (~ rate^-k) overflow or underflow: 1e-300 used
    # to be reported as "absorption is not certain", 1e400 to crash.
    for rate in ("1e400", "1e-300", 1e-101, 1e101):
        with pytest.raises(InputError, match="rate_comm .*out of range"):
            tree_dyn_chain(4, rate)
    with pytest.raises(InputError, match="rate_comp .*out of range"):
        noncommut_tree_dyn_chain(4, 1, "1e-400")
    # The ends of the range work: n = 2 is one transfer, mean 1/rate.
    assert absorption_time(tree_dyn_chain(2, "1e-100"), exact=True).mean_exact == 10**100
    assert absorption_time(tree_dyn_chain(2, 1e100)).mean == pytest.approx(1e-100)
    # Tree-dyn knows its size before building: n^2/4 + n - 1 = 119 states at
    # n = 20 with reductions (the count test_tree_dyn_vectorised_builder_matches_bfs
    # checks), 19 without; refused before allocating for n = 10^5.
    assert tree_dyn_chain(20, 1, 1, max_states=119).n_states == 119
    with pytest.raises(InputError, match="n = 20 processors has 119 transient states"):
        tree_dyn_chain(20, 1, 1, max_states=118)
    assert tree_dyn_chain(20, max_states=19).n_states == 19
    with pytest.raises(InputError, match="2500099999 transient states"):
        tree_dyn_chain(100_000, 1, 1, max_states=10**7)
    # n = 200: the first BFS states each have about n/2 = 100 moves; the
    # transition guard stops the build after a few dozen states (without a state
    # guard: with one, n = 200 is refused before any state).
    with pytest.raises(InputError, match=r"max_transitions=2000 transitions \(after \d\d? st"):
        noncommut_tree_dyn_chain(200, max_transitions=2000)
    with pytest.raises(InputError, match="at least 4.9e\\+20 transient states"):
        noncommut_tree_dyn_chain(200, max_states=10**6, max_transitions=2000)
    chain = tree_dyn_chain(4)
    with pytest.raises(InputError, match="quantile"):
        absorption_quantiles(chain, [0.5, 1.0])
    with pytest.raises(InputError, match="times"):
        absorption_cdf(chain, [-1.0])
    with pytest.raises(InputError, match="order"):
        absorption_moments(chain, 0)
    with pytest.raises(InputError, match="rate from state"):
        AbsorbingCTMC.from_successors(0, lambda s: [(1, -2)] if s == 0 else [])


def test_chain_that_never_absorbs_is_rejected():
    # 0 <-> 1 forever, 2 -> absorbed: from 0 absorption is impossible.
    moves = {0: [(1, 1)], 1: [(0, 1)], 2: [("end", 1)]}
    trapped = AbsorbingCTMC.from_successors(0, lambda s: moves.get(s, []))
    with pytest.raises(InputError, match="absorption is not certain"):
        exact_absorption_moments(trapped)
    with pytest.raises(InputError, match="absorption is not certain"):
        absorption_moments(trapped)


def test_float_rates_give_floats_only():
    chain = tree_dyn_chain(6, 1.5, 0.5)
    result = absorption_time(chain, exact=True)
    assert result.status == 1 and result.mean_exact is None
    assert math.isclose(result.mean, float(exact(tree_dyn_chain(6, "3/2", "1/2"))[0]),
                        rel_tol=1e-12)


def test_sparse_distribution_path_matches_dense_expm():
    # Above DENSE_LIMIT states the CDF and density use uniformization: compare
    # with scipy.linalg.expm on the dense sub-generator.
    from scipy.linalg import expm

    from hetcoll.markov.ctmc import DENSE_LIMIT

    chain = tree_dyn_chain(34, 1, "2/3")
    assert chain.n_states > DENSE_LIMIT
    dense = chain.subgenerator().toarray()
    alpha = np.zeros(chain.n_states)
    alpha[chain.initial] = 1
    times = [0.0, 0.7, 3.0, 11.5, 25.0, 40.0]
    survival = np.array([alpha @ expm(dense * t) @ np.ones(chain.n_states) for t in times])
    density = np.array([alpha @ expm(dense * t) @ (-dense.sum(axis=1)) for t in times])
    np.testing.assert_allclose(absorption_cdf(chain, times), 1 - survival, atol=1e-12)
    np.testing.assert_allclose(absorption_pdf(chain, times), density, atol=1e-12)
    for p, t in absorption_quantiles(chain, [0.05, 0.5, 0.95]).items():
        assert math.isclose(1 - alpha @ expm(dense * t) @ np.ones(chain.n_states), p,
                            abs_tol=1e-9)


def test_noncommut_state_lower_bound_holds_where_it_can_be_checked():
    # The guard refusing huge n before any state rests on a measured lower bound.
    from hetcoll.markov.reductions import _least_noncommut_states

    for n in range(1, 21):
        assert noncommut_tree_dyn_chain(n).n_states >= _least_noncommut_states(n), n
    for n in range(1, 13):
        assert noncommut_tree_dyn_chain(n, 1, 1).n_states >= _least_noncommut_states(n), n


def test_noncommut_huge_n_refused_before_any_state():
    from hetcoll.core.errors import LimitError

    with pytest.raises(LimitError, match="at least 9.35e\\+03 transient states"):
        noncommut_tree_dyn_chain(40, max_states=200)
    with pytest.raises(LimitError, match="max_states=2000000"):
        noncommut_tree_dyn_chain(10**8, max_states=2_000_000)  # a 50 MB string per state
    with pytest.raises(LimitError, match="max_transitions=10"):
        noncommut_tree_dyn_chain(60, max_transitions=10)  # 30 moves from the first state
