"""Duel of the Forces reads a command once for what it depends on (``_notation._parsed``: the
players, the seat's hero, the seat, the edition, the text): the same text read again, for
another seat, in another game or edition, gets what a first reading gives it there."""

from __future__ import annotations

import pytest

import boardstate as bs
from boardstate.modules.duel_of_the_forces import _notation

DOTF = "duel-of-the-forces"


def _state(players, **options):
    module = bs.get_module(DOTF)
    return bs.Game.new(module, list(players), options, seed=b"p", created="2026-01-01").state


def _read(state, seat, text) -> str:
    try:
        return repr(_notation.parse(state, seat, text))
    except bs.BoardstateError as exc:
        return f"refused {exc.code} {exc.rule} {exc}"


TEXTS = ["play luke 3", "play han 3", "play 3", "play r2", "keep", "give bob", "give carol", "x"]


@pytest.mark.parametrize("order", [1, -1], ids=["forward", "backward"])
def test_a_text_read_again_means_what_it_means_there(order):
    games = [
        _state(["alice", "bob"]),
        _state(["bob", "alice"], heroes="han,luke"),
        _state(["alice", "bob", "carol"], edition="parlett-english"),
    ]
    cases = [(g, seat, t) for g in games for seat in range(len(g.players)) for t in TEXTS]
    _notation._parsed.cache_clear()
    first = {i: _read(*case) for i, case in list(enumerate(cases))[::order]}
    again = {i: _read(*case) for i, case in enumerate(cases)}
    assert again == first
    assert first[0] == repr(("play", 3)) and first[len(TEXTS)].startswith("refused not-your-hero")
