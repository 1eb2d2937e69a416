"""Absorbing continuous-time Markov chains of dynamic reductions."""
