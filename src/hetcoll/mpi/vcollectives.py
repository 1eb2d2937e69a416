"""Scatterv and gatherv over MPI following a DRL tree, and ``MPI_Scatterv``/``MPI_Gatherv``.

A tree is given by rank: ``parent[r]`` (None at the root) and ``children[r]`` in
sending (scatterv) or receiving (gatherv) order, exactly as the builders of
:mod:`hetcoll.sim.collectives` return them, so that a run follows the schedule that
:func:`hetcoll.sim.collectives.pairwise_prediction` predicts:

- scatterv: a node receives its subtree's blocks from its parent in one message, then
  sends each child that child's subtree, one child after another in list order;
- gatherv: a node receives each child's subtree in list order, then sends its own
  subtree (its block first) to its parent in one message.

Inside a node the data of a subtree lie in depth-first pre-order (the node's own block,
then each child's subtree in list order), so every message is one contiguous slice;
the root packs (scatterv) or unpacks (gatherv) its rank-ordered buffer, and this copy
is timed.  Buffers are float64 numpy arrays; block sizes are in elements.

References
----------
Dichev, Rychkov, Lastovetsky, "Two algorithms of irregular scatter/gather operations
for heterogeneous platforms", EuroMPI 2010, §2.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["VCollective", "TreeGatherv", "TreeScatterv", "MpiGatherv", "MpiScatterv",
           "preorder"]

_DATA = 3


def preorder(children: Sequence[Sequence[int]], node: int) -> list[int]:
    """The ranks of ``node``'s subtree in depth-first pre-order, children in list order.

    >>> preorder([[2, 1], [], [3], []], 0)
    [0, 2, 3, 1]
    """
    order, stack = [], [node]
    while stack:
        current = stack.pop()
        order.append(current)
        stack.extend(reversed(children[current]))
    return order


class VCollective:
    """One scatterv or gatherv algorithm on one communicator.

    ``run(value)`` is timed: for scatterv, ``value`` is the root's rank-ordered buffer
    (None elsewhere) and the result is the calling rank's block; for gatherv, ``value``
    is the rank's block and the result the root's rank-ordered buffer (None elsewhere).
    """

    def __init__(self, comm: Any, root: int, blocks: Sequence[int]) -> None:
        self.comm, self.root, self.blocks = comm, root, list(blocks)
        self.rank = comm.Get_rank()
        self.offsets = np.concatenate([[0], np.cumsum(self.blocks)]).astype(int)

    def setup(self) -> None:  # noqa: B027 - nothing to prepare
        """Collective, untimed preparation."""

    def reset(self) -> None:  # noqa: B027
        """Collective, untimed, before each run."""

    def teardown(self) -> None:  # noqa: B027
        """Collective clean-up."""

    def run(self, value: np.ndarray | None) -> np.ndarray | None:
        raise NotImplementedError


class _Tree(VCollective):
    def __init__(self, comm: Any, root: int, blocks: Sequence[int],
                 parent: Sequence[int | None], children: Sequence[Sequence[int]]) -> None:
        super().__init__(comm, root, blocks)
        self.parent = parent[self.rank]
        self.children = list(children[self.rank])
        volume = {r: sum(self.blocks[s] for s in preorder(children, r))
                  for r in [self.rank, *self.children]}
        self.volume = volume[self.rank]
        # Where each child's subtree lies in this node's buffer.
        self.slices, start = [], self.blocks[self.rank]
        for child in self.children:
            self.slices.append((child, slice(start, start + volume[child])))
            start += volume[child]
        # The root's permutation between rank order and pre-order.
        self.order = preorder(children, self.rank) if self.rank == root else []

    def _packed(self, value: np.ndarray) -> np.ndarray:
        return np.concatenate([value[self.offsets[r]:self.offsets[r + 1]]
                               for r in self.order]) if self.order else value

    def _unpacked(self, buffer: np.ndarray) -> np.ndarray:
        out, position = np.empty_like(buffer), 0
        for r in self.order:
            out[self.offsets[r]:self.offsets[r + 1]] = buffer[position:position
                                                              + self.blocks[r]]
            position += self.blocks[r]
        return out


class TreeScatterv(_Tree):
    """Scatterv down the tree (module docstring)."""

    def run(self, value):
        if self.parent is None:
            buffer = self._packed(value)
        else:
            buffer = np.empty(self.volume)
            self.comm.Recv(buffer, source=self.parent, tag=_DATA)
        for child, part in self.slices:
            self.comm.Send(buffer[part], dest=child, tag=_DATA)
        return buffer[:self.blocks[self.rank]].copy()


class TreeGatherv(_Tree):
    """Gatherv up the tree (module docstring)."""

    def run(self, value):
        buffer = np.empty(self.volume)
        buffer[:self.blocks[self.rank]] = value
        for child, part in self.slices:
            self.comm.Recv(buffer[part], source=child, tag=_DATA)
        if self.parent is not None:
            self.comm.Send(buffer, dest=self.parent, tag=_DATA)
            return None
        return self._unpacked(buffer)


class MpiScatterv(VCollective):
    """``MPI_Scatterv`` itself, the baseline."""

    def run(self, value):
        from mpi4py import MPI

        block = np.empty(self.blocks[self.rank])
        send = ([value, self.blocks, self.offsets[:-1].tolist(), MPI.DOUBLE]
                if self.rank == self.root else None)
        self.comm.Scatterv(send, block, root=self.root)
        return block


class MpiGatherv(VCollective):
    """``MPI_Gatherv`` itself, the baseline."""

    def run(self, value):
        from mpi4py import MPI

        out = np.empty(self.offsets[-1]) if self.rank == self.root else None
        receive = ([out, self.blocks, self.offsets[:-1].tolist(), MPI.DOUBLE]
                   if self.rank == self.root else None)
        self.comm.Gatherv(value, receive, root=self.root)
        return out
