"""The static reduction trees: Binomial-stat and Fibonacci-stat.

A static tree is given as ``children[r]``: the processors P_r receives from,
in the order it receives them.  In both trees a receiver always holds the
interval just left of what it receives, so they are safe for non-commutative
operators (RR 8315, section 3.2: "only neighboring partial values are
reduced").
"""

from __future__ import annotations

from hetcoll.core.errors import InputError

__all__ = ["binomial_tree", "fibonacci_number", "fibonacci_order", "fibonacci_tree"]


def _check_n(n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InputError(f"number of processors n must be a positive integer, got {n!r}")
    return n


def binomial_tree(n: int) -> list[list[int]]:
    """Children of each processor in Binomial-stat, in reception order.

    In round k = 1, ..., ceil(log2 n), P_(i 2^k + 2^(k-1)) sends to P_(i 2^k).

    Parameters
    ----------
    n : int
        Number of processors.

    Returns
    -------
    list of list of int
        ``children[r]`` lists the senders of P_r by round.

    Raises
    ------
    InputError
        If ``n`` is not a positive integer.

    Examples
    --------
    >>> binomial_tree(6)
    [[1, 2, 4], [], [3], [], [5], []]

    References
    ----------
    Benoit, Canon, Marchal, RR 8315, section 3.2 and Figure 2(a).
    """
    n = _check_n(n)
    children: list[list[int]] = [[] for _ in range(n)]
    half = 1
    while half < n:
        for receiver in range(0, n - half, 2 * half):
            children[receiver].append(receiver + half)
        half *= 2
    return children


def fibonacci_number(k: int) -> int:
    """F_k with F_0 = 0 and F_1 = F_2 = 1."""
    a, b = 0, 1
    for _ in range(k):
        a, b = b, a + b
    return a


def fibonacci_order(n: int) -> int:
    """Smallest order k >= 0 with F_(k+2) >= n: the order Fibonacci-stat uses for n.

    Parameters
    ----------
    n : int
        Number of processors, at least 1.

    Returns
    -------
    int
        The order k (F_1 = F_2 = 1).

    Raises
    ------
    InputError
        If ``n`` is not an integer >= 1.

    References
    ----------
    Benoit, Canon, Marchal, RR 8315, section 3.2 (Fibonacci-stat: FS_k uses
    F_(k+2) processors; other n use the smallest such k, truncated).

    Examples
    --------
    >>> [fibonacci_order(n) for n in (1, 2, 3, 4, 5, 8, 9)]
    [0, 1, 2, 3, 3, 4, 5]
    """
    n = _check_n(n)
    k = 0
    while fibonacci_number(k + 2) < n:
        k += 1
    return k


def fibonacci_tree(n: int, order: int | None = None) -> list[list[int]]:
    """Children of each processor in Fibonacci-stat of ``order``, truncated to n.

    FS_k runs FS_(k-1) on the first F_(k+1) processors and FS_(k-2) on the next
    F_k in parallel; then the root of FS_(k-2) sends to the root of FS_(k-1)
    (P_0 of the block), which computes the last reduction.  FS_0 and FS_(-1)
    are one processor.  For n < F_(k+2), only the operations between the first
    n processors are kept.

    Parameters
    ----------
    n : int
        Number of processors.
    order : int, optional
        The order k; by default :func:`fibonacci_order` (n).  Needs F_(k+2) >= n.

    Returns
    -------
    list of list of int
        ``children[r]`` in reception order.

    Raises
    ------
    InputError
        If ``order`` is too small for ``n`` or negative.

    Examples
    --------
    >>> fibonacci_tree(8)
    [[1, 2, 3, 5], [], [], [4], [], [6, 7], [], []]

    References
    ----------
    Benoit, Canon, Marchal, RR 8315, section 3.2 and Figure 2(b).
    """
    n = _check_n(n)
    if order is None:
        order = fibonacci_order(n)
    if isinstance(order, bool) or not isinstance(order, int) or order < 0:
        raise InputError(f"fibonacci_order must be a non-negative integer, got {order!r}")
    if fibonacci_number(order + 2) < n:
        raise InputError(f"fibonacci_order {order} covers only {fibonacci_number(order + 2)} "
                         f"processors, fewer than n = {n}")
    children: list[list[int]] = [[] for _ in range(n)]
    # Explicit stack instead of recursion: orders near 90 cover 10^18 processors,
    # but only blocks that start below n are visited.
    stack = [(order, 0)]
    visits = []
    while stack:
        k, offset = stack.pop()
        if k <= 0 or offset >= n:
            continue
        visits.append((k, offset))
        stack.append((k - 2, offset + fibonacci_number(k + 1)))
        stack.append((k - 1, offset))
    # The root hears FS_(k-1)'s own children before FS_(k-2)'s root: smaller
    # orders first at each offset.
    for k, offset in sorted(visits, key=lambda item: (item[1], item[0])):
        child = offset + fibonacci_number(k + 1)
        if child < n:
            children[offset].append(child)
    return children
