"""Events: frozen attrs classes with a stable type name and a schema version.

On disk an event is a positional array ``[code, field, ...]``; the file's header maps each code to
``(type name, schema version)``, never to a Python import path, so classes can move and be renamed
freely.  When a class's schema changes, its version goes up and an *upcaster* turns the old
positional fields into the new ones; old files keep reading.

Event fields hold only msgpack-native values: ints, strings, bytes, bools, None, tuples of these,
and ``Secret`` / ``Reveal`` (which the file format stores as extension types).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

import attrs

from ._errors import CorruptFile, FutureVersion

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


class EventCodes:
    """The code <-> class table of one file: codes are positions in the file header's
    ``[[name, version], ...]`` list (for a new game, the module's ``spec.events``).

    Decoding upcasts an event written under an older schema to the installed class.  Encoding
    uses the file's own codes, and only for events whose schema the file holds at the installed
    version: an event the file knows only in an older schema cannot be written back into it
    (``current`` is False then, and the game must be migrated before anything is appended).
    """

    def __init__(self, classes, file_table=None) -> None:
        classes = tuple(classes)
        by_name = {cls.__event_name__: cls for cls in classes}
        if len(by_name) != len(classes):
            raise ValueError("two event classes share a type name")
        if file_table is None:
            file_table = tuple((cls.__event_name__, cls.__event_version__) for cls in classes)
        self.file_table = tuple((str(n), int(v)) for n, v in file_table)
        self.code_of: dict = {}
        decoders = []
        for code, (name, version) in enumerate(self.file_table):
            cls = by_name.get(name)
            if cls is None:
                raise CorruptFile(f"unknown event type {name!r}", code="unknown-event")
            if version > cls.__event_version__:
                raise FutureVersion(
                    f"event {name!r} has schema {version}, this installation reads up to "
                    f"{cls.__event_version__}; upgrade the module"
                )
            if version == cls.__event_version__:
                self.code_of.setdefault(cls, code)
            steps = [cls.__event_upcasters__[v] for v in range(version, cls.__event_version__)]
            decoders.append(_decoder(cls, steps))
        self.decoders = decoders
        self.stale = tuple(
            f"{name} v{version} (installed: v{by_name[name].__event_version__})"
            for name, version in self.file_table
            if version < by_name[name].__event_version__
        )
        self.missing = tuple(cls.__event_name__ for cls in classes if cls not in self.code_of)
        # Every installed event can be written, each under its installed schema.
        self.current = not self.stale and not self.missing

    def encodes(self, ev) -> bool:
        return type(ev) in self.code_of

    def encode(self, ev) -> tuple:
        cls = type(ev)
        return (self.code_of[cls], *cls.__event_fields__(ev))


def _decoder(cls, steps):
    if not steps:
        return lambda fields: cls(*fields)

    def upcast(fields):
        for step in steps:
            fields = step(tuple(fields))
        return cls(*fields)

    return upcast
