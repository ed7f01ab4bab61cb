"""Answers kept by the very value asked about, for hot paths (``IdentityMemo``).

A playout or a turn asks the same question of the same immutable value (a secret, a hand, a
pile: the very same tuple from state to state until it changes) again and again.  Finding the
answer by the value's ``id`` costs one dict lookup whatever the value's size, where hashing a
tuple of secrets walks it every time.  The value is kept too, beside its answer, so that its
id stays its own while the answer is kept: an object's id is reused only once it is gone, so
an id found is the very value's (an equal value that is another object is asked again), and
the lookup is one ``dict.get``, with no check after it.
"""

from __future__ import annotations


class IdentityMemo:
    """At most ``bound`` answers, each kept by its value's identity; full, it starts again.

    ``get(value)`` is the answer kept for that very object, or None; ``keep(value, answer)``
    keeps it and returns it.  An answer is never None (None says "not kept").  One thread at
    a time: an answer and its value are set one after the other, so a clear by another thread
    in between could leave an answer whose value is let go and its id reused (the engine's
    playouts, bots and judge each run in one thread; batches in processes)."""

    __slots__ = ("_answers", "_held", "bound")

    def __init__(self, bound: int) -> None:
        if bound < 1:
            raise ValueError("an IdentityMemo keeps at least one answer")
        self._answers: dict = {}  # id(value) -> its answer
        self._held: dict = {}  # id(value) -> the value (alive: its id not reused)
        self.bound = bound

    def get(self, value):
        return self._answers.get(id(value))

    def keep(self, value, answer):
        answers, held = self._answers, self._held
        if len(answers) >= self.bound:
            answers.clear()
            held.clear()
        answers[id(value)] = answer
        held[id(value)] = value
        return answer

    def __len__(self) -> int:
        return len(self._answers)
