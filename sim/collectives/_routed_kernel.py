"""Compiled fluid simulation of one tree's transfers over shared links, many runs at once.

The float twin of :func:`hetcoll.sim.collectives.routed_prediction` for the Monte
Carlo: same dependencies, same latency-then-bandwidth phases, same max-min sharing by
progressive filling.  Transfer k's latency and bytes are both scaled by the run's
factor k, so its time alone scales by that factor, as in the pairwise Monte Carlo.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_TOL = 1e-12


@njit(cache=True, nogil=True)
def _rates(moving, route_ptr, route_links, capacity, cap, rate, remaining, count, active):
    """Max-min rates of the moving flows by progressive filling (scratch arrays given)."""
    n_active = 0
    for f in range(moving.shape[0]):
        if moving[f]:
            for r in range(route_ptr[f], route_ptr[f + 1]):
                link = route_links[r]
                if count[link] == 0:
                    active[n_active] = link
                    n_active += 1
                    remaining[link] = capacity[link]
                count[link] += 1
    unfixed = moving.copy()
    left = unfixed.sum()
    while left > 0:
        level = np.inf
        for a in range(n_active):
            link = active[a]
            if count[link] > 0:
                level = min(level, remaining[link] / count[link])
        for f in range(moving.shape[0]):
            if unfixed[f]:
                level = min(level, cap[f])
        bound = level * (1 + _TOL)
        fixed = np.zeros(moving.shape[0], np.bool_)
        for f in range(moving.shape[0]):
            if not unfixed[f]:
                continue
            hit = cap[f] <= bound
            for r in range(route_ptr[f], route_ptr[f + 1]):
                link = route_links[r]
                if remaining[link] <= bound * count[link]:
                    hit = True
            if hit:
                rate[f] = level
                fixed[f] = True
        for f in range(moving.shape[0]):
            if fixed[f]:
                unfixed[f] = False
                left -= 1
                for r in range(route_ptr[f], route_ptr[f + 1]):
                    link = route_links[r]
                    remaining[link] = max(remaining[link] - level, 0.0)
                    count[link] -= 1
    for a in range(n_active):
        count[active[a]] = 0


@njit(cache=True, nogil=True)
def routed_makespans(latency, size, route_ptr, route_links, capacity, cap, waits,
                     unlock_ptr, unlock_idx, factors):
    """Completion time of every run (rows of ``factors``)."""
    runs, n = factors.shape[0], latency.shape[0]
    out = np.zeros(runs)
    wake = np.empty(n)
    left = np.empty(n)
    rate = np.empty(n)
    state = np.empty(n, np.int64)  # 0 waiting, 1 started, 2 done
    waiting = np.empty(n, np.int64)
    moving = np.zeros(n, np.bool_)
    remaining = np.zeros(capacity.shape[0])
    count = np.zeros(capacity.shape[0], np.int64)
    active = np.zeros(capacity.shape[0], np.int64)
    for run in range(runs):
        now = 0.0
        finished_all = 0.0
        for k in range(n):
            waiting[k] = waits[k]
            state[k] = 0
        for k in range(n):
            if waiting[k] == 0:
                state[k] = 1
                wake[k] = now + latency[k] * factors[run, k]
                left[k] = size[k] * factors[run, k]
        done = 0
        while done < n:
            progressed = True
            while progressed:
                progressed = False
                for k in range(n):
                    if state[k] == 1 and wake[k] <= now and left[k] <= 0.0:
                        state[k] = 2
                        done += 1
                        finished_all = now
                        progressed = True
                        for u in range(unlock_ptr[k], unlock_ptr[k + 1]):
                            j = unlock_idx[u]
                            waiting[j] -= 1
                            if waiting[j] == 0:
                                state[j] = 1
                                wake[j] = now + latency[j] * factors[run, j]
                                left[j] = size[j] * factors[run, j]
            if done == n:
                break
            any_moving = False
            for k in range(n):
                moving[k] = state[k] == 1 and wake[k] <= now
                any_moving = any_moving or moving[k]
            if any_moving:
                _rates(moving, route_ptr, route_links, capacity, cap, rate, remaining, count,
                       active)
            step = np.inf
            for k in range(n):
                if state[k] == 1:
                    step = min(step, now + left[k] / rate[k] if moving[k] else wake[k])
            for k in range(n):
                if moving[k]:
                    if now + left[k] / rate[k] <= step * (1 + _TOL):
                        left[k] = 0.0
                    else:
                        left[k] -= rate[k] * (step - now)
            now = step
        out[run] = finished_all
    return out
