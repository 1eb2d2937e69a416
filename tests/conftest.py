import os

from hypothesis import HealthCheck, settings

# Exact rational arithmetic and LP solves have variable run times: no deadline.
settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", deadline=None, max_examples=500, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
