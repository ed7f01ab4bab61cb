"""The table under construction: what ``decide`` and ``start`` emit events into.

``Table.emit`` appends an event and folds it with the module's ``evolve`` at once, so every step of
a rule sees the table it has made, and the engine receives the events together with the state
after them: the fold is written once, in ``evolve``.
"""

from __future__ import annotations

from ._errors import SecretUnavailable
from ._secrets import UNKNOWN, Reveal, Secret, reveal


class Table:
    """``state`` (the table as it stands), ``events`` (what made it so far), ``rng``."""

    __slots__ = ("state", "events", "rng", "_evolve", "_openings")

    def __init__(self, state, evolve, rng, openings=None) -> None:
        self.state = state
        self.events: list = []
        self.rng = rng
        self._evolve = evolve
        self._openings = openings  # commitment -> Reveal: openings the record itself brings

    def emit(self, event) -> None:
        """Record ``event`` and fold it into ``state``."""
        self.events.append(event)
        self.state = self._evolve(self.state, event)

    def opened(self, secret: Secret):
        """The value of ``secret`` if this copy holds it, or if the record being re-derived
        turns it face up (its reveal, checked against the commitment); else ``UNKNOWN``.  So a
        rule that finds a card by its value in a hand this copy cannot read (a card played, by
        another player's copy) finds the one the record turns over."""
        if secret.known:
            return secret.value
        opening = self._openings.get(secret.commitment) if self._openings else None
        return UNKNOWN if opening is None else opening.value

    def reveal(self, secret: Secret) -> Reveal:
        """Turn ``secret`` face up in public.

        The opening comes from this copy (its own secrets, and what the engine's randomness
        dealt) or, when the referee re-derives another copy's record, from that record's own
        reveal, checked against the commitment.  Anything else: ``SecretUnavailable``.
        """
        if secret.known:
            return reveal(secret)
        opening = self._openings.get(secret.commitment) if self._openings else None
        if opening is None:
            raise SecretUnavailable(
                "this copy of the game does not hold that secret", code="no-opening"
            )
        return opening
