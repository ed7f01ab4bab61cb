"""The hidden-information contract, checked.

``decide`` for a seat may read public values, the seat's own secrets, and the table's face-down
cards (secrets owned by nobody, dealt by the engine's randomness).  It must never read a secret
owned only by other seats: in a trust mode that keeps secrets from other copies, the acting
seat's copy does not hold it.  The check re-runs every decision a game makes on the state as the
deciding seat's copy would hold it (``held_by``) and requires the same events.
"""

from __future__ import annotations

import attrs

from .._errors import BoardstateError
from .._game import Game
from .._secrets import Secret, committed_form
from ._play import players_for, random_game


class ContractBroken(AssertionError):
    """A module's ``decide`` read a secret the deciding seat's copy does not hold."""


class Withheld(Secret):
    """A secret the deciding seat's copy does not hold.  Its commitment and owners are public;
    reading its value is the contract broken, and says so at once (a sealed secret would only
    read as UNKNOWN, and a rule comparing UNKNOWN could still give the same events by chance)."""

    __slots__ = ()

    @property
    def value(self):
        raise ContractBroken(f"read the value of a secret owned by seats {self.owners:#b} only")

    @property
    def known(self) -> bool:
        return False

    def sealed(self) -> Secret:
        return Secret(self.commitment, self.owners)

    def __eq__(self, other):
        return isinstance(other, Secret) and (other.commitment, other.owners) == (
            self.commitment,
            self.owners,
        )

    def __hash__(self):
        return hash((self.commitment, self.owners))


def _withheld(secret: Secret) -> Withheld:
    out = object.__new__(Withheld)
    for name in ("commitment", "owners", "salt"):
        Secret.__dict__[name].__set__(out, getattr(secret, name) if name != "salt" else None)
    return out


def held_by(value, seat: int):
    """``value`` (a state, or anything in one) as ``seat``'s copy holds it: every secret owned
    by other seats only is withheld (reading its value raises ``ContractBroken``).  Unchanged
    parts are returned as they are."""
    kind = type(value)
    if kind is Secret:
        if value.owners == 0 or value.owned_by(seat) or not value.known:
            return value
        return _withheld(value)
    if isinstance(value, tuple):
        items = [held_by(v, seat) for v in value]
        if all(a is b for a, b in zip(items, value)):
            return value
        return kind._make(items) if hasattr(kind, "_make") else kind(items)
    if isinstance(value, dict):
        items = {k: held_by(v, seat) for k, v in value.items()}
        return value if all(items[k] is v for k, v in value.items()) else kind(items)
    if attrs.has(kind):
        changes = {}
        for field in attrs.fields(kind):
            old = getattr(value, field.name)
            new = held_by(old, seat)
            if new is not old:
                changes[field.name] = new
        if not changes:
            return value
        copy = object.__new__(kind)
        for field in attrs.fields(kind):
            object.__setattr__(
                copy, field.name, changes.get(field.name, getattr(value, field.name))
            )
        return copy
    return value


def _events_form(events) -> tuple:
    return tuple(
        (type(e).__event_name__, committed_form(type(e).__event_fields__(e))) for e in events
    )


class _Checking:
    """Stands in for a game's ``Decider``: every decision is re-run as the deciding seat's
    copy would make it, and must give the same events."""

    def __init__(self, game: Game, found: list) -> None:
        self._game = game
        self._inner = game.decider
        self._found = found

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def decide(self, state, moves, rng, openings=None):
        events, after = self._inner.decide(state, moves, rng, openings)
        game = self._game
        seat = moves[0][0] if len(moves) == 1 else game.to_act()[0]
        stream = rng._stream
        replay = type(rng)(rng._key, stream)
        try:
            mine, _ = self._inner.decide(held_by(state, seat), moves, replay, openings)
        except (ContractBroken, BoardstateError, TypeError, ValueError, LookupError) as exc:
            raise ContractBroken(
                f"{game.module.spec.id}: record {game.seq}: deciding "
                f"{[(game.players[s], m) for s, m in moves]} needs a secret "
                f"{game.players[seat]}'s copy does not hold ({type(exc).__name__}: {exc})"
            ) from None
        if _events_form(mine) != _events_form(events):
            raise ContractBroken(
                f"{game.module.spec.id}: record {game.seq}: deciding "
                f"{[(game.players[s], m) for s, m in moves]} gives other events on "
                f"{game.players[seat]}'s copy than on a copy that holds every secret"
            )
        self._found.append(seat)
        return events, after


def check_hidden_information(module, seeds=range(20), *, options=None) -> int:
    """Play random games; every decision must come out the same on the deciding seat's copy.
    Returns how many decisions were checked (raises ContractBroken on the first that differs)."""
    found: list = []

    class CheckedGame(Game):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self.decider = _Checking(self, found)

    for seed in seeds:
        players = players_for(module, seed, options or {})
        random_game(module, seed, players, options=options, game_class=CheckedGame)
    return len(found)
