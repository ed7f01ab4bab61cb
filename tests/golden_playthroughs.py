"""Golden playthroughs: one short, readable text file per game and player count.

Each file follows one fixed game through the full engine (records, sealed choices) for at most
STEPS commands: every command given, the records it produced and their events, and every
VIEW_EVERY commands (and at the end) the table as each player sees it.  A rules change shows up as
a readable diff of these files.  Regenerate (after a deliberate rules change) with:

    python tests/golden_playthroughs.py

Every call into the engine's API is in the adapter section just below; when the API moves, that
section is the one place to change.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import attrs

import boardstate as bs

GOLDEN = Path(__file__).parent / "golden"
STEPS = 40
VIEW_EVERY = 10
NAMES = ("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal")
CREATED = "2026-01-01T00:00:00+00:00"


# ---------------------------------------------------------------- adapter: the engine's API
def new_game(module, n: int, seed: bytes) -> bs.Game:
    """A new game of ``module`` for the first ``n`` of NAMES, with a fixed seed and date."""
    return bs.Game.new(module, list(NAMES[:n]), {}, seed=seed, created=CREATED)


def choose(game: bs.Game, pick: random.Random) -> tuple[str, str] | None:
    """``(player, command)``: a random seat that must act and one of its legal commands (None
    when the game is over)."""
    if game.outcome() is not None:
        return None
    seat = pick.choice(game.to_act())
    return game.players[seat], pick.choice(game.legal(seat))


def play(game: bs.Game, player: str, text: str, entropy=None) -> list[tuple[int, str, list[str]]]:
    """Play ``text`` as ``player``: ``(seq, record in words, [event lines])`` per record made."""
    kwargs = {} if entropy is None else {"entropy": entropy}
    records = game.play(game.seat(player), text, **kwargs)
    return [
        (r.seq, bs.describe(game, r, r.actor), [event_line(ev) for ev in r.events]) for r in records
    ]


def setup_records(game: bs.Game) -> list[tuple[int, str, list[str]]]:
    """The records made when the game was created (the setup)."""
    return [
        (r.seq, bs.describe(game, r, r.actor), [event_line(ev) for ev in r.events])
        for r in game.records
    ]


def tables(game: bs.Game) -> list[tuple[str, str]]:
    """``(player, the table as that player sees it)`` for every seat, and the outcome if over."""
    rules, state = game.rules, game.state
    out = [
        (name, rules.render(rules.view(state, seat), seat))
        for seat, name in enumerate(game.players)
    ]
    outcome = game.outcome()
    if outcome is not None:
        winners = ", ".join(game.players[s] for s in outcome.winners)
        out.append(
            ("outcome", f"scores {list(outcome.scores)}; won by {winners}; {outcome.reason}")
        )
    return out


def verify_failure(game: bs.Game) -> str | None:
    """Encode the game as a file and verify the bytes: None if every record re-derives."""
    verdict = bs.verify(bs.parse_raw(bs.encode_game(game), "<playthrough>"))
    if not verdict.ok:
        return str(verdict.failure)
    if verdict.rederived != len(game.records):
        return f"only {verdict.rederived} of {len(game.records)} records re-derived"
    return None


def event_line(ev) -> str:
    """``name field=value ...``: an event on one line."""
    fields = attrs.fields(type(ev))
    shown = " ".join(f"{f.name}={value_text(getattr(ev, f.name))}" for f in fields)
    return f"{type(ev).__event_name__} {shown}".rstrip()


def value_text(value) -> str:
    if isinstance(value, bs.Secret):
        return f"secret({value.value!r})" if value.known else "?"
    if isinstance(value, bs.Reveal):
        return f"revealed({value.value!r})"
    if isinstance(value, tuple):
        return (
            "(" + ", ".join(value_text(v) for v in value) + ("," if len(value) == 1 else "") + ")"
        )
    if isinstance(value, bytes):
        return value.hex()
    return repr(value)


# ---------------------------------------------------------------- end of the adapter


COMMAND = re.compile(r"^step \d+\. (\S+): (.*)$")


def seed_of(n: int) -> bytes:
    return b"golden-%d" % n


def build_playthrough(module, n: int, commands: list[tuple[str, str]] | None = None) -> str:
    """The playthrough text of ``module`` with ``n`` players.  ``commands``: replay these
    ``(player, command)`` pairs instead of choosing with the fixed random picker."""
    game = new_game(module, n, seed_of(n))
    pick = random.Random(n)
    lines = [
        f"# {module.spec.id}, {n} players ({', '.join(game.players)}), "
        f"seed {seed_of(n).decode()}: the first {STEPS} commands",
        "# Regenerate after a deliberate rules change: python tests/golden_playthroughs.py",
        "",
    ]
    _records(lines, setup_records(game))
    step = 0
    queue = iter(commands) if commands is not None else None
    while step < STEPS:
        chosen = next(queue, None) if queue is not None else choose(game, pick)
        if chosen is None:
            break
        step += 1
        player, text = chosen
        lines.append(f"step {step}. {player}: {text}")
        _records(lines, play(game, player, text, None if queue is not None else pick.randbytes))
        if step % VIEW_EVERY == 0:
            _tables(lines, game, step)
    if step % VIEW_EVERY:
        _tables(lines, game, step)
    return "\n".join(lines) + "\n"


def _records(lines: list[str], records) -> None:
    for seq, words, events in records:
        lines.append(f"    record {seq}: {words}")
        lines.extend(f"        {ev}" for ev in events)


def _tables(lines: list[str], game, step: int) -> None:
    for who, text in tables(game):
        if who == "outcome":
            lines.append(f"== game over: {text}")
            continue
        lines.append(f"== after step {step}, as {who} sees it:")
        lines.extend(f"    {row}".rstrip() for row in text.splitlines())
    lines.append("")


def commands_of(text: str) -> list[tuple[str, str]]:
    """The ``(player, command)`` pairs a playthrough text gives, in order."""
    return [m.groups() for m in map(COMMAND.match, text.splitlines()) if m]


def cases():
    """``(module, player count)`` for every installed module and every count it allows."""
    for module in bs.installed_modules().values():
        for n in range(module.spec.min_players, module.spec.max_players + 1):
            yield module, n


def path_of(module, n: int) -> Path:
    return GOLDEN / f"{module.spec.id}-{n}p.txt"


if __name__ == "__main__":
    GOLDEN.mkdir(exist_ok=True)
    for module, n in cases():
        path = path_of(module, n)
        path.write_text(build_playthrough(module, n))
        print(f"wrote {path}")
