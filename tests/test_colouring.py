"""Weighted bipartite edge-colouring: hand cases and properties."""

from collections import defaultdict
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hetcoll.core.errors import InputError
from hetcoll.lp.colouring import weighted_bipartite_edge_colouring


def check_colouring(weights, matchings):
    """Independent checks: matchings, exact cover of every edge, total = max degree."""
    covered = defaultdict(F)
    for matching in matchings:
        assert matching.duration > 0
        lefts = [u for u, _ in matching.edges]
        rights = [v for _, v in matching.edges]
        assert len(set(lefts)) == len(lefts), "a sender in two edges of one matching"
        assert len(set(rights)) == len(rights), "a receiver in two edges of one matching"
        for edge in matching.edges:
            covered[edge] += matching.duration
    positive = {e: F(w) for e, w in weights.items() if F(w)}
    assert dict(covered) == positive
    degree = defaultdict(F)
    for (u, v), w in positive.items():
        degree["L", u] += w
        degree["R", v] += w
    assert sum(m.duration for m in matchings) == max(degree.values(), default=0)


def test_hand_case_triangle_of_degrees():
    # a sends 2 to x and 1 to y; b sends 1 to x: max degree 3 (a, and x).
    weights = {("a", "x"): F(2), ("a", "y"): F(1), ("b", "x"): F(1)}
    matchings = weighted_bipartite_edge_colouring(weights)
    check_colouring(weights, matchings)
    # (a,x) and (b,x) share x; (a,x) and (a,y) share a: at least 3 time units.
    assert sum(m.duration for m in matchings) == 3


def test_same_name_on_both_sides_is_two_vertices():
    # P sends to Q while Q sends to P: one matching of length 1 suffices.
    weights = {("P", "Q"): F(1), ("Q", "P"): F(1)}
    matchings = weighted_bipartite_edge_colouring(weights)
    assert len(matchings) == 1 and matchings[0].duration == 1
    assert set(matchings[0].edges) == {("P", "Q"), ("Q", "P")}


def test_empty_and_zero_weights():
    assert weighted_bipartite_edge_colouring({}) == []
    assert weighted_bipartite_edge_colouring({("a", "b"): 0}) == []


def test_negative_weight_names_the_edge():
    with pytest.raises(InputError, match=r"edge \('a', 'b'\) must be non-negative"):
        weighted_bipartite_edge_colouring({("a", "b"): "-1/2"})


def test_decimal_strings_are_exact():
    matchings = weighted_bipartite_edge_colouring({("a", "b"): "0.1", ("c", "b"): "0.2"})
    assert sum(m.duration for m in matchings) == F(3, 10)


weights_strategy = st.dictionaries(
    st.tuples(st.integers(0, 5), st.integers(0, 6)),
    st.fractions(min_value=0, max_value=5, max_denominator=12),
    max_size=25,
)


@settings(max_examples=150)
@given(weights_strategy)
def test_colouring_properties(weights):
    check_colouring(weights, weighted_bipartite_edge_colouring(weights))
