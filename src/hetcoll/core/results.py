"""The contract of every public result: ``status``, ``message``, ``success``, ``to_dict()``.

In the style of :class:`scipy.optimize.OptimizeResult`: a result says whether the
computation succeeded (``status`` 0) and why not (``message``), and carries its
values as attributes.  :meth:`Result.to_dict` gives JSON-ready data, with the house
rendering of numbers: an exact quantity ``x`` appears twice, as ``"x"`` (a float) and
``"x_exact"`` (the ``"p/q"`` string), see :func:`exact_pair`.  Results are plain
dataclasses, so they pickle (for joblib, multiprocessing and caching).
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Mapping
from fractions import Fraction
from pathlib import PurePath
from typing import Any

from hetcoll.core.numbers import fraction_str

__all__ = ["Result", "exact_pair", "to_jsonable"]


class Result:
    """Base of every public hetcoll result (a mixin for dataclasses).

    Subclasses are dataclasses with (at least) the fields ``status: int`` and
    ``message: str``.  ``status`` is 0 on success; each subclass documents its other
    codes.  Override :meth:`to_dict` to choose the JSON layout; the default renders
    every dataclass field through :func:`to_jsonable`.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Toy(Result):
    ...     status: int
    ...     message: str
    ...     value: Fraction
    >>> Toy(0, "ok", Fraction(1, 4)).to_dict()
    {'status': 0, 'message': 'ok', 'success': True, 'value': 0.25, 'value_exact': '1/4'}
    """

    status: int
    message: str

    @property
    def success(self) -> bool:
        """True when ``status`` is 0."""
        return self.status == 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: ``status``, ``message``, ``success``, then the fields.

        A :class:`~fractions.Fraction` field ``x`` gives ``x`` (float) and ``x_exact``
        (``"p/q"``); everything else goes through :func:`to_jsonable`.
        """
        data: dict[str, Any] = {"status": self.status, "message": self.message,
                                "success": self.success}
        for field in dataclasses.fields(self):  # type: ignore[arg-type]
            if field.name in data:
                continue
            value = getattr(self, field.name)
            if isinstance(value, Fraction):
                data |= exact_pair(field.name, value)
            else:
                data[field.name] = to_jsonable(value)
        return data


def exact_pair(name: str, value: Fraction | float | None) -> dict[str, Any]:
    """``{name: float, name_exact: "p/q"}``: the house rendering of an exact quantity.

    A float (no exact value known) gives ``name_exact: None``; so does None.

    >>> exact_pair("makespan", Fraction(7, 2))
    {'makespan': 3.5, 'makespan_exact': '7/2'}
    >>> exact_pair("makespan", 3.5)
    {'makespan': 3.5, 'makespan_exact': None}
    """
    if value is None:
        return {name: None, f"{name}_exact": None}
    if isinstance(value, Fraction):
        return {name: _float(value), f"{name}_exact": fraction_str(value)}
    return {name: _float(value), f"{name}_exact": None}


def _float(value: Any) -> float | None:
    # JSON has no inf or NaN; a Fraction too large for a double is over about 1e308.
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def to_jsonable(value: Any) -> Any:
    """Turn a value into JSON-ready data, recursively.

    Fractions become ``"p/q"`` strings; results and other objects with ``to_dict()``
    their dict; dataclasses their fields; tuples and sets lists; numpy scalars and
    arrays Python numbers and lists; paths and enums their string or value.  JSON has
    no infinity or NaN: a non-finite float becomes None (null).

    >>> to_jsonable({"x": Fraction(1, 2), ("a", "b"): (1, 2.0), "y": float("inf")})
    {'x': '1/2', "('a', 'b')": [1, 2.0], 'y': None}
    """
    if isinstance(value, Fraction):
        return fraction_str(value)
    if isinstance(value, bool) or value is None or isinstance(value, str | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_jsonable(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((to_jsonable(v) for v in value), key=str)
    if hasattr(value, "to_dict") and callable(value.to_dict):
        return to_jsonable(value.to_dict())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, PurePath):
        return str(value)
    if isinstance(value, enum.Enum):
        return to_jsonable(value.value)
    if hasattr(value, "tolist") and callable(value.tolist):  # numpy scalars and arrays
        return to_jsonable(value.tolist())
    raise TypeError(f"cannot render {type(value).__name__} as JSON")
