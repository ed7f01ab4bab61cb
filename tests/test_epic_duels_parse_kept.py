"""Epic Duels reads a command once a game for the verbs whose reading asks the roster, the seat
and the text alone (``_notation.parse``, ``_BY_NAMES``), and keeps its canonical text with it:
every text the rules list anywhere in a game, read again at every position of it by the seat
that acts, means there what a fresh reading (``_notation.read``, past the memo) gives it there,
written as ``_notation.write`` writes it there, refusals included.  (``lay``, ``defend``,
``take`` or ``choose`` among the kept verbs fails the first test, ``heal`` the second; ``keep``,
``pick``, ``backs`` and ``play`` are not caught here: their readings differ only at requests, or
with decks, that these games rarely or never reach.)"""

from __future__ import annotations

import random

import pytest

import boardstate as bs
from boardstate.modules.epic_duels import _notation
from boardstate.testing import random_game

EPIC = "epic-duels"
GAMES = [
    (0, 2, None),
    (3, 4, {"variant": "team"}),  # (a main falls and the game goes on: ``heal``'s default moves)
    (4, 2, {"variant": "master"}),  # (two decks a seat: ``draw ... from TEAM``)
    (2, 3, {"variant": "free-for-all", "board": "kamino"}),
]
TEXTS = 40  # texts of the whole game tried at each position, for each seat that acts there
OWN = 20  # texts of the position's own commands tried there


def _read(state, seat, text, kept=True) -> str:
    """What ``text`` means for ``seat`` there, and the canonical text of that: through the
    memo, or (``kept=False``) read and written anew."""
    try:
        if kept:
            command = _notation.parse(state, seat, text)
            return f"{command!r} {_notation.notation(state, seat, command)}"
        command = _notation.read(state, seat, text)[1]
        return f"{command!r} {_notation.write(state, seat, command)}"
    except bs.BoardstateError as exc:
        return f"refused {exc.code} {exc}"


@pytest.mark.parametrize("seed,players,options", GAMES)
def test_a_kept_reading_is_what_the_text_means_there(seed, players, options):
    module = bs.get_module(EPIC)
    seen: list = []  # (state, seat) at each position, as played

    def position(game):
        seen.extend((game.state, seat) for seat in game.to_act())

    random_game(module, seed, players, options=options, check_each=position)
    rules = module.rules
    texts: dict[str, None] = {}
    for state, seat in seen:
        for command in rules.legal(state, seat):
            text = rules.notation(state, seat, command)
            texts.setdefault(text)
            texts.setdefault(text.upper())  # (read as the text, written as the rules write it)
            verb, _, rest = text.partition(" ")
            if verb == "discard":
                texts.setdefault(f"keep {rest}")
    # (what a player may send besides the rules' own texts: bare values, other players)
    bare = [f"{verb} {n}" for verb in ("lay", "defend", "take") for n in range(1, 7)]
    bare += [f"choose {name}" for name in ("ann", "ben", "carol", "dan")]
    pool = sorted(texts)
    pick = random.Random(seed)
    verbs = set()
    compared = 0
    for state, seat in seen:  # (the rules read a command of a seat that acts only)
        # Read at every position: its own texts and the bare values (a text whose meaning moves
        # is caught where it moves, not only if a sample meets it twice), and a sample of all;
        # also where the players sit otherwise (one roster, two games: ``choose``).
        own = [rules.notation(state, seat, c) for c in rules.legal(state, seat)]
        asked = pick.sample(own, min(OWN, len(own))) + bare + pick.sample(pool, TEXTS)
        moved = state._replace(players=state.players[1:] + state.players[:1])
        for text in asked:
            for there in (state, moved):
                anew = _read(there, seat, text, kept=False)
                assert _read(there, seat, text) == anew, (seat, text)
            verbs.add(text.split()[0])
            compared += 1
    assert compared > 1000 and {"move", "draw", "lay", "defend", "attack", "choose"} <= verbs


def test_a_default_healed_is_read_where_the_text_is_read():
    """``heal CARD`` heals the main unless named, or once the main has fallen the first wounded
    minor (the team game): the same text read after the fall means the minor, so it may not be
    kept.  (``play CARD``'s default moves only for a special card of a two-pawn type, which no
    built-in deck holds.)"""
    from boardstate.modules.epic_duels._state import put

    module = bs.get_module(EPIC)
    s = random_game(module, 3, 4, options={"variant": "team"}, stop_after=12).state
    rs = s.roster
    k = next(k for k, card in enumerate(rs.cards) if card.kind != "special")
    main, minor = rs.chars_of_group(rs.card_group[k])[:2]
    seat = rs.seat_of[main]
    text = _notation.write(s, seat, ("heal", k, main))
    fallen = s._replace(damage=put(put(s.damage, main, rs.dies_at[main]), minor, 1))
    first = _read(s, seat, text)
    assert first == _read(s, seat, text, kept=False) == f"('heal', {k}, {main}) {text}"
    assert _read(fallen, seat, text) == _read(fallen, seat, text, kept=False) != first
