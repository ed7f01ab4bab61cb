"""The header's fields read one by one (``_header.read_header``): each field's type and range,
a failure a ``_Bad`` that ``read_header`` turns into one line naming the file and the field."""

from __future__ import annotations

import re

import msgpack

from ._errors import short

MAX_TEXT_CHARS = 256  # kind, module id, module version, data digest, created (an event type's
# name needs no limit of its own: each must equal the installed module's, _header._installed)
HASH_BYTES = 32
_MAX_OPTION_DEPTH = 16
_SCALARS = (str, int, bytes, bool, type(None))  # an option's msgpack-native leaves
_VERSION = re.compile(r"[0-9]{1,9}\.[0-9]{1,9}")


class _Bad(Exception):
    """A header field fails its check (turned into one CorruptFile line by ``read_header``)."""


def _module_of(m: dict) -> tuple[str, str]:
    module_version = _text(m, "module_version")
    if not _VERSION.fullmatch(module_version):
        raise _Bad(f"module_version: {short(module_version)} is not MAJOR.MINOR")
    return _text(m, "module"), module_version


def _base(base) -> tuple[int, bytes]:
    """A move file's ``[seq, hash]``: the record its records follow."""
    if (
        type(base) is not tuple
        or len(base) != 2
        or type(base[0]) is not int
        or base[0] < -1
        or type(base[1]) is not bytes
        or len(base[1]) != HASH_BYTES
    ):
        raise _Bad("base: not [seq >= -1, 32-byte hash]")
    return base


def _revision(m: dict) -> int:
    revision = m.get("revision", 1)
    if type(revision) is not int or revision < 1 or ("revision" in m and revision == 1):
        raise _Bad("revision: not an integer > 1 (absent means 1)")
    return revision


def _text(m: dict, key: str, *, empty: bool = False) -> str:
    value = m[key]
    if type(value) is not str or not (value or empty) or len(value) > MAX_TEXT_CHARS:
        shortest = 0 if empty else 1
        raise _Bad(f"{key}: not a string of {shortest}-{MAX_TEXT_CHARS} characters")
    return value


def _hash(m: dict, key: str) -> bytes:
    value = m[key]
    if type(value) is not bytes or len(value) != HASH_BYTES:
        raise _Bad(f"{key}: not {HASH_BYTES} bytes")
    return value


_pack = msgpack.Packer(use_bin_type=True).pack
_OPTIONS_READ: dict[bytes, tuple] = {}  # options as msgpack -> as checked (``_options``)
_OPTIONS_KEPT = 32  # at most this many, each of at most _OPTIONS_KEPT_BYTES as msgpack (a
_OPTIONS_KEPT_BYTES = 16 << 10  # header may hold a megabyte of options: not kept 32 times)


def _options(value) -> tuple:
    """The header's options, checked; options read before (their msgpack bytes, which fix
    every value's type as well as its content: games of one set-up share them) are not walked
    again, the walk being most of the time of reading a header with a card list in it."""
    try:
        key = _pack(value)
    except (TypeError, ValueError, OverflowError):  # (nested past the packer's limit: the
        return _options_checked(value)  # walk says why it is refused)
    known = _OPTIONS_READ.get(key)
    if known is None:
        known = _options_checked(value)
        if len(key) <= _OPTIONS_KEPT_BYTES:
            if len(_OPTIONS_READ) >= _OPTIONS_KEPT:
                _OPTIONS_READ.clear()
            _OPTIONS_READ[key] = known
    return known


def _options_checked(value) -> tuple:
    if type(value) not in (tuple, list):
        raise _Bad("options: not an array")
    out = []
    for pair in value:
        if type(pair) not in (tuple, list) or len(pair) != 2 or type(pair[0]) is not str:
            raise _Bad("options: not an array of [key, value] pairs")
        if out and not out[-1][0] < pair[0]:
            raise _Bad("options: keys not distinct and sorted")
        if not _native(pair[1], 0):
            raise _Bad(f"options: the value of {short(pair[0])} is not msgpack-native")
        out.append((pair[0], pair[1]))
    return tuple(out)


def _native(value, depth: int) -> bool:
    kind = type(value)
    if kind in _SCALARS:
        return True
    if kind in (tuple, list) and depth < _MAX_OPTION_DEPTH:  # (a leaf is not recursed into)
        return all(type(v) in _SCALARS or _native(v, depth + 1) for v in value)
    return False


def _event_table(value) -> tuple:
    if type(value) is not tuple:
        raise _Bad("events: not an array")
    out = []
    for entry in value:
        if (
            type(entry) is not tuple
            or len(entry) != 2
            or type(entry[0]) is not str
            or type(entry[1]) is not int
            or entry[1] < 1
        ):
            raise _Bad("events: not an array of [type name, schema version >= 1]")
        out.append(entry)
    return tuple(out)
