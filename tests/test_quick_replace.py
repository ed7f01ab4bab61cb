"""``quick_replace`` (issue 29, the fast path): a state's quicker ``_replace`` gives what the
standard ``NamedTuple._replace`` gives, for every field of every module state that uses it."""

from __future__ import annotations

from typing import NamedTuple

import pytest

import boardstate as bs
from boardstate.modules.epic_duels._state import EpicState
from boardstate.modules.jedi_duel._state import JediState
from boardstate.rules import quick_replace

STATES = {"jedi-duel": JediState, "epic-duels": EpicState}


def _as_namedtuple_replaces(state, changes):
    """What ``NamedTuple._replace`` makes (its own definition: ``_make`` of the fields)."""
    return type(state)._make(changes.get(f, v) for f, v in zip(state._fields, state))


@pytest.mark.parametrize("module_id", sorted(STATES))
def test_every_field_replaced_as_namedtuple_replaces_it(module_id):
    cls = STATES[module_id]
    assert cls._replace.__qualname__.startswith("quick_replace.")
    state = bs.random_playout(bs.get_module(module_id), ["ann", "ben"], {}, seed=b"r")[0]
    first, last = cls._fields[0], cls._fields[-1]
    for changes in [{name: object()} for name in cls._fields] + [{first: 1, last: 2}, {}]:
        changed = state._replace(**changes)
        assert type(changed) is cls
        expected = _as_namedtuple_replaces(state, changes)
        assert all(a is b for a, b in zip(changed, expected, strict=True))


def test_an_unknown_field_is_refused_as_namedtuple_refuses_it():
    @quick_replace
    class Point(NamedTuple):
        x: int
        y: int = 0

    assert Point(1)._replace(y=5) == Point(1, 5)
    with pytest.raises(ValueError, match="unexpected field names: \\['z'\\]"):
        Point(1)._replace(z=3)
