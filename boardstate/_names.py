"""Players' names: the name grammar (``is_name``, ``NAME_RULE``), stated once for players' and
keys' names, and the checks a game's players pass (``check_players`` on every header read,
``check_new_names`` on a new game's)."""

from __future__ import annotations

from ._errors import OptionError, short

MAX_NAME_CHARS = 64  # a player's name

# C0 and C1 controls, DEL, line and paragraph separators, and the bidirectional overrides and
# isolates (which make a name display as another).  A set, not a pattern: compiling the
# pattern was 0.3 ms of every command's start (issue 29).
_CONTROL = frozenset(
    [
        chr(c)
        for c in (*range(0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A))
    ]
    + ["\u2028", "\u2029", "\u200e", "\u200f"]
)


def check_players(spec, players) -> None:
    """The module's player count; distinct, non-empty names of at most ``MAX_NAME_CHARS``
    characters, without outer spaces or control characters (``OptionError``)."""
    if not spec.min_players <= len(players) <= spec.max_players:
        raise OptionError(
            f"{spec.name} takes {spec.min_players}–{spec.max_players} players, got {len(players)}",
            code="player-count",
        )
    for p in players:
        if type(p) is not str:
            raise OptionError("player names must be text", code="bad-player")
        if not p or p.strip() != p:
            raise OptionError(
                f"player name {short(p)} is empty or has outer spaces", code="bad-player"
            )
        if len(p) > MAX_NAME_CHARS:
            raise OptionError(
                f"player name {short(p)} is longer than {MAX_NAME_CHARS} characters",
                code="bad-player",
            )
        if not _CONTROL.isdisjoint(p):
            raise OptionError(
                f"player name {short(p)} holds a control character", code="bad-player"
            )
    if len(set(players)) != len(players):
        twice = next(p for p in players if players.count(p) > 1)
        raise OptionError(
            f"player names must be distinct ({short(twice)} twice)", code="bad-player"
        )


NAME_RULE = "letters, digits, '-', '_' and '.', not starting with '.', at most 64"


def is_name(name: str) -> bool:
    """The name grammar, stated once: a player's name and a key's name are one word of
    ``NAME_RULE`` (so a name is one word of the notation, as in ``give NAME``, a file name, a
    key's name, and the judge's ``NAME=ADDRESS``, and holds no quote, space or markup)."""
    return (
        type(name) is str
        and 0 < len(name) <= MAX_NAME_CHARS
        and name[0] != "."
        and all(c.isalnum() or c in "-_." for c in name)
    )


def check_new_names(players) -> None:
    """A new game's players follow the name grammar (``is_name``).  Files made before it was
    stated may hold other names (no control character, no outer space): they still read."""
    for p in players:
        if not is_name(p):
            raise OptionError(
                f"player name {short(p)}: use {NAME_RULE} characters (a name is one word "
                "in commands such as 'give NAME')",
                code="bad-player",
            )
