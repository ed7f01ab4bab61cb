"""Self-play at scale: games played through the full engine (every record made, hashed and
checkable by ``boardstate verify``) by a bot on every seat, each game fixed by the run's seed and
its number — so the same seed makes the same files in one process, in a pool or on a cluster.

A game's randomness (the seed in its header, the salt of that seed's commitment, the salts of
sealed choices and the bot's picks) is drawn from ``sha256("boardstate-selfplay", seed,
number)``, and its creation time is a fixed one (``CREATED``): nothing else varies.
"""

from __future__ import annotations

import hashlib
import json
import random
import statistics
from collections import Counter

import attrs

from .._fileformat import encode_game
from .._game import Game
from .._registry import get_module

CREATED = "2000-01-01T00:00:00+00:00"  # every self-played game's creation time
NAMES = ("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal")
MAX_STEPS = 20_000  # commands in one game before it is called endless


def seat_names(count: int) -> tuple[str, ...]:
    return tuple(NAMES[i] if i < len(NAMES) else f"p{i + 1}" for i in range(count))


@attrs.frozen
class Played:
    """A self-play manifest line: one game, its file and its result.  ``winners`` are seats;
    ``moves``: the commands played (a sealed choice is one, its reveal none); ``reason``: how
    the game ended (``error: ...`` if it did not: then no file was written)."""

    game: int
    path: str
    module: str
    module_version: str
    revision: int
    players: tuple
    options: tuple  # ((key, value), ...), sorted
    seed: str
    bot: str
    sha256: str | None = None
    size: int | None = None
    records: int | None = None
    moves: int | None = None
    winners: tuple = ()
    scores: tuple = ()
    reason: str = ""

    @property
    def key(self) -> int:
        return self.game

    @property
    def ok(self) -> bool:
        return not self.reason.startswith("error")

    def line(self) -> str:
        return json.dumps(attrs.asdict(self), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_line(cls, line: str) -> Played:
        data = json.loads(line)
        if not isinstance(data, dict) or not isinstance(data.get("game"), int):
            raise ValueError("not a self-play manifest line")
        for name in ("players", "winners", "scores"):
            data[name] = tuple(data.get(name) or ())
        data["options"] = tuple(tuple(kv) for kv in data.get("options") or ())
        names = {a.name for a in attrs.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})

    def same_run(self, other: Played) -> bool:
        """Was ``other`` played by the same run (module, seats, options, seed, bot)?"""
        fields = ("module", "module_version", "revision", "players", "options", "seed", "bot")
        return all(getattr(self, f) == getattr(other, f) for f in fields)


@attrs.frozen
class Plan:
    """What a self-play run plays: ``games`` games of ``module`` between ``players``."""

    module: str
    players: tuple
    options: tuple = ()
    seed: str = ""
    bot: str = "random"
    games: int = 1

    def file_name(self, number: int) -> str:
        width = max(6, len(str(self.games - 1)))
        return f"{self.module}-{number:0{width}d}.msgpack"


def game_seed(seed: str, number: int) -> bytes:
    return hashlib.sha256(b"boardstate-selfplay\0%s\0%d" % (seed.encode(), number)).digest()


def play_one(task) -> tuple[Played, bytes]:
    """Play game ``number`` of ``plan``: its manifest line and its file's bytes (none if it
    did not end)."""
    plan, number = task
    module = get_module(plan.module)
    spec = module.spec
    drawn = game_seed(plan.seed, number)
    line = dict(
        game=number,
        path=plan.file_name(number),
        module=spec.id,
        module_version=spec.version,
        revision=spec.revision,
        players=tuple(plan.players),
        options=tuple(plan.options),
        seed=plan.seed,
        bot=plan.bot,
    )
    try:
        game = Game.new(
            module,
            plan.players,
            dict(plan.options),
            seed=drawn,
            created=CREATED,
            seed_salt=hashlib.sha256(b"salt" + drawn).digest(),
        )
        pick = random.Random(drawn)
        choose = _chooser(plan.bot, drawn, pick)
        moves = 0
        while (outcome := game.outcome()) is None:
            seat = pick.choice(game.to_act())
            game.play(seat, choose(game, seat), entropy=pick.randbytes)
            moves += 1
            if moves >= MAX_STEPS:
                raise RuntimeError(f"no end after {MAX_STEPS} commands")
        data = encode_game(game)
    except Exception as exc:  # (a bug in a module or the engine: said in the manifest)
        return Played(**line, reason=f"error: {type(exc).__name__}: {exc}"), b""
    played = Played(
        **line,
        sha256=hashlib.sha256(data).hexdigest(),
        size=len(data),
        records=game.seq,
        moves=moves,
        winners=tuple(outcome.winners),
        scores=tuple(outcome.scores),
        reason=outcome.reason,
    )
    return played, data


def _chooser(bot: str, drawn: bytes, pick: random.Random):
    """How a seat's command is chosen: ``random`` picks uniformly among the legal commands;
    a search level (``boardstate.bots``) plays its level's iterations on every move, without
    its time limit, so that a game does not depend on how fast the machine is."""
    if bot == "random":
        return lambda game, seat: pick.choice(game.legal(seat))
    from ..bots import Bot, level_named

    level = level_named(bot)
    base = int.from_bytes(drawn[:6], "big")
    bots: dict = {}

    def choose(game, seat: int) -> str:
        if seat not in bots:
            bots[seat] = Bot(level, base + seat, iterations=level.iterations, seconds=None)
        return bots[seat].choose(game, seat)

    return choose


def check_bot(bot: str) -> None:
    """Refuse a bot level that does not exist, before any game is played."""
    if bot != "random":
        from ..bots import level_named

        level_named(bot)


def play_games(plan: Plan, runner, *, start: int = 0, stop=None):
    """Games ``start`` to ``plan.games - 1``, played by ``runner``: ``(Played, bytes)`` for
    each, in the games' order (so an interrupted run has done a first stretch of them)."""
    check_bot(plan.bot)
    count = plan.games - start
    tasks = ((plan, n) for n in range(start, plan.games))
    chunk = runner.chunk_size(count, most=16)
    return runner.map(play_one, tasks, ordered=True, chunk=chunk, stop=stop)


def summary(played, players) -> dict:
    """Wins per seat (a shared win counts for each winner), lengths and results."""
    played = list(played)
    ended = [p for p in played if p.ok]
    wins = Counter(w for p in ended for w in p.winners)
    records = [p.records for p in ended]
    moves = [p.moves for p in ended]

    def spread(values) -> dict:
        if not values:
            return {}
        return {
            "min": min(values),
            "median": statistics.median(values),
            "mean": round(statistics.fmean(values), 1),
            "max": max(values),
        }

    return {
        "games": len(played),
        "errors": len(played) - len(ended),
        "wins": {name: wins.get(seat, 0) for seat, name in enumerate(players)},
        "no_winner": sum(1 for p in ended if not p.winners),
        "records": spread(records),
        "moves": spread(moves),
        "results": dict(Counter(p.reason for p in ended).most_common()),
    }
