"""Approximation bounds, tight instances, clairvoyant optimum, theorem checks."""
