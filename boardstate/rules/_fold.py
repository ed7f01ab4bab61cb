"""``Fold``: a module's ``evolve`` as a table of handlers, one per event type.

A module states how each event changes the state once, beside the others::

    FOLD = Fold(EVENTS)


    @FOLD.on(CardPlayed)
    def _played(s: State, e: CardPlayed) -> State:
        return s._replace(hand=s.hand[: e.pos] + s.hand[e.pos + 1 :])


    evolve = FOLD.evolver()  # after the last handler: every event of EVENTS has one

The dispatch is one dict lookup on the event's exact type (events are final attrs classes, so
there is no subclass to find). ``functools.singledispatch`` would do the same job; it walks the
method resolution order through a cache on every call and is measurably slower in the fold,
which runs for every event of every replay and self-play.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from types import MappingProxyType
from typing import Any

Handler = Callable[[Any, Any], Any]


class Fold:
    """The handlers of one module's events; ``evolver()`` makes its ``evolve(state, event)``."""

    __slots__ = ("events", "_handlers")

    def __init__(self, events: Iterable[type]) -> None:
        self.events: tuple[type, ...] = tuple(events)
        self._handlers: dict[type, Handler] = {}

    def on(self, *types: type) -> Callable[[Handler], Handler]:
        """Register the decorated ``handler(state, event) -> state`` for each of ``types``
        (several types: events that change the state alike, e.g. not at all)."""
        if not types:
            raise TypeError("Fold.on needs at least one event type")
        for t in types:
            if t not in self.events:
                raise TypeError(f"{t.__name__} is not one of this fold's events")
            if t in self._handlers:
                raise TypeError(f"{t.__name__} has a handler already")

        def register(handler: Handler) -> Handler:
            for t in types:
                self._handlers[t] = handler
            return handler

        return register

    def missing(self) -> tuple[type, ...]:
        """The events that have no handler yet, in the order of ``events``."""
        return tuple(t for t in self.events if t not in self._handlers)

    def evolver(self) -> Callable[[Any, Any], Any]:
        """``evolve(state, event)``: the handler of ``type(event)`` applied.  Every event must
        have its handler by now (a file may hold any of them): otherwise ``TypeError``.
        ``handlers_of(evolve)`` gives its handlers, for a table that folds many events
        (``random_playout``'s) to call them without the extra call ``evolve`` is."""
        missing = self.missing()
        if missing:
            names = ", ".join(t.__name__ for t in missing)
            raise TypeError(f"no handler for {names}: every event needs one (Fold.on)")
        evolve = _evolve_by(self._handlers)
        evolve.__module__ = sys._getframe(1).f_globals.get("__name__", __name__)
        evolve.__doc__ = "Apply one event to the state (pure): its handler in the module's Fold."
        return evolve

    def __repr__(self) -> str:
        return f"Fold({len(self._handlers)} of {len(self.events)} events handled)"


def _evolve_by(handlers: dict[type, Handler]) -> Callable[[Any, Any], Any]:
    def evolve(state, event):
        return handlers[type(event)](state, event)

    evolve.by_event_type = MappingProxyType(handlers)  # (read by ``handlers_of``)
    return evolve


_FOLDING = _evolve_by({}).__code__  # (what every evolve ``Fold.evolver`` makes runs)


def handlers_of(evolve) -> MappingProxyType | None:
    """The handlers, by event type, of an ``evolve`` that ``Fold.evolver`` made (read-only);
    None for any other function.  Known by the code it runs, not by its attributes: a function
    that wraps it (``functools.wraps`` copies them) must be called, not skipped."""
    if getattr(evolve, "__code__", None) is not _FOLDING:
        return None
    return getattr(evolve, "by_event_type", None)
