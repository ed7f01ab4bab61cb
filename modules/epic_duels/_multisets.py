"""Choices of several cards from a hand: the list (``multisets``), and the same list as a
sequence that is counted without being made (``Multisets``), for a random pick that needs only
the list's length and one item of it."""

from __future__ import annotations

from itertools import combinations


def multisets(values: tuple, n: int) -> list:
    """The distinct ways to choose ``n`` of ``values`` (cards as sorted tuples)."""
    return sorted(set(combinations(sorted(values), n)))


def multiset_count(values, n: int) -> int:
    """``len(multisets(values, n))``, counted from how many of each value there are: the
    ``x**n`` term of the product of ``1 + x + ... + x**m`` over the values (``m`` copies of
    one); one or two of a hand, the usual asks, directly (tests/test_epic_duels_multisets.py
    holds the count equal to the list's length)."""
    if n <= 1:
        return 1 if n == 0 else len(set(values))
    if n == 2:
        kinds = len(set(values))
        ordered = sorted(values)
        twice = len({a for a, b in zip(ordered, ordered[1:]) if a == b})
        return kinds * (kinds - 1) // 2 + twice
    copies: dict = {}
    for v in values:
        copies[v] = copies.get(v, 0) + 1
    ways = [1] + [0] * n
    for m in copies.values():
        for j in range(n, 0, -1):  # (descending: ways[j - k] is still the old term)
            ways[j] += sum(ways[max(0, j - m) : j])
    return ways[n]


class Multisets:
    """``multisets(values, n)`` as a sequence, each choice as ``head + (choice,)`` if a
    ``head`` is given (the command it completes): its length counted (``multiset_count``), the
    list made only when an item is asked for."""

    __slots__ = ("values", "n", "head", "_size", "_made")

    def __init__(self, values, n: int, head: tuple | None = None) -> None:
        self.values, self.n, self.head = values, n, head
        self._size = self._made = None

    def __len__(self) -> int:
        if self._size is None:
            self._size = multiset_count(self.values, self.n)
        return self._size

    def _list(self) -> list:
        if self._made is None:
            made = multisets(self.values, self.n)
            head = self.head
            self._made = made if head is None else [(*head, m) for m in made]
        return self._made

    def __getitem__(self, i: int):
        return self._list()[i]

    def __iter__(self):
        return iter(self._list())
