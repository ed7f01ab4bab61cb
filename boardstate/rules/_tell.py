"""``Teller``: a module's ``tell`` as a table of handlers, one per event type it has words for.

``tell(state, events, seat)`` says what a record's events did, as ``seat`` may know it (None: a
spectator): the engine hands it the state before the record as that seat's copy holds it
(``view``) and the events as that copy holds them (a secret the seat may not know has its
value ``UNKNOWN``), so a line can name nothing the seat may not know.  Each handler gets the
state just before its event (the teller folds as it goes) and returns a line, several, or
None::

    TELL = Teller(EVENTS)


    @TELL.on(CardsDrawn)
    def _drawn(s: State, e: CardsDrawn, seat: int | None) -> str:
        if e.seat == seat:  # (the drawer's own copy holds the cards)
            return "you draw " + ", ".join(card_name(c.value) for c in e.cards)
        return f"{s.players[e.seat]} draws {plural(len(e.cards), 'card')}"


    tell = TELL.teller(evolve)  # after the last handler

``on(Type, run=True)`` hands a run of consecutive events of that type to one call, as a tuple
(several draws in one line).  An event without a handler says nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Handler = Callable[[Any, Any, Any], Any]


class Teller:
    """The words for one module's events; ``teller(evolve)`` makes its ``tell``."""

    __slots__ = ("events", "_handlers", "_runs")

    def __init__(self, events: Iterable[type]) -> None:
        self.events: tuple[type, ...] = tuple(events)
        self._handlers: dict[type, Handler] = {}
        self._runs: set[type] = set()

    def on(self, *types: type, run: bool = False) -> Callable[[Handler], Handler]:
        """Register the decorated ``handler(state, event, seat)`` for each of ``types``
        (``run``: ``handler(state, events, seat)`` for each run of consecutive events of one
        of them).  It returns a line, an iterable of lines, or None (nothing to say)."""
        if not types:
            raise TypeError("Teller.on needs at least one event type")
        for t in types:
            if t not in self.events:
                raise TypeError(f"{t.__name__} is not one of this teller's events")
            if t in self._handlers:
                raise TypeError(f"{t.__name__} has a handler already")

        def register(handler: Handler) -> Handler:
            for t in types:
                self._handlers[t] = handler
                if run:
                    self._runs.add(t)
            return handler

        return register

    def teller(self, evolve: Callable[[Any, Any], Any]) -> Callable[[Any, tuple, Any], tuple]:
        """``tell(state, events, seat) -> tuple of lines``: each event's handler called on the
        state just before it (folded with ``evolve``), the lines in the events' order."""
        handlers, runs = dict(self._handlers), frozenset(self._runs)

        def tell(state, events, seat) -> tuple:
            events = tuple(events)
            last = max((i for i, e in enumerate(events) if type(e) in handlers), default=-1)
            out: list[str] = []
            i = 0
            while i <= last:
                kind = type(events[i])
                handler = handlers.get(kind)
                end = i + 1
                if kind in runs:
                    while end < len(events) and type(events[end]) is kind:
                        end += 1
                    said = handler(state, events[i:end], seat)
                else:
                    said = handler(state, events[i], seat) if handler is not None else None
                _add(out, said)
                for event in events[i:end]:
                    state = evolve(state, event)
                i = end
            return tuple(out)

        tell.__doc__ = "What a record's events did, in words, as ``seat`` may know it."
        return tell

    def __repr__(self) -> str:
        return f"Teller({len(self._handlers)} of {len(self.events)} events told)"


def _add(out: list, said) -> None:
    if not said:
        return
    if isinstance(said, str):
        out.append(said)
    else:
        out.extend(line for line in said if line)


def words_and(names: list[str]) -> str:
    """``ann``, ``ann and ben``, ``ann, ben and cat``: names in a sentence (titles, ``<desc>``)."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def plural(n: int, word: str) -> str:
    """``1 card``, ``3 cards``: a count in words, for labels a screen reader speaks."""
    return f"{n} {word}{'' if n == 1 else 's'}"
