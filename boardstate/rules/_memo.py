"""Answers kept by the very value asked about, for hot paths (``IdentityMemo``).

A playout or a turn asks the same question of the same immutable value (a secret, a hand, a
pile: the very same tuple from state to state until it changes) again and again.  Finding the
answer by the value's ``id`` costs one dict lookup whatever the value's size, where hashing a
tuple of secrets walks it every time.  The value is kept beside its answer so that its id stays
its own while the answer is kept (an object's id is reused only once it is gone), and a hit is
checked with ``is``: an equal value that is another object is asked again.
"""

from __future__ import annotations


class IdentityMemo:
    """At most ``bound`` answers, each kept by its value's identity; full, it starts again.

    ``get(value)`` is the answer kept for that very object, or None; ``keep(value, answer)``
    keeps it and returns it.  An answer is never None (None says "not kept")."""

    __slots__ = ("_kept", "bound")

    def __init__(self, bound: int) -> None:
        if bound < 1:
            raise ValueError("an IdentityMemo keeps at least one answer")
        self._kept: dict = {}  # id(value) -> (value, answer)
        self.bound = bound

    def get(self, value):
        kept = self._kept.get(id(value))
        if kept is not None and kept[0] is value:
            return kept[1]
        return None

    def keep(self, value, answer):
        kept = self._kept
        if len(kept) >= self.bound:
            kept.clear()
        kept[id(value)] = (value, answer)
        return answer

    def __len__(self) -> int:
        return len(self._kept)
