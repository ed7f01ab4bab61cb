"""Module data files (TOML) structured with cattrs into attrs classes.

A mistake in a data file is reported as one line naming the file, the line and the field
(``deck.toml:22: villain[2].points: must be a whole number from 1 to 10, got 12``), whatever
module the file belongs to; ``strict_converter`` reads its values as exactly the types the
module's classes declare.
"""

from __future__ import annotations

import math
import os
import re
import typing
from collections import abc
from typing import TYPE_CHECKING, Literal, get_args, get_origin

from ._errors import AmbiguousCommand, InvalidCommand, OptionError

if TYPE_CHECKING:  # (cattrs is imported by the module that structures a file)
    import cattrs


class FieldError(ValueError):
    """Raise from a validator or structure hook; ``field`` (if given) extends the error's path."""

    def __init__(self, reason: str, field: str | None = None) -> None:
        super().__init__(reason)
        self.field = field


MAX_DATA_FILE_BYTES = 1 << 20  # a data file a player names in an option (``deck=FILE``)


def read_data_file(path, what: str, code: str) -> str:
    """A player's data file as text: a regular file of at most ``MAX_DATA_FILE_BYTES`` (a
    device, a pipe or a larger file is refused; at most the limit + 1 bytes are read)."""
    from ._safety import NotRegular, read_regular

    try:
        data = read_regular(path, MAX_DATA_FILE_BYTES)[0]
    except NotRegular as exc:
        raise OptionError(f"{path}: the {what} is {exc.kind}", code=code) from None
    except OSError as exc:
        raise OptionError(f"{path}: cannot read the {what} ({exc.strerror})", code=code) from None
    if len(data) > MAX_DATA_FILE_BYTES:
        raise OptionError(
            f"{path}: the {what} is larger than the limit of {MAX_DATA_FILE_BYTES} bytes",
            code=code,
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise OptionError(f"{path}:1: the {what} is not UTF-8 text", code=code) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")  # (universal newlines, as before)


EXACT_TYPES = {int: "a whole number", str: "a string", bool: "true or false"}
"""The scalar types a data file's value must be exactly (a ``bool`` is no ``int``), and how a
mistake names them: ``must be a whole number, got 10.5``."""


def exactly(kind: type, value):
    """``value`` if its type is exactly ``kind`` (one of ``EXACT_TYPES``), else a ``FieldError``;
    a module's own hook for ``kind`` checks the type with it before its game's own check."""
    if type(value) is not kind:
        raise FieldError(f"must be {EXACT_TYPES[kind]}, got {value!r}")
    return value


def whole_number(lo: int, hi: int):
    """An attrs validator: a whole number from ``lo`` to ``hi`` (None passes: an optional
    field), checked again when a value is made by ``attrs.evolve`` rather than read."""

    def check(_inst, attribute, value):
        if value is not None and (type(value) is not int or not lo <= value <= hi):
            raise FieldError(
                f"must be a whole number from {lo} to {hi}, got {value!r}", field=attribute.name
            )

    return check


def strict_converter() -> cattrs.Converter:
    """A new cattrs converter that structures a data file's values as exactly the types the
    classes declare: no unknown key, no ``10.5`` or ``true`` for a whole number, no number for
    text, no ``1`` for true, no text, ``nan`` or ``inf`` for a number, no ``true`` for
    ``Literal[1]``, no text or table for a list (a list, tuple, set or sequence), no list or
    number for a table (a dict or an attrs class).  cattrs's own hooks convert instead
    (``points = 10.5`` was 10, ``true`` 1, ``name = 5`` "5", ``"abc"`` a list of letters), and
    a game played other cards than its file says.  A module registers its own hooks on it (a
    hook for ``int`` or ``str`` calls ``exactly`` first) and keeps it; cattrs is imported here,
    when a module first reads a file, not when a command starts."""
    import attrs
    import cattrs
    from cattrs.cols import mapping_structure_factory

    made = cattrs.Converter(forbid_extra_keys=True)
    for kind in EXACT_TYPES:
        made.register_structure_hook(kind, _exact_hook(kind))
    made.register_structure_hook(float, _a_number)
    made.register_structure_hook_factory(lambda t: get_origin(t) is Literal, _one_of)
    made.register_structure_hook_factory(
        _is_fixed_tuple, lambda t: _written_as(list, _fixed_tuple(t, made))
    )
    made.register_structure_hook_factory(
        lambda t: _sequence_kind(t) is not None,
        lambda t: _written_as(list, _sequence(t, made)),
    )
    made.register_structure_hook_factory(
        lambda t: t is dict or get_origin(t) is dict,
        lambda t: _written_as(dict, mapping_structure_factory(t, made)),
    )
    made.register_structure_hook_factory(
        attrs.has, lambda t: _written_as(dict, made.gen_structure_attrs_fromdict(t))
    )
    return made


def _exact_hook(kind: type):
    return lambda value, _type: exactly(kind, value)


def _a_number(value, _type) -> float:
    if type(value) not in (int, float):
        raise FieldError(f"must be a number, got {value!r}")
    if not math.isfinite(value):
        raise FieldError(f"must be a finite number, got {value!r}")
    return float(value)


def _one_of(literal):
    """A ``Literal``'s hook: one of its values, of its type too (``true == 1`` in Python)."""
    choices = get_args(literal)

    def hook(value, _type):
        if not any(type(value) is type(c) and value == c for c in choices):
            raise FieldError(f"must be one of {', '.join(map(repr, choices))}, got {value!r}")
        return value

    return hook


_SEQUENCES = {  # a declared collection of one type -> what its values are made into
    list: list,
    tuple: tuple,
    set: set,
    frozenset: frozenset,
    abc.Sequence: tuple,
    abc.MutableSequence: list,
    abc.Set: frozenset,
    abc.MutableSet: set,
}


def _sequence_kind(t):
    """What a collection of one type declared as ``t`` is made into (None: not one)."""
    return None if _is_fixed_tuple(t) else _SEQUENCES.get(get_origin(t) or t)


def _sequence(t, made):
    """A list, tuple, set or sequence of one type: each value structured as that type."""
    from cattrs.cols import list_structure_factory

    make = _sequence_kind(t)
    as_list = list_structure_factory(list[get_args(t)[0] if get_args(t) else typing.Any], made)
    return lambda value, _type: make(as_list(value, _type))


def _is_fixed_tuple(t) -> bool:
    args = get_args(t)
    return get_origin(t) is tuple and bool(args) and not (len(args) == 2 and args[1] is Ellipsis)


def _fixed_tuple(t, made):
    """A tuple of given types (``tuple[str, int]``): as many values, each of its type."""
    from cattrs.errors import IterableValidationError, IterableValidationNote

    kinds = get_args(t)

    def hook(value, _type):
        if len(value) != len(kinds):
            raise FieldError(f"must be a list of {len(kinds)} values, got {value!r}")
        made_values, errors = [], []
        for i, (one, kind) in enumerate(zip(value, kinds)):
            try:
                made_values.append(made.structure(one, kind))
            except Exception as exc:
                exc.__notes__ = [
                    *getattr(exc, "__notes__", []),
                    IterableValidationNote(f"Structuring {t} @ index {i}", i, kind),
                ]
                errors.append(exc)
        if errors:
            raise IterableValidationError(f"While structuring {t!r}", errors, t)
        return tuple(made_values)

    return hook


def _written_as(written: type, structure):
    """``structure`` for a value TOML writes as ``written`` (an array, a table), else refused."""
    what = "a list" if written is list else "a table"

    def hook(value, type_):
        if not isinstance(value, written):
            raise FieldError(f"must be {what}, got {value!r}")
        return structure(value, type_)

    return hook


def structure_toml(text: str, source: str, cls, converter: cattrs.Converter, code: str):
    """Parse TOML ``text`` and structure it into ``cls`` with ``converter`` (made by
    ``strict_converter``), or raise a located ``OptionError``."""
    import tomllib  # (a built-in file's value is mostly read back from the cache instead)

    try:
        raw = tomllib.loads(text)
    except (ValueError, RecursionError) as exc:  # (TOMLDecodeError, and what tomllib lets out:
        # an integer of 5000 digits, arrays nested thousands deep: internal errors before)
        line = re.search(r"line (\d+)", str(exc))
        where = f"{source}:{line.group(1)}" if line else source
        raise OptionError(f"{where}: not valid TOML ({exc})", code=code) from None
    return _structured(
        raw, cls, converter, lambda path, why: located(text, source, path, why, code)
    )


def structure_stored(raw, source: str, cls, converter: cattrs.Converter, code: str):
    """A module's data as a game file stores it (a header's option, so the file carries its own
    cards) structured into the data file's ``cls`` with the same ``converter``: the very checks
    a data file gets, or an ``OptionError`` naming the field (``cards: villain[2].points: ...``)."""
    return _structured(
        raw,
        cls,
        converter,
        lambda path, why: OptionError(f"{source}: {dotted(path)}: {why}", code=code),
    )


def stored_key(value) -> bytes:
    """A stored value's exact key for a cache of what it is read into: its msgpack bytes, in
    which ``true`` is not 1 (a cache by value takes one for the other, and would give a crafted
    header's ``true`` the cards read before for 1); a list and a tuple are one array, as stored."""
    import msgpack

    return msgpack.packb(value, use_bin_type=True)


def _structured(raw, cls, converter: cattrs.Converter, refusal):
    try:
        return converter.structure(raw, cls)
    except MemoryError:
        raise
    except Exception as exc:  # cattrs groups every field error; report the first
        raise refusal(*first_error(exc)) from None


def located(text: str, source: str, path: list, reason: str, code: str) -> OptionError:
    """An OptionError for the field at ``path`` (e.g. ``["villain", 2, "points"]``)."""
    return OptionError(f"{source}:{line_of(text, path)}: {dotted(path)}: {reason}", code=code)


def first_error(exc) -> tuple[list, str]:
    """Walk a cattrs exception group down its first branch: (field path, reason)."""
    path: list = []
    while True:
        for note in getattr(exc, "__notes__", ()):
            step = _note_step(note)
            if step is not None:
                path.append(step)
                break
        subs = getattr(exc, "exceptions", None)
        if not subs:
            break
        exc = subs[0]
    if isinstance(exc, KeyError):
        name = exc.args[0] if exc.args else "?"
        if path and path[-1] == name:  # (newer cattrs note the attribute on the KeyError too)
            return path, "missing field"
        return path + [name], "missing field"
    extra = getattr(exc, "extra_fields", None)
    if extra:
        return path + [sorted(extra)[0]], f"unknown field(s) {', '.join(sorted(extra))}"
    if isinstance(exc, FieldError) and exc.field is not None:
        path.append(exc.field)
    return path, str(exc) or type(exc).__name__


def _note_step(note):
    name = getattr(note, "name", None)
    if isinstance(name, str):
        return name
    index = getattr(note, "index", None)
    if index is not None:
        return index
    m = re.search(r"@ key '?([^' ]+)'?", str(note))
    return m.group(1) if m else None


def dotted(path) -> str:
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out or "(file)"


def line_of(text: str, path) -> int:
    """The 1-based line where ``path`` is written: its key, else its table header, else 1."""
    places: dict[str, int] = {}
    arrays: dict[str, int] = {}
    current = ""
    for i, line in enumerate(text.splitlines()):
        stripped = line.split("#", 1)[0].strip()
        m = re.fullmatch(r"\[\[\s*([^\]]+?)\s*\]\]", stripped)
        if m:
            name = _norm(m.group(1))
            index = arrays.get(name, -1) + 1
            arrays[name] = index
            current = f"{name}[{index}]"
            places.setdefault(current, i)
            continue
        m = re.fullmatch(r"\[\s*([^\]]+?)\s*\]", stripped)
        if m:
            current = _norm(m.group(1))
            places.setdefault(current, i)
            continue
        m = re.match(r"([A-Za-z0-9_\-\"]+(?:\s*\.\s*[A-Za-z0-9_\-\"]+)*)\s*=", stripped)
        if m:
            key = _norm(m.group(1))
            places.setdefault(f"{current}.{key}" if current else key, i)
    for depth in range(len(path), 0, -1):
        here = dotted(path[:depth])
        if here in places:
            return places[here] + 1
    return 1


def _norm(name: str) -> str:
    return re.sub(r"\s*\.\s*", ".", name).replace('"', "")


def resolve_player(players, word: str, text: str) -> int:
    """The seat a player's name (or a unique prefix of it) names in a typed command."""
    w = word.lower()
    hits = [i for i, p in enumerate(players) if p.lower() == w]
    if not hits:
        hits = [i for i, p in enumerate(players) if p.lower().startswith(w)]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise InvalidCommand(
            f"no player {word!r} in {text.strip()!r} (players: {', '.join(players)})",
            code="unknown-player",
        )
    raise AmbiguousCommand(
        f"{word!r} in {text.strip()!r} could be {' or '.join(players[i] for i in hits)}",
        code="ambiguous-player",
    )


class DataFile:
    """One kind of data file of a module: the built-in file shipped in the module's package, or
    a file a player names in an option (``--option deck=my-deck.toml``).

    ``parse(text, source)`` turns the text into a value (use ``structure_toml`` for errors that
    name file, line and field).  Parsed values are cached by the text they come from, never on a
    shared object; ``digest`` names the built-in file's content for the game header.
    """

    def __init__(self, package: str, name: str, parse, *, what: str, code: str) -> None:
        self.package = package
        self.name = name
        self.parse = parse
        self.what = what
        self.code = code

    def builtin_text(self) -> str:
        return _package_text(self.package, self.name)

    @property
    def digest(self) -> str:
        import hashlib

        return hashlib.sha256(self.builtin_text().encode()).hexdigest()[:16]

    def builtin(self):
        """The built-in file, parsed (errors name the file by its name in the package); its
        value is kept between commands (``_datacache``)."""
        return _parsed_builtin(self.parse, self.builtin_text(), self.name, self.package)

    def load(self, path):
        """A player's file, parsed; an unreadable or wrong file is a located ``OptionError``."""
        return _parsed(self.parse, read_data_file(path, self.what, self.code), str(path))

    def option(self, value):
        """The built-in file if ``value`` is None, else the file at path ``value``."""
        return self.builtin() if value is None else self.load(value)


def cached_by_value(function=None, *, size: int = 64):
    """Memoise a pure function of hashable values (a header's options, a hand): bounded to
    ``size`` entries, and keyed by value, so equal inputs share the work and nothing else.
    Use as ``@cached_by_value`` or ``@cached_by_value(size=1024)``."""
    from functools import lru_cache

    if function is None:
        return lru_cache(maxsize=size)
    return lru_cache(maxsize=size)(function)


@cached_by_value
def _parsed(parse, text: str, source: str):
    return parse(text, source)


@cached_by_value
def _parsed_builtin(parse, text: str, name: str, package: str):
    from ._datacache import parsed

    return parsed(parse, text, name, package)


@cached_by_value
def _package_text(package: str, name: str) -> str:
    """A file shipped inside an installed package (it does not change while we run), read
    through the package's own loader (a directory or a zip archive alike): ``importlib.resources``
    would bring ``zipfile`` with its compressors to every command (issue 29).  Line ends are
    read as text mode reads them."""
    import importlib  # (not pkgutil: it brings importlib.util, the same two steps are here)

    module = importlib.import_module(package)
    loader = getattr(module.__spec__, "loader", None)
    if loader is None or not hasattr(loader, "get_data") or module.__file__ is None:
        raise FileNotFoundError(f"{package}: no file {name!r}")
    path = os.path.join(os.path.dirname(module.__file__), *name.split("/"))
    data = loader.get_data(path)
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
