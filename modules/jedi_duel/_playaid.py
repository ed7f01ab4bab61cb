"""The Stance Playaid as data: the attack speed and defence modifiers, loaded from TOML.

The printed tables are lost (they were pictures), so the shipped file is a reconstruction and a
game may load its own with ``--option playaid=FILE``.  A mistake in such a file is an
``OptionError`` that names the file, the line and the field, so a player can fix it.
"""
from __future__ import annotations

import hashlib
import re
import tomllib
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

import attrs
import cattrs

from boardstate import OptionError

from ._cards import AREA_NAMES

MAX_MODIFIER = 13
BUILTIN = "playaid.toml"


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
    def from_option(cls, value) -> "Playaid":
        name, attack, defence = value
        return cls(str(name), tuple(tuple(int(x) for x in row) for row in attack),
                   tuple(int(x) for x in defence))


class _FieldError(ValueError):
    pass


def _strict_int(value, _type) -> int:
    if type(value) is not int:
        raise _FieldError(f"must be a whole number, got {value!r}")
    if not 0 <= value <= MAX_MODIFIER:
        raise _FieldError(f"must be from 0 to {MAX_MODIFIER}, got {value}")
    return value


def _strict_str(value, _type) -> str:
    if type(value) is not str or not value.strip():
        raise _FieldError(f"must be a non-empty text, got {value!r}")
    return value


_converter = cattrs.Converter(forbid_extra_keys=True)
_converter.register_structure_hook(int, _strict_int)
_converter.register_structure_hook(str, _strict_str)


def parse_playaid(text: str, source: str) -> Playaid:
    """Read a Playaid TOML; any mistake is ``OptionError("FILE:LINE: FIELD: reason")``."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"line (\d+)", str(exc))
        where = f"{source}:{line.group(1)}" if line else source
        raise OptionError(f"{where}: not valid TOML ({exc})", code="bad-playaid") from None
    try:
        data = _converter.structure(raw, PlayaidFile)
    except Exception as exc:  # cattrs gathers every field error in a group; report the first
        path, reason = _first_error(exc)
        raise OptionError(f"{source}:{_line_of(text, path)}: {'.'.join(path) or '(file)'}: "
                          f"{reason}", code="bad-playaid") from None
    attack = data.attack
    return Playaid(data.name, (attack.high.as_tuple(), attack.middle.as_tuple(),
                               attack.low.as_tuple()), data.defence.as_tuple())


def _first_error(exc) -> tuple[list[str], str]:
    """Follow a cattrs error group down to its first leaf: (field path, reason)."""
    path: list[str] = []
    while True:
        for note in getattr(exc, "__notes__", ()):
            name = getattr(note, "name", None)
            if isinstance(name, str):
                path.append(name)
                break
        subs = getattr(exc, "exceptions", None)
        if not subs:
            break
        exc = subs[0]
    if isinstance(exc, KeyError):
        return path, "missing field"
    extra = getattr(exc, "extra_fields", None)
    if extra:
        field = sorted(extra)[0]
        return path + [field], f"unknown field (expected one of: {_expected(path)})"
    return path, str(exc) or type(exc).__name__


def _expected(path: list[str]) -> str:
    return "name, attack, defence" if not path else ", ".join(AREA_NAMES)


def _line_of(text: str, path: list[str]) -> int:
    """The line where ``path`` is written (its key, else its table header, else line 1)."""
    lines = text.splitlines()
    tables = {}  # dotted table name -> line index of its header
    current = ""
    keys = {}  # dotted key -> line index
    for i, line in enumerate(lines):
        stripped = line.split("#", 1)[0].strip()
        m = re.fullmatch(r"\[\s*([^\]]+?)\s*\]", stripped)
        if m:
            current = re.sub(r"\s*\.\s*", ".", m.group(1)).replace('"', "")
            tables.setdefault(current, i)
            continue
        m = re.match(r"([A-Za-z0-9_\-\"]+(?:\s*\.\s*[A-Za-z0-9_\-\"]+)*)\s*=", stripped)
        if m:
            key = re.sub(r"\s*\.\s*", ".", m.group(1)).replace('"', "")
            keys.setdefault(f"{current}.{key}" if current else key, i)
    for depth in range(len(path), 0, -1):
        dotted = ".".join(path[:depth])
        if dotted in keys:
            return keys[dotted] + 1
        if dotted in tables:
            return tables[dotted] + 1
    return 1


def builtin_text() -> str:
    return files(__package__).joinpath(BUILTIN).read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def builtin_playaid() -> Playaid:
    return parse_playaid(builtin_text(), BUILTIN)


def load_playaid(path: str) -> Playaid:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise OptionError(f"{path}: cannot read the Playaid file ({exc.strerror})",
                          code="bad-playaid") from None
    except UnicodeDecodeError:
        raise OptionError(f"{path}:1: the Playaid file is not UTF-8 text", code="bad-playaid") from None
    return parse_playaid(text, path)


def data_digest() -> str:
    return hashlib.sha256(builtin_text().encode()).hexdigest()[:16]
