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


def _read(state, seat, text, kept=True) -> str:
    """What ``text`` means for ``seat``: as the rules read it, or (``kept=False``) read anew,
    past the memo."""
    try:
        if kept:
            return repr(_notation.parse(state, seat, text))
        anew = _notation._parsed.__wrapped__
        return repr(anew(state.players, state.heroes[seat], seat, state.edition, text))
    except bs.BoardstateError as exc:
        return f"refused {exc.code} {exc.rule} {exc}"


TEXTS = ["play luke 3", "play han 3", "play 3", "play r2", "keep", "give bob", "give carol", "x"]


@pytest.mark.parametrize("order", [1, -1], ids=["forward", "backward"])
def test_a_text_read_again_means_what_it_means_there(order):
    games = [
        _state(["alice", "bob"]),
        _state(["bob", "alice"], heroes="han,luke"),
        _state(["alice", "bob", "carol"], edition="parlett-english"),
        _state(["alice", "bob"], heroes="han,luke"),  # (the first's players, other heroes)
        _state(["bob", "alice"]),  # (the first's heroes, the players the other way round)
    ]
    cases = [(g, seat, t) for g in games for seat in range(len(g.players)) for t in TEXTS]
    anew = {i: _read(*case, kept=False) for i, case in enumerate(cases)}
    _notation._parsed.cache_clear()
    first = {i: _read(*case) for i, case in list(enumerate(cases))[::order]}
    again = {i: _read(*case) for i, case in enumerate(cases)}
    assert first == anew and again == anew  # (a memo's answers against fresh readings)
    assert anew[0] == repr(("play", 3)) and anew[len(TEXTS)].startswith("refused not-your-hero")
