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
        kinds, twice = _kinds_and_twice(values)
        return len(kinds) * (len(kinds) - 1) // 2 + len(twice)
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
    ``head`` is given (the command it completes): its length counted (``multiset_count``); an
    item of one or two cards made alone (``_nth_of_few``), the list only when another is asked
    for."""

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
        if self.n <= 2 and self._made is None and type(i) is int and 0 <= i < len(self):
            # (the usual asks: the one item made alone; a slice, from the list)
            made = _nth_of_few(self.values, self.n, i)
            return made if self.head is None else (*self.head, made)
        return self._list()[i]

    def __iter__(self):
        return iter(self._list())

    def __contains__(self, item) -> bool:
        """``item in list(self)``, the list not made: ``n`` whole-number values, ascending, each
        held by ``values`` as often as the choice names it (after the ``head``); anything else
        by the list, as ``in`` compares (the referee asks of one ``draw 2``)."""
        choice, head = item, self.head
        if head is not None:
            if type(item) is not tuple or len(item) != len(head) + 1:
                return item in self._list()
            if item[:-1] != head:
                return False
            choice = item[-1]
        if type(choice) is not tuple or len(choice) != self.n:
            return item in self._list()
        for v in choice:
            if type(v) is not int:
                return item in self._list()
        values = self.values
        return list(choice) == sorted(choice) and all(
            values.count(v) >= choice.count(v) for v in choice
        )


def _nth_of_few(values, n: int, i: int) -> tuple:
    """``multisets(values, n)[i]`` for ``n`` up to 2, the list not made: one card is the
    ``i``-th distinct value; two are, value by value ascending, the value twice (if held
    twice) and then the value with each greater one."""
    if n == 0:
        return ()
    if n == 1:
        return (sorted(set(values))[i],)
    kinds, twice = _kinds_and_twice(values)
    for k, a in enumerate(kinds):
        if a in twice:
            if i == 0:
                return (a, a)
            i -= 1
        greater = len(kinds) - 1 - k
        if i < greater:
            return (a, kinds[k + 1 + i])
        i -= greater
    raise IndexError("the choice is past the last")  # (the caller checked: not reached)


def _kinds_and_twice(values) -> tuple[list, set]:
    """The distinct values ascending, and those held at least twice (the pairs' parts)."""
    ordered = sorted(values)
    return sorted(set(ordered)), {a for a, b in zip(ordered, ordered[1:]) if a == b}
