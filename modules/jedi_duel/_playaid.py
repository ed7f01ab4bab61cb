"""The Stance Playaid as data: the attack speed and defence modifiers, loaded from TOML.

The printed tables are lost (they were pictures), so the shipped file is a reconstruction and a
game may load its own with ``--option playaid=FILE``.  A mistake in such a file is an
``OptionError`` that names the file, the line and the field, so a player can fix it.
"""

from __future__ import annotations

import attrs

from boardstate.rules import (
    DataFile,
    FieldError,
    OptionError,
    cached_by_value,
    exactly,
    stored_key,
    strict_converter,
    structure_stored,
    structure_toml,
)

MAX_MODIFIER = 13
BUILTIN = "playaid.toml"
CODE = "bad-playaid"  # (a Playaid file's mistake, and a header's stored Playaid's)


@attrs.frozen
class ByArea:
    """One number per area (or per stance): high, middle, low."""

    high: int
    middle: int
    low: int

    def as_tuple(self) -> tuple[int, int, int]:
        return (self.high, self.middle, self.low)


@attrs.frozen
class AttackTable:
    """Rows by the attacker's stance; each row by the area attacked."""

    high: ByArea
    middle: ByArea
    low: ByArea


@attrs.frozen
class PlayaidFile:
    name: str
    attack: AttackTable
    defence: ByArea


@attrs.frozen
class Playaid:
    """The two tables as plain tuples: ``attack[stance][area]`` and ``defence[stance]``."""

    name: str
    attack: tuple[tuple[int, int, int], ...]
    defence: tuple[int, int, int]

    def to_option(self) -> tuple:
        """msgpack-native form for the game header, so a file carries the Playaid it was played with."""
        return (self.name, self.attack, self.defence)

    @classmethod
    def from_option(cls, value) -> Playaid:
        """The Playaid a header stores, read as a Playaid file is: into the file's classes with
        the file's converter, so a crafted header gets no table a Playaid file could not give."""
        return _tables(
            structure_stored(_as_playaid_file(value), "playaid", PlayaidFile, _converter(), CODE)
        )


def _as_playaid_file(value) -> dict:
    """The Playaid file, as TOML reads it, whose tables a header stores as ``value``."""
    try:
        name, attack, defence = value
        high, middle, low = attack
        return {
            "name": name,
            "attack": {"high": _by_area(high), "middle": _by_area(middle), "low": _by_area(low)},
            "defence": _by_area(defence),
        }
    except (TypeError, ValueError):  # (not the shape ``to_option`` writes)
        raise OptionError(
            "playaid: not [name, attack rows high/middle/low, defence] as a game file stores it",
            code=CODE,
        ) from None


def _by_area(row) -> dict:
    high, middle, low = row
    return {"high": high, "middle": middle, "low": low}


def _modifier(value, _type) -> int:
    """Every whole number of the Playaid is a modifier (the kit checks the type first)."""
    if not 0 <= exactly(int, value) <= MAX_MODIFIER:
        raise FieldError(f"must be from 0 to {MAX_MODIFIER}, got {value}")
    return value


def _nonblank(value, _type) -> str:
    if not exactly(str, value).strip():
        raise FieldError(f"must be a non-empty text, got {value!r}")
    return value


@cached_by_value(size=1)
def _converter():
    """The kit's strict converter with the Playaid's own checks, made when a Playaid file is
    first read."""
    converter = strict_converter()
    converter.register_structure_hook(int, _modifier)
    converter.register_structure_hook(str, _nonblank)
    return converter


def parse_playaid(text: str, source: str) -> Playaid:
    """Read a Playaid TOML; any mistake is ``OptionError("FILE:LINE: FIELD: reason")``."""
    return _tables(structure_toml(text, source, PlayaidFile, _converter(), CODE))


def _tables(data: PlayaidFile) -> Playaid:
    """The tables a checked Playaid file gives, as plain tuples."""
    attack = data.attack
    return Playaid(
        data.name,
        (attack.high.as_tuple(), attack.middle.as_tuple(), attack.low.as_tuple()),
        data.defence.as_tuple(),
    )


PLAYAID_FILE = DataFile(__package__, BUILTIN, parse_playaid, what="Playaid file", code=CODE)


def builtin_playaid() -> Playaid:
    return PLAYAID_FILE.builtin()


def data_digest() -> str:
    """Names the shipped Playaid's content in the game header."""
    return PLAYAID_FILE.digest


def playaid_option(path: str | None) -> tuple:
    """The header's form of the Playaid a game is created with (the file at ``path``, or the
    shipped one): the tables travel in the header, so the game needs no file to replay."""
    return PLAYAID_FILE.option(path or None).to_option()


def playaid_of(option) -> Playaid:
    """The Playaid a header stores (its tables, as tuples or lists), checked as a Playaid file
    is; keyed by ``stored_key`` too, since a value cache takes ``true`` for 1."""
    exactly_as_stored = stored_key(option)
    try:
        return _playaid_of(exactly_as_stored, option)  # (tuples already: a new game's own header)
    except TypeError:  # (lists, from a header read back: made tuples for the cache)
        return _playaid_of(exactly_as_stored, _frozen(option))


@cached_by_value
def _playaid_of(exactly_as_stored: bytes, option: tuple) -> Playaid:
    """The shipped Playaid's tables (checked when its file was read, and kept parsed) are not
    checked again, so that a command on such a game structures nothing (and imports no cattrs)."""
    builtin = builtin_playaid()
    if stored_key(builtin.to_option()) == exactly_as_stored:
        return builtin
    return Playaid.from_option(option)


def _frozen(value):
    """Lists as tuples, all the way down: a hashable key for the cache."""
    return tuple(_frozen(v) for v in value) if isinstance(value, (list, tuple)) else value
