"""A quicker ``_replace`` for a module's state (a ``NamedTuple``), for the hot loop; and the
state's *draft*, which a fold on the fast path changes in place within one decision.

The standard ``_replace`` builds the new tuple through ``map(kwargs.pop, fields, self)`` and a
``_make`` class method: about 3 µs on a state of 25 fields, and a fold calls it for nearly every
event.  ``quick_replace(State)`` gives the class one that copies the tuple into a list, sets the
named fields and makes the tuple from that: the same result (a test holds the two equal, field
by field) in well under two thirds of the time.

Even so, most of its time is the copy (a list of every field, then a tuple), about 0.5 µs on a
state of 31 fields, and a decision folds several events.  ``drafts_of(State)`` gives the fast
path (``random_playout``'s table) a mutable stand-in for the state: made once when a decision
emits its first event, its fields set in place by the same handlers' ``_replace`` while the
table calls them (``opened``), and frozen into the state once the decision is made.  Between
two events the decision's own code reads it as it would read the state; a ``_replace`` it asks
for itself gets a copy (a state), as ever.
"""

from __future__ import annotations

from types import FunctionType


def quick_replace(cls: type) -> type:
    """Give the ``NamedTuple`` class ``cls`` the quicker ``_replace``; returns ``cls``."""
    index = {name: i for i, name in enumerate(cls._fields)}
    new = tuple.__new__

    def _replace(self, /, **changes):
        values = list(self)
        try:
            for name in changes:
                values[index[name]] = changes[name]
        except KeyError:
            raise _unknown(changes, index) from None
        return new(cls, values)

    _replace.__doc__ = "A copy with the named fields changed (as NamedTuple._replace)."
    cls._replace = _replace
    _QUICK.add(cls)
    return cls


def _unknown(changes, index) -> ValueError:
    return ValueError(f"Got unexpected field names: {sorted(set(changes) - set(index))!r}")


_QUICK: set = set()  # the classes quick_replace has made
_DRAFTS: dict = {}  # class -> its draft class, made on first use (the fast path's only)


def drafts_of(cls: type) -> type | None:
    """The draft class of a state class ``quick_replace`` made (None for any other): made
    from the state's fields (``Draft(*state)``), ``freeze()`` gives the state back."""
    if cls not in _QUICK:
        return None
    made = _DRAFTS.get(cls)
    if made is None:
        made = _DRAFTS[cls] = _draft_class(cls)
    return made


class _Draft:
    """What every draft shares: ``_replace`` in place while ``opened`` (a handler of the
    table's running), else a copy as the state's; never compared, hashed or iterated (a
    draft is no state: ``freeze`` makes one)."""

    __slots__ = ("opened",)

    def _replace(self, /, **changes):
        if not self.opened:  # (the decision's own code: a copy, a state)
            return self.freeze()._replace(**changes)
        try:
            for name in changes:
                setattr(self, name, changes[name])
        except AttributeError:
            raise _unknown(changes, self._fields) from None
        return self

    def __eq__(self, other):
        raise TypeError("a draft is not compared: freeze() it")

    __hash__ = None  # type: ignore[assignment]


def _draft_class(cls: type) -> type:
    """A class of slots named as ``cls``'s fields, with its methods and properties."""
    fields = cls._fields
    if "opened" in fields:
        raise TypeError(f"{cls.__name__} has a field named 'opened': no draft")
    source = (
        f"def __init__(_draft, {', '.join(fields)}):\n"
        + "".join(f"    _draft.{name} = {name}\n" for name in fields)
        + "    _draft.opened = False\n"
        + "def freeze(_draft):\n"
        + f"    return _new(_cls, ({''.join(f'_draft.{name}, ' for name in fields)}))\n"
    )
    namespace = {"_new": tuple.__new__, "_cls": cls}
    exec(source, namespace)  # (once per state class, on the fast path's first use)
    body = {
        name: value
        for name, value in vars(cls).items()
        if name not in fields
        and not name.startswith("__")
        and name not in _NAMED_TUPLES_OWN
        and isinstance(value, (FunctionType, property, staticmethod, classmethod))
    }
    body.update(
        __slots__=fields,
        __init__=namespace["__init__"],
        freeze=namespace["freeze"],
        _fields=fields,
        __qualname__=f"{cls.__qualname__}.Draft",
        __module__=cls.__module__,
        __doc__=f"A draft of {cls.__name__} (boardstate.rules._replace).",
    )
    return type(f"{cls.__name__}Draft", (_Draft,), body)


_NAMED_TUPLES_OWN = frozenset({"_replace", "_make", "_asdict"})
