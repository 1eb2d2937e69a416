import os

import pytest
from hypothesis import HealthCheck, settings

# Exact rational arithmetic and LP solves have variable run times: no deadline.
settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", deadline=None, max_examples=500, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


class _OneRankWorld:
    """An in-process MPI communicator of one rank: enough for hetcoll.mpi.bench."""

    def Get_rank(self): return 0
    def Get_size(self): return 1
    def Barrier(self): pass
    def bcast(self, value, root=0): return value
    def gather(self, value, root=0): return [value]
    def allreduce(self, value, op=None): return value


@pytest.fixture
def one_rank_world(monkeypatch):
    """A one-rank communicator for running hetcoll.mpi.bench in-process (no MPI)."""
    from hetcoll.mpi import bench

    monkeypatch.setattr(bench, "_logical_and", lambda: None)
    return _OneRankWorld()
