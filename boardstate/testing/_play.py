"""Driving a module in tests: set-up states, the engine's own checks, random games."""

from __future__ import annotations

import random
from functools import lru_cache

from .._decider import Decider as _Decider
from .._game import Game
from .._rng import Rng

CREATED = "2026-01-01T00:00:00+00:00"


@lru_cache(maxsize=16)
def Decider(module) -> _Decider:
    return _Decider(module)


NAMES = ("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal")


def player_names(n: int) -> list[str]:
    return list(NAMES[:n])


def checked_options(module, raw=None, players=("ann", "ben")) -> dict:
    """The options the engine stores for ``raw`` (checked against the spec, then prepared)."""
    return Decider(module).options(dict(raw or {}), tuple(players))


def initial_state(module, players=("ann", "ben"), raw_options=None, *, revision=None):
    """The state before the setup (``initial``), under the newest revision unless given."""
    decider = Decider(module)
    players = tuple(players)
    options = decider.options(dict(raw_options or {}), players)
    return decider.initial(options, players, revision or module.spec.revision)


def decide(
    module, state, moves, seed: bytes = b"test", stream: bytes = b"record:1", openings=None
) -> tuple:
    """``(events, state after them)`` as the engine gets them from the module."""
    return Decider(module).decide(state, tuple(moves), Rng(seed, stream), openings)


def start(module, state, seed: bytes = b"test") -> tuple:
    """``(events, state after them)`` of the setup."""
    return Decider(module).start(state, Rng(seed, b"record:0"))


def validate(module, state, seat: int, command) -> None:
    """The engine's check of a command from a seat that acts now (raises IllegalCommand)."""
    Decider(module).validate(state, seat, command)


def players_for(module, seed: int, options) -> int:
    """A player count the options accept (some are for some counts only, as a team game for 4
    or 6): the seed's count (as ``random_game`` picks it) if it will do, else the next one."""
    from .._errors import OptionError

    spec = module.spec
    counts = range(spec.min_players, spec.max_players + 1)
    first = seed % len(counts)
    for k in range(len(counts)):
        n = counts[(first + k) % len(counts)]
        try:
            checked_options(module, options, player_names(n))
        except OptionError:
            continue
        return n
    return counts[first]  # (none does: the game's own refusal will say why)


def random_game(
    module,
    seed: int,
    players: int | None = None,
    *,
    options=None,
    stop_after: int | None = None,
    check_each=None,
    game_class=Game,
) -> Game:
    """Play a game through the full engine (records, commitments) with random legal commands.

    ``check_each(game)`` runs before every command; ``stop_after`` ends the game early.
    """
    spec = module.spec
    n = players or spec.min_players + seed % (spec.max_players - spec.min_players + 1)
    game = game_class.new(
        module, player_names(n), options or {}, seed=b"conformance-%d" % seed, created=CREATED
    )
    pick = random.Random(seed)
    steps = 0
    while game.outcome() is None:
        seats = game.to_act()
        if not seats:
            raise AssertionError("no one to act but the game is not over")
        seat = pick.choice(seats)
        commands = game.legal(seat)
        if not commands:
            raise AssertionError(f"{game.players[seat]} must act but has no legal command")
        if check_each is not None:
            check_each(game)
        game.play(seat, pick.choice(commands), entropy=pick.randbytes)
        steps += 1
        if steps >= 20000:
            raise AssertionError("the game does not end")
        if stop_after is not None and steps >= stop_after:
            break
    return game
