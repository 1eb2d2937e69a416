"""Scenarios: the operation a platform file proposes, or the roles a caller gives instead.

A platform file may hold a default ``"scatter"``, ``"gather"`` and ``"reduce"``
scenario (:mod:`hetcoll.core.platform`).  :func:`resolve_operation` turns a kind,
the roles given by a caller (the command line, a script) and optional per-process
message sizes into a typed operation, falling back on the file's scenario when no
role is given; :func:`default_operations` gives every scenario of a file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hetcoll.core.errors import InputError
from hetcoll.core.platform import Platform
from hetcoll.lp.operations import OPERATION_KINDS, Operation, operation_from_roles

__all__ = ["SCENARIO_ROLES", "default_operations", "resolve_operation", "scenario_roles"]

#: The two roles of each kind of scenario, in the order the operations take them.
SCENARIO_ROLES: dict[str, tuple[str, str]] = {kind: cls.roles
                                              for kind, cls in OPERATION_KINDS.items()}


def scenario_roles(platform: Any, kind: str, given: Mapping[str, Any] | None = None, *,
                   labels: Mapping[str, str] | None = None,
                   where: str = "the platform") -> tuple[Any, Any]:
    """The two roles of a ``kind`` scenario: those ``given``, else the platform file's.

    Parameters
    ----------
    platform : Platform
        Only its default scenario of ``kind`` is read.
    kind : {"scatter", "gather", "reduce"}
    given : mapping role -> value or None, optional
        Roles given by the caller (``{"source": "S", "targets": ["A"]}``); None values
        are missing.  Give both roles or neither.
    labels : mapping role -> str, optional
        How error messages call each role (e.g. ``{"source": "--source"}``).
    where : str
        How error messages call the platform (e.g. its file name).

    Returns
    -------
    tuple
        The roles in :data:`SCENARIO_ROLES` order.

    Raises
    ------
    InputError
        If only one role is given, or none and the platform has no scenario of ``kind``.

    Examples
    --------
    >>> from hetcoll.lp import read_platform
    >>> p = read_platform("examples/two_processor.json")
    >>> scenario_roles(p, "reduce")
    (['P0', 'P1'], 'P0')
    >>> scenario_roles(p, "gather", {"sources": ["P1"], "target": "P0"})
    (['P1'], 'P0')
    """
    if kind not in SCENARIO_ROLES:
        raise InputError(f"unknown scenario kind {kind!r} (expected one of "
                         f"{', '.join(SCENARIO_ROLES)})")
    roles = SCENARIO_ROLES[kind]
    label = {role: (labels or {}).get(role, role) for role in roles}
    values = [(given or {}).get(role) for role in roles]
    if all(value is None for value in values):
        defaults = getattr(platform, f"{kind}_defaults", None)
        if defaults is None:
            raise InputError(f"{where} has no default {kind} scenario: give "
                             f"{label[roles[0]]} and {label[roles[1]]}")
        return defaults[roles[0]], defaults[roles[1]]
    for value, role, other in zip(values, roles, roles[::-1], strict=True):
        if value is None:
            raise InputError(f"{label[role]} is required with {label[other]}")
    return values[0], values[1]


def resolve_operation(platform: Platform, kind: str, given: Mapping[str, Any] | None = None,
                      sizes: Mapping[str, object] | None = None, *,
                      labels: Mapping[str, str] | None = None,
                      where: str = "the platform") -> Operation:
    """The typed operation of a ``kind`` scenario (roles as :func:`scenario_roles`).

    Parameters
    ----------
    platform : Platform
    kind : {"scatter", "gather", "reduce"}
    given : mapping role -> value or None, optional
        Roles given by the caller; without them, the platform file's scenario.
    sizes : mapping process -> number, optional
        Per-process message sizes (scatter, gather); they replace the scenario's
        ``"sizes"``.  Unnamed processes get 1.
    labels, where : as :func:`scenario_roles`

    Returns
    -------
    Scatter, Gather or Reduce
        Not yet checked against the platform's links (the solver does that).

    Raises
    ------
    InputError
        As :func:`scenario_roles`, and for sizes given to a reduce, a size for a
        process that is not a target (source), or a size that is not positive.

    Examples
    --------
    >>> from hetcoll.lp import read_platform
    >>> p = read_platform("examples/two_processor.json")
    >>> resolve_operation(p, "scatter", sizes={"P1": "1/2"}).message_sizes
    {'P1': Fraction(1, 2)}
    """
    first, second = scenario_roles(platform, kind, given, labels=labels, where=where)
    if sizes is None and all(value is None for value in (given or {}).values()):
        sizes = (getattr(platform, f"{kind}_defaults", None) or {}).get("sizes")
    return operation_from_roles(kind, first, second, sizes)


def default_operations(platform: Platform) -> dict[str, Operation]:
    """Every scenario of the platform file, as operations keyed by kind.

    Examples
    --------
    >>> from hetcoll.lp import read_platform
    >>> sorted(default_operations(read_platform("examples/two_processor.json")))
    ['gather', 'reduce', 'scatter']
    """
    return {kind: resolve_operation(platform, kind) for kind in SCENARIO_ROLES
            if platform.scenario(kind) is not None}
