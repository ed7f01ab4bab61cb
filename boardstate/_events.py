"""Events: frozen attrs classes with a stable type name and a schema version.

On disk an event is a positional array ``[code, field, ...]``; the file's header maps each code to
``(type name, schema version)``, never to a Python import path, so classes can move and be renamed
freely.  When a class's schema changes, its version goes up and an *upcaster* turns the old
positional fields into the new ones; old files keep reading.

Event fields hold only msgpack-native values: ints, strings, bytes, bools, None, tuples of these,
and ``Secret`` / ``Reveal`` (which the file format stores as extension types).
"""
from __future__ import annotations

from operator import attrgetter
from typing import Callable

import attrs

Upcaster = Callable[[tuple], tuple]


def event(name: str, version: int = 1, upcasters: dict[int, Upcaster] | None = None):
    """Class decorator: make ``cls`` a frozen attrs event named ``name`` at schema ``version``.

    ``upcasters[v]`` turns the positional fields of version ``v`` into those of ``v + 1``.
    """

    def wrap(cls):
        if not attrs.has(cls):
            cls = attrs.frozen(cls)
        names = tuple(f.name for f in attrs.fields(cls))
        cls.__event_name__ = name
        cls.__event_version__ = version
        cls.__event_upcasters__ = dict(upcasters or {})
        getter = attrgetter(*names) if names else (lambda e: ())
        if len(names) == 1:
            cls.__event_fields__ = lambda e, _g=getter: (_g(e),)
        else:
            cls.__event_fields__ = getter
        return cls

    return wrap


def event_name(cls) -> str:
    return cls.__event_name__


class EventTable:
    """The code ↔ class table of one module (codes are positions in ``spec.events``)."""

    def __init__(self, classes) -> None:
        self.classes = tuple(classes)
        self.code_of = {cls: code for code, cls in enumerate(self.classes)}
        self.by_name = {cls.__event_name__: cls for cls in self.classes}
        if len(self.by_name) != len(self.classes):
            raise ValueError("two event classes share a type name")

    def header(self) -> list:
        return [[cls.__event_name__, cls.__event_version__] for cls in self.classes]

    def encode(self, ev) -> tuple:
        cls = type(ev)
        return (self.code_of[cls], *cls.__event_fields__(ev))

    def decoders(self, file_table) -> list:
        """For a file's ``[[name, version], ...]`` table: per file code, a function fields -> event.

        Raises ``LookupError`` (unknown type) or ``OverflowError`` (newer schema) with a message.
        """
        out = []
        for name, version in file_table:
            cls = self.by_name.get(name)
            if cls is None:
                raise LookupError(f"unknown event type {name!r}")
            if version > cls.__event_version__:
                raise OverflowError(
                    f"event {name!r} has schema {version}, this installation reads up to "
                    f"{cls.__event_version__}")
            steps = [cls.__event_upcasters__[v] for v in range(version, cls.__event_version__)]
            out.append(_decoder(cls, steps))
        return out


def _decoder(cls, steps):
    if not steps:
        return lambda fields: cls(*fields)

    def upcast(fields):
        for step in steps:
            fields = step(tuple(fields))
        return cls(*fields)

    return upcast
