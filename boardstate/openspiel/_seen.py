"""What a seat sees of a world, as OpenSpiel's strings: never another seat's hidden values.

The observation is the module's ``view`` of the state for the seat (every secret the seat does
not hold sealed, as on its own copy), written out with each secret it does not hold as ``?``,
then whose turn it is and what the sealed round and the face-down choices show: who has chosen,
and the seat's own choice.  The information state is the seat's whole history before it:
every action as the seat saw it (a command given in the open; a sealed or face-down choice as
"chosen", or as the seat's own command) and every choice turned over, then the observation.

Written out, a state is its values in order: tuples and the module's named tuples by their
fields, numbers and text as ``repr`` gives them; any other object is game data fixed by the
options (a deck, a board) and is written as its type's name.
"""

from __future__ import annotations

from .._module import Choice
from .._secrets import UNKNOWN, Reveal, Secret
from ._world import REVEALED, TERMINAL, Bridge, Seen, World


def written(value) -> str:
    """``value`` written out: a secret whose value is not held is ``?``."""
    write = _WRITERS.get(type(value))
    if write is not None:
        return write(value)
    if isinstance(value, tuple):  # a named tuple: the module's state and its parts
        return type(value).__name__ + _tuple(value)
    if isinstance(value, (int, str, float)):
        return repr(value)
    if isinstance(value, (frozenset, set)):
        return "{" + ",".join(sorted(written(v) for v in value)) + "}"
    if isinstance(value, dict):
        return "{" + ",".join(sorted(f"{written(k)}:{written(v)}" for k, v in value.items())) + "}"
    return "<" + type(value).__name__ + ">"


def _tuple(value: tuple) -> str:
    out = []
    for v in value:  # (the common items inline: this runs for every value of every view)
        kind = type(v)
        if kind is int:
            out.append(repr(v))
        elif kind is Secret:
            out.append("?" if v.value is UNKNOWN else repr(v.value))
        else:
            out.append(written(v))
    return "(" + ",".join(out) + ")"


def _secret(value: Secret) -> str:
    return "?" if value.value is UNKNOWN else repr(value.value)


_WRITERS = {
    tuple: _tuple,
    Secret: _secret,
    Reveal: lambda r: repr(r.value),
    int: repr,
    str: repr,
    bool: repr,
    bytes: repr,
    float: repr,
    type(None): repr,
}


ALL = -2  # the observer who sees everything (OpenSpiel's PrivateInfoType.ALL_PLAYERS)


def observation(bridge: Bridge, world: World, seat: int | None) -> str:
    """What ``seat`` sees now (None: a spectator, who holds no secret; ALL: everything)."""
    state = world.state if seat == ALL else bridge.view(world.state, seat)
    lines = [written(state)]
    if world.seat == TERMINAL:
        lines.append("over")
    else:
        lines.append(f"to act: {world.seat}")
    face_down = tuple([(s, c) for s, c, _ in world.face_down])
    for what, chosen in (("sealed", world.sealed), ("face down", face_down)):
        if chosen:
            mine = [f" {c!r}" if s == seat or seat == ALL else "" for s, c in chosen]
            lines.append(f"{what}: " + ", ".join(f"{s}{m}" for (s, _), m in zip(chosen, mine)))
    return "\n".join(lines)


def history(world: World, seat: int | None) -> str:
    """Every action and turn-over of ``world`` as ``seat`` saw it, first first (written once
    per seat and action: the lines before the last one asked are taken as they were)."""
    head = world.seen
    lines = []
    seen = head
    while seen is not None and seat not in seen.said:
        lines.append(_line(seen, seat))
        seen = seen.earlier
    lines.reverse()
    if seen is not None:
        lines.insert(0, seen.said[seat])
    text = "\n".join(lines)
    if head is not None:
        head.said[seat] = text
    return text


def _line(seen: Seen, seat: int | None) -> str:
    actor, command, how = seen.actor, seen.command, seen.how
    if how == Choice.TURN_OVER:
        who = "turned over" if actor == REVEALED else f"{actor} turned over"
        return f"{who} {command!r}"
    if how == Choice.OPEN:
        return f"{actor} {command!r}"
    what = "sealed" if how == Choice.SEALED else "face down"
    if actor == seat or seat == ALL:
        return f"{actor} {what} {command!r}"
    return f"{actor} chose {what}"


def information_state(bridge: Bridge, world: World, seat: int | None) -> str:
    return history(world, seat) + "\n--\n" + observation(bridge, world, seat)
