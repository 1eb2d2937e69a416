"""Exact discrete-event simulator and Monte Carlo engine for reductions."""
