"""Tables of Star Wars Epic Duels set up by hand, and the engine's way of playing on them."""

from __future__ import annotations

import pytest

import boardstate as bs
from boardstate.modules.epic_duels import MODULE
from boardstate.modules.epic_duels._notation import card_label, seat_cards
from boardstate.modules.epic_duels._space import square_name
from boardstate.modules.epic_duels._state import ACT, NOWHERE, Frame
from boardstate.rules import HIDDEN, Choice, seats_mask
from boardstate.testing import Rng, decide, held_by, initial_state, start, validate

RULES = MODULE.rules
PLAYERS = ("ann", "ben", "cat", "dan", "eve", "fay")


def square(s, name: str) -> int:
    board = s.roster.board
    col, row = ord(name[0]) - ord("a"), board.height - int(name[1:])
    return row * board.width + col


def char(s, name: str) -> int:
    return next(i for i, c in enumerate(s.roster.chars) if name in (c.id, c.short))


def card(s, seat: int, label: str) -> int:
    """A card of the seat's decks by its label."""
    return next(k for k in seat_cards(s, seat) if card_label(s, seat, k).lower() == label.lower())


def table(
    characters="obi-wan,dooku",
    board="geonosis",
    at=None,
    hands=None,
    piles=None,
    discards=None,
    damage=None,
    turn=0,
    phase=ACT,
    die=0,
    actions=2,
    options=None,
    revision=None,
):
    """A table in play: ``at`` maps character ids to squares (every other character is off the
    board), ``hands`` lists card labels per seat, ``piles``/``discards`` per group (a pile's
    cards are secrets of the group's player, as ``Rng.arrange`` makes them; a draw takes one at
    a random position; a group is a main character with its minors and deck, one per seat but
    in Master Play).  One player per comma-separated entry of ``characters``; the newest rules
    revision unless ``revision`` is given."""
    raw = {"characters": characters, "board": board, **(options or {})}
    names = PLAYERS[: characters.count(",") + 1]
    s = start(MODULE, initial_state(MODULE, names, raw, revision=revision))[1]
    seats = range(len(names))
    groups = range(len(s.roster.teams))
    rng = Rng(b"table", b"setup")
    squares = [NOWHERE] * len(s.roster.chars)
    for name, where in (at or {}).items():
        squares[char(s, name)] = square(s, where)
    dmg = [0] * len(s.roster.chars)
    for name, n in (damage or {}).items():
        dmg[char(s, name)] = n

    def of_group(g, label):
        return card(s, s.roster.group_seat[g], label)

    def owned(g):
        return seats_mask(s.roster.group_seat[g])

    in_hands = tuple(
        tuple(rng.secret(card(s, p, x), seats_mask(p)) for x in (hands[p] if hands else ()))
        for p in seats
    )

    group_of = s.roster.card_group
    return s._replace(
        square=tuple(squares),
        damage=tuple(dmg),
        hands=in_hands,
        backs=tuple(tuple(group_of[c.value] for c in h) for h in in_hands),
        piles=tuple(tuple(rng.secret(of_group(g, x), owned(g)) for x in piles[g]) for g in groups)
        if piles is not None
        else s.piles,
        discards=tuple(
            tuple(of_group(g, x) for x in (discards[g] if discards else ())) for g in groups
        ),
        order=tuple(seats),
        turn=turn,
        turns=1,
        phase=phase,
        queue=(turn,),
        die=die,
        actions=actions,
    )


def command(s, seat_name: str, text: str):
    return RULES.parse(s, s.players.index(seat_name), text)


def play(s, seat_name: str, text: str, seed: bytes = b"t"):
    return played(s, seat_name, text, seed)[1]


def played(s, seat_name: str, text: str, seed: bytes = b"t"):
    """``(events, state after them)``: parsed, validated and decided as the engine does, and
    decided alike on the player's own copy (the hidden-information contract)."""
    seat = s.players.index(seat_name)
    c = RULES.parse(s, seat, text)
    validate(MODULE, s, seat, c)
    events, after = decide(MODULE, s, ((seat, c),), seed=seed, stream=b"move")
    mine = decide(MODULE, held_by(s, seat), ((seat, c),), seed=seed, stream=b"move")[0]
    assert mine == events
    return events, after


def refused(s, seat_name: str, text: str) -> bs.IllegalCommand:
    with pytest.raises(bs.IllegalCommand) as info:
        play(s, seat_name, text)
    return info.value


def attack(s, attacker: str, defender: str, lay: str, defend: str | None):
    """A whole combat: declare, lay face down, defend (None: no defence), turn over."""
    seat = s.players[s.turn]
    s = play(s, seat, f"attack {defender} with {attacker}")
    assert RULES.choice(s) == Choice.FACE_DOWN
    laid = command(s, seat, f"lay {lay}")
    validate(MODULE, s, s.turn, laid)
    s = decide(MODULE, s, ((s.turn, HIDDEN),))[1]
    other = s.players[s.queue[0]]
    s = play(s, other, "no defence" if defend is None else f"defend {defend}")
    assert RULES.choice(s) == Choice.TURN_OVER
    return decide(MODULE, s, ((s.turn, laid),), seed=b"t", stream=b"turn")[1]


def hand(s, seat_name: str) -> list[str]:
    seat = s.players.index(seat_name)
    return sorted(card_label(s, seat, c.value) for c in s.hands[seat])


def wounds(s, name: str) -> int:
    return s.damage[char(s, name)]


def where(s, name: str) -> str | None:
    sq = s.square[char(s, name)]
    return None if sq == NOWHERE else square_name(s.roster.board, sq)


def acting(s) -> str:
    return s.players[s.queue[0]]


def resolving(s, seat: int, label: str, me: str) -> Frame:
    return Frame(seat, card(s, seat, label), char(s, me))
