"""The fast path's drafts (boardstate/rules/_replace.py, boardstate/_simulate.py): a decision's
events folded into one draft of the state, in place, make the very states the copying fold
makes, in every game and variant; and a draft is changed only by the handlers the table runs.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest
from test_is_legal import GAMES  # (players, variants and boards varied)

import boardstate as bs
from boardstate import Module, _simulate
from boardstate.modules.epic_duels._state import EpicState
from boardstate.modules.jedi_duel._state import JediState
from boardstate.rules import quick_replace
from boardstate.rules._replace import drafts_of
from conftest import all_modules

DRAFTED = {"epic-duels": EpicState, "jedi-duel": JediState}


def _a_state(module_id: str):
    return bs.random_playout(bs.get_module(module_id), ["ann", "ben"], {}, seed=b"d")[0]


@pytest.mark.parametrize("module_id", sorted(DRAFTED))
def test_a_draft_freezes_into_its_state_and_changes_in_place_only_while_opened(module_id):
    state = _a_state(module_id)
    cls = type(state)
    assert cls is DRAFTED[module_id]
    draft = drafts_of(cls)(*state)
    frozen = draft.freeze()
    assert type(frozen) is cls and all(a is b for a, b in zip(frozen, state, strict=True))
    assert draft.seats == state.seats  # (the state's own properties and methods)
    first, last = cls._fields[0], cls._fields[-1]
    copy = draft._replace(**{first: "mine"})  # the decision's own code: a copy, a state
    assert type(copy) is cls and getattr(copy, first) == "mine"
    assert getattr(draft, first) is getattr(state, first)
    draft.opened = True  # (as the table does around a handler)
    assert draft._replace(**{first: 1, last: 2}) is draft
    assert (getattr(draft, first), getattr(draft, last)) == (1, 2)
    assert draft.freeze() == state._replace(**{first: 1, last: 2})
    for opened in (True, False):
        draft.opened = opened
        with pytest.raises(ValueError, match="unexpected field names: \\['nothing'\\]"):
            draft._replace(nothing=1)
    with pytest.raises(TypeError):
        draft == draft  # noqa: B015 (a draft is never compared: it is no state)
    with pytest.raises(TypeError):
        hash(draft)


def test_an_epic_draft_answers_as_its_state():
    state = _a_state("epic-duels")
    draft = drafts_of(EpicState)(*state)
    assert draft.over == state.over
    assert [draft.alive(c) for c in range(len(state.square))] == [
        state.alive(c) for c in range(len(state.square))
    ]
    assert [draft.on_board(c) for c in range(len(state.square))] == [
        state.on_board(c) for c in range(len(state.square))
    ]


def test_only_states_made_by_quick_replace_have_drafts():
    class Plain(NamedTuple):
        x: int

    @quick_replace
    class Quick(NamedTuple):
        x: int
        y: int = 0

    assert drafts_of(Plain) is None and drafts_of(tuple) is None
    assert drafts_of(Quick) is drafts_of(Quick)  # (made once)
    assert drafts_of(Quick)(1, 2).freeze() == Quick(1, 2)

    @quick_replace
    class Opened(NamedTuple):
        opened: bool

    with pytest.raises(TypeError, match="opened"):
        drafts_of(Opened)


def _states(module: Module, seed: bytes, players, options, bot_seed: int) -> list:
    """Every state a playout reaches, in order (each one a decision made)."""
    seen: list = []
    asked = module.rules.outcome

    def outcome(state):
        seen.append(state)
        return asked(state)

    recording_rules = type("Recording", (type(module.rules),), {"outcome": staticmethod(outcome)})
    recording = Module(module.spec, recording_rules())
    bs.random_playout(recording, players, options, seed=seed, bot_seed=bot_seed)
    return seen


@pytest.mark.parametrize("module", all_modules(), ids=lambda m: m.spec.id)
def test_a_playout_folded_in_drafts_reaches_the_states_the_copying_fold_reaches(
    module, monkeypatch
):
    games = GAMES.get(module.spec.id, [(seed, None, None) for seed in range(4)])
    drafting = module.spec.id in DRAFTED
    settled = []
    real_settled = _simulate._Drafting.settled

    def counting(table):
        settled.append(1)
        return real_settled(table)

    monkeypatch.setattr(_simulate._Drafting, "settled", counting)
    for seed, count, options in games:
        players = [f"p{i}" for i in range(count or module.spec.min_players)]
        for bot_seed in range(3 if drafting else 1):
            key = b"drafts-%d" % seed
            settled.clear()
            drafted = _states(module, key, players, dict(options or {}), bot_seed)
            assert bool(settled) == drafting  # (the drafts are what is tested)
            with monkeypatch.context() as copying:
                copying.setattr(_simulate, "drafts_of", lambda cls: None)
                copied = _states(module, key, players, dict(options or {}), bot_seed)
            assert len(drafted) == len(copied) > 2
            for a, b in zip(drafted, copied, strict=True):
                assert type(a) is type(b) and a == b
