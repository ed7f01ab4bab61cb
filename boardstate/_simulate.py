"""The fast path: decide + evolve on states, no log, no hashing — for bots and simulations."""

from __future__ import annotations

import hashlib
import hmac
import random

from ._decider import Decider
from ._module import HIDDEN, Choice
from ._rng import FastRng
from ._secrets import Reveal, Secret
from ._table import Table
from .rules._fold import handlers_of
from .rules._memo import IdentityMemo


def random_playout(
    module,
    players,
    raw_options=None,
    seed: bytes = b"",
    bot_seed: int = 0,
    *,
    max_actions: int = 1_000_000,
):
    """Play one game to the end with uniformly random legal commands.

    Returns ``(final_state, outcome, actions)``; ``actions`` counts one per seat per command.
    A face-down choice is decided on ``HIDDEN`` and turned over when the rules ask, as in play.
    The same ``seed`` and ``bot_seed`` play the same game (``PlayoutRng``).
    """
    decider = Decider(module)
    players = tuple(players)
    options = decider.options(dict(raw_options or {}), players)
    rng = PlayoutRng(seed, b"fast")
    state = decider.start(decider.initial(options, players, module.spec.revision), rng)[1]
    bot = random.Random(bot_seed)
    pick, below = bot.choice, bot.randrange  # (choice(seq) is seq[randrange(len(seq))])
    legal, to_act, outcome = decider.legal, decider.to_act, decider.outcome
    legal_pick = getattr(module.rules, "legal_pick", None)  # the same pick, the list not made
    choice = getattr(module.rules, "choice", None)
    decide_into = module.rules.decide
    table = PlayoutTable(state, decider.evolve, rng)  # one table for the game: no log is kept
    face_down: dict = {}
    actions = 0
    in_the_open, face_down_, turn_over = Choice.OPEN, Choice.FACE_DOWN, Choice.TURN_OVER
    while (result := outcome(state)) is None:
        how = in_the_open if choice is None else choice(state)
        seats = to_act(state)
        if how < face_down_:  # in the open, or sealed (the fast path sees all at once)
            if len(seats) == 1:
                seat = seats[0]
                if legal_pick is None:
                    moves = ((seat, pick(legal(state, seat))),)
                else:
                    moves = ((seat, legal_pick(state, seat, below)),)
            else:
                moves = tuple([(seat, pick(legal(state, seat))) for seat in seats])
        elif how == face_down_:
            (seat,) = seats
            face_down[seat] = pick(legal(state, seat))
            moves = ((seat, HIDDEN),)
        elif how == turn_over:
            (seat,) = seats
            moves = ((seat, face_down.pop(seat)),)
        actions += len(moves)
        decide_into(table, moves)  # (the table holds ``state``: it made it)
        state = table.state
        if actions > max_actions:
            raise RuntimeError("the game did not end")
    return state, result, actions


class PlayoutRng(FastRng):
    """``FastRng`` made cheaper for ``random_playout``, which keeps no record and is no bot's:
    its numbers come from Python's Mersenne Twister seeded with HMAC-SHA256(seed, stream) (the
    same seed plays the same game; one HMAC a game, not one a number), and each secret of an
    int (no salt, no commitment: an immutable value) is made once per value and owners and
    shared by all playouts.  Bots keep ``FastRng``: their seeded games are pinned by tests."""

    __slots__ = ("_below", "_bits", "_shuffle")

    def __init__(self, seed: bytes, stream: bytes) -> None:
        super().__init__(seed, stream)
        twister = random.Random(hmac.digest(seed, stream, hashlib.sha256))
        self._below = twister.randrange
        self._bits = twister.getrandbits
        self._shuffle = twister.shuffle

    def block(self) -> bytes:
        return self._bits(256).to_bytes(32, "big")

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        return self._below(n)

    def shuffled(self, items) -> tuple:
        out = list(items)
        self._shuffle(out)  # (Fisher-Yates too: ``random.shuffle``)
        return tuple(out)

    def secret(self, value, owners: int = 0) -> Secret:
        if type(value) is not int:  # (cards are ints; 1 and True must not share one)
            return FastRng.secret(self, value, owners)
        key = (value, owners)
        made = _SECRETS.get(key)
        if made is None:
            if len(_SECRETS) >= _KEPT:
                _SECRETS.clear()
            made = _SECRETS[key] = FastRng.secret(self, value, owners)
        return made


_SECRETS: dict = {}  # (value, owners) -> the fast path's Secret: shared by every playout
_KEPT = 1 << 12  # entries of each table at most (then it starts again): a game's cards fit


class Unrecorded(Table):
    """A table that folds events without keeping them (the fast path keeps no log).  With a
    ``Fold``'s evolve it calls the event's handler itself (``handlers_of``): one call fewer
    an event, the same fold.  The bots' searches play on it (``bots._sim``)."""

    __slots__ = ("_handler_of",)

    def __init__(self, state, evolve, rng) -> None:
        super().__init__(state, evolve, rng)
        handlers = handlers_of(evolve)
        self._handler_of = _Every(evolve) if handlers is None else handlers

    def emit(self, event) -> None:
        self.state = self._handler_of[type(event)](self.state, event)


class PlayoutTable(Unrecorded):
    """``Unrecorded`` for random playouts, whose secrets are shared (``PlayoutRng``): a secret
    this copy holds is turned over once and its reveal kept (a pure function of it)."""

    __slots__ = ()

    def reveal(self, secret: Secret) -> Reveal:
        shown = _REVEALS.get(secret)
        if shown is None:
            shown = Table.reveal(self, secret)
            if secret.known:
                _REVEALS.keep(secret, shown)
        return shown


class _Every(dict):
    """The handler of every event type: a module's own ``evolve`` (one not made by a Fold),
    kept for each type met (then a plain lookup, not ``__missing__``'s call, for every event)."""

    def __init__(self, evolve) -> None:
        super().__init__()
        self.evolve = evolve

    def __missing__(self, event_type):
        self[event_type] = evolve = self.evolve
        return evolve


_REVEALS = IdentityMemo(_KEPT)  # a secret -> its reveal: shared by every playout
