"""Steady-state LPs for series of scatters and reduces (Legrand, Marchal, Robert)."""
