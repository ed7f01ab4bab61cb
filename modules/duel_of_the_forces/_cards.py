"""Card data: structured from TOML with cattrs; a mistake names file, line and field."""
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

HERO_ORDER = ("luke", "han", "leia", "yoda")


class _FieldError(ValueError):
    """A validator's complaint, naming its field so the error can point at the line."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(reason)
        self.field = field


def _in_range(lo: int, hi: int):
    def check(_inst, attribute, value):
        if type(value) is not int or not lo <= value <= hi:
            raise _FieldError(attribute.name, f"must be a whole number from {lo} to {hi}, "
                                              f"got {value!r}")
    return check


@attrs.frozen
class Villain:
    name: str = attrs.field(validator=attrs.validators.min_len(1))
    points: int = attrs.field(validator=_in_range(1, 10))
    copies: int = attrs.field(validator=_in_range(1, 4))
    original_pair: int | None = None  # Parlett's original: flat score for a pair (Jabba 30, ...)


@attrs.frozen
class VaderCards:
    penalties: list[int] = attrs.field(validator=attrs.validators.deep_iterable(_in_range(1, 20)))


@attrs.frozen
class Hero:
    name: str
    icons: list[int] = attrs.field(validator=attrs.validators.and_(
        attrs.validators.deep_iterable(_in_range(0, 4)),
        attrs.validators.min_len(8), attrs.validators.max_len(8)))


@attrs.frozen
class DeckFile:
    villain: list[Villain]
    vader: VaderCards
    heroes: dict[str, Hero]


@attrs.frozen
class Card:
    """One Empire card: a villain (points > 0) or a Darth Vader (points < 0)."""

    name: str
    points: int
    original_pair: int | None = None

    @property
    def vader(self) -> bool:
        return self.points < 0


@attrs.frozen
class Cards:
    """The whole card set of one game: the Empire deck (by index) and the heroes' icons."""

    deck: tuple[Card, ...]
    hero_names: tuple[tuple[str, str], ...]  # ((id, display name), ...)
    icons: tuple[tuple[str, tuple[int, ...]], ...]

    icon_map: dict = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "icon_map", dict(self.icons))

    def to_option(self) -> tuple:
        """A msgpack-able form stored in the game header, so a file carries its own cards."""
        return (tuple((c.name, c.points, c.original_pair or 0) for c in self.deck),
                self.hero_names, self.icons)

    @classmethod
    def from_option(cls, value) -> "Cards":
        deck, names, icons = value
        return cls(tuple(Card(n, p, o or None) for n, p, o in deck),
                   tuple((str(a), str(b)) for a, b in names),
                   tuple((str(h), tuple(i)) for h, i in icons))


_converter = cattrs.Converter(forbid_extra_keys=True)


def parse_deck(text: str, source: str) -> Cards:
    """Parse a deck TOML.  Errors: ``OptionError('FILE:LINE: field: reason')``."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"line (\d+)", str(exc))
        where = f"{source}:{line.group(1)}" if line else source
        raise OptionError(f"{where}: not valid TOML ({exc})", code="bad-deck") from None
    try:
        data = _converter.structure(raw, DeckFile)
    except Exception as exc:  # cattrs groups every field error; report the first
        path, reason = _first_error(exc)
        raise OptionError(f"{source}:{_line_of(text, path)}: {_dotted(path)}: {reason}",
                          code="bad-deck") from None
    return _check(data, text, source)


def _check(data: DeckFile, text: str, source: str) -> Cards:
    def bad(path, reason):
        raise OptionError(f"{source}:{_line_of(text, path)}: {_dotted(path)}: {reason}",
                          code="bad-deck")

    if set(data.heroes) != set(HERO_ORDER):
        bad(["heroes"], f"needs exactly the heroes {', '.join(HERO_ORDER)}")
    names = [v.name for v in data.villain]
    for i, name in enumerate(names):
        if names.index(name) != i:
            bad(["villain", i, "name"], f"villain {name!r} is listed twice (use copies)")
    deck = []
    for v in data.villain:
        deck.extend(Card(v.name, v.points, v.original_pair) for _ in range(v.copies))
    deck.extend(Card("Darth Vader", -p) for p in data.vader.penalties)
    return Cards(tuple(deck), tuple((h, data.heroes[h].name) for h in HERO_ORDER),
                 tuple((h, tuple(data.heroes[h].icons)) for h in HERO_ORDER))


def _first_error(exc) -> tuple[list, str]:
    """Walk a cattrs exception group to the first leaf: (path, reason)."""
    path: list = []
    while isinstance(exc, BaseExceptionGroup):
        sub = exc.exceptions[0]
        note = _note(sub)
        if note is not None:
            path.append(note)
        exc = sub
    reason = str(exc) or type(exc).__name__
    if isinstance(exc, _FieldError):
        path.append(exc.field)
    if isinstance(exc, KeyError):
        reason = f"missing field {exc.args[0]!r}" if exc.args else "missing field"
        path.append(exc.args[0] if exc.args else "?")
    if type(exc).__name__ == "ForbiddenExtraKeysError":
        reason = f"unknown field(s) {', '.join(sorted(exc.extra_fields))}"
        path.append(sorted(exc.extra_fields)[0])
    return path, reason


def _note(exc):
    for note in getattr(exc, "__notes__", []):
        name = getattr(note, "name", None)
        if name is not None:
            return name
        index = getattr(note, "index", None)
        if index is not None:
            return index
        m = re.match(r"Structuring (?:class \S+ @ attribute|mapping value @ key) '?([^' ]+)'?", str(note))
        if m:
            return m.group(1)
        m = re.search(r"@ index (\d+)", str(note))
        if m:
            return int(m.group(1))
    return None


def _dotted(path) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(file)"


def _line_of(text: str, path) -> int:
    """The line where ``path`` (e.g. ['villain', 3, 'points']) is written, best effort."""
    lines = text.splitlines()
    start = 0
    tables = [p for p in path if isinstance(p, str)]
    if path and isinstance(path[0], str):
        head, rest = path[0], path[1:]
        if rest and isinstance(rest[0], int):
            hits = [i for i, l in enumerate(lines) if l.strip() == f"[[{head}]]"]
            if rest[0] < len(hits):
                start = hits[rest[0]]
        else:
            hits = [i for i, l in enumerate(lines)
                    if l.strip().startswith(f"[{head}") and not l.strip().startswith("[[")]
            if len(tables) >= 2:
                hits = [i for i in hits if lines[i].strip() == f"[{head}.{tables[1]}]"] or hits
            if hits:
                start = hits[0]
    field = tables[-1] if tables else None
    if field is not None:
        for i in range(start, len(lines)):
            if re.match(rf"\s*{re.escape(str(field))}\s*=", lines[i]):
                return i + 1
    return start + 1


def builtin_text() -> tuple[str, str]:
    res = files(__package__).joinpath("cards.toml")
    return res.read_text(encoding="utf-8"), "cards.toml"


@lru_cache(maxsize=1)
def builtin_cards() -> Cards:
    text, name = builtin_text()
    return parse_deck(text, name)


def load_deck_file(path: str) -> Cards:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise OptionError(f"{path}: cannot read deck file ({exc.strerror})", code="bad-deck") from None
    return parse_deck(text, path)


def data_digest() -> str:
    return hashlib.sha256(builtin_text()[0].encode()).hexdigest()[:16]
