"""Star Wars Epic Duels: every decision re-derived on every player's copy.

In the peer mode a copy holds its own player's cards and, for a record it receives, the
openings of the cards that record turns face up: nothing else.  Each copy re-runs the record's
decision with that, and compares every event; a copy that cannot re-run it checks it only in
part, and falls out of step if the decision then needs randomness (the next die).  So a step
about a hidden hand is decided from public values and the record's own reveals: the hand's owner
names what is turned over, and the record turns over exactly that.

The cards that once read a hand the deciding copy does not hold are played here on two copies:
the acting copy (its own cards only) makes the record, the other copy re-derives it with the
record's openings.  Random games then check every decision on every copy, and peer mode games
by mail play the cards to the end with every copy in step.
"""

from __future__ import annotations

import random

import attrs
import pytest
import test_peer
from epic_duels_table import acting, attack, command, hand, play, table

import boardstate as bs
from boardstate._game import Game
from boardstate._peer import UNMADE, same_but_unmade
from boardstate._secrets import committed_form
from boardstate.modules.epic_duels import MODULE
from boardstate.modules.epic_duels._state import (
    EFFECT,
    MOVE,
    RESPOND,
    Discarded,
    HandShown,
    TurnBegan,
)
from boardstate.rules import HIDDEN, InvalidCommand, Reveal, Secret, SecretUnavailable
from boardstate.testing import Rng, held_by, random_game
from boardstate.testing._play import Decider

RULES = MODULE.rules
SEED = b"copies"


class OtherCopy(Rng):
    """The randomness of a copy that does not make the record: the same numbers (every copy
    makes them alike), but a value shown to some players only is made by the acting copy
    alone.  Here it stands in by its owners, as ``PeerRng`` makes it (``UNMADE``): the
    referee takes its commitment from the record, and the letter brings its reader the
    opening."""

    __slots__ = ("made",)

    def __init__(self, seed: bytes, stream: bytes) -> None:
        super().__init__(seed, stream)
        self.made = 0

    def secret(self, value, owners: int = 0) -> Secret:
        self.salt()  # (the numbers after it stay in step with the acting copy's)
        self.made += 1
        return Secret(UNMADE + self.made.to_bytes(8, "big"), owners)


def reveals(events) -> dict:
    """The openings a record brings: every ``Reveal`` in its events, by commitment."""
    found: dict = {}

    def walk(value):
        if isinstance(value, Reveal):
            found[value.commitment] = value
        elif isinstance(value, tuple):
            for v in value:
                walk(v)
        elif attrs.has(type(value)):
            for field in attrs.fields(type(value)):
                walk(getattr(value, field.name))

    walk(tuple(events))
    return found


def form(events) -> tuple:
    return tuple(
        (type(e).__event_name__, committed_form(type(e).__event_fields__(e))) for e in events
    )


def rederived(state, moves, seed: bytes, stream: bytes):
    """``(events, state after)`` of ``moves`` made on the acting copy (it holds its own cards
    only, and no other player's opening), each other copy re-deriving the record: with the
    record's openings alone it must run the decision to its end (no ``SecretUnavailable``) and
    give the same events, a shown value's stand-in aside."""
    decider = Decider(MODULE)
    seat = moves[0][0]
    events = decider.decide(held_by(state, seat), moves, Rng(seed, stream))[0]
    full, after = decider.decide(state, moves, Rng(seed, stream))
    assert form(full) == form(events)  # (the acting copy needs nothing it does not hold)
    opened = reveals(events)
    for copy in range(len(state.players)):
        if copy == seat:
            continue
        mine, _ = decider.decide(
            held_by(state, copy), moves, OtherCopy(seed, stream), opened or None
        )
        assert same_but_unmade(form(mine), form(events)), f"copy {copy} differs"
    return events, after


def answered(s, name: str, text: str, seed: bytes = SEED):
    """``name``'s command parsed and checked at their own copy (the only one that can judge
    it), then made there and re-derived on every other copy."""
    seat = s.players.index(name)
    c = RULES.parse(RULES.view(s, seat), seat, text)
    assert c in RULES.legal(RULES.view(s, seat), seat)
    return rederived(s, ((seat, c),), seed, b"move")


def cannot_judge(s, seat: int) -> None:
    """Every other copy's ``legal`` says it cannot judge (the referee's path that still runs
    the decision and compares every event)."""
    for copy in s.seats:
        if copy != seat:
            with pytest.raises(SecretUnavailable):
                RULES.legal(RULES.view(s, copy), seat)


def turns_over(events, seat: int) -> list[int]:
    """The cards a record turns over from ``seat``'s hand."""
    return [c.value for e in events if type(e) is Discarded and e.seat == seat for c in e.cards]


# ---------------------------------------------------------------------------------- the cards
def test_your_skills_are_not_complete_is_answered_by_naming_the_special_cards():
    """Your Skills Are Not Complete: "An opponent shows their hand and discards every special
    card in it."  Ann answers by naming them; her copy alone lists the answer.  The turn ends
    in the same decision (ben's last action was the card), so ben's copy must re-run it to
    the next die."""
    s = table(
        characters="obi-wan,vader",
        at={"obi-wan": "a1", "vader": "e4"},
        hands=[
            ["Force Balance", "Jedi Block", "obi-wan 5/1", "Force Quickness"],
            ["Your Skills Are Not Complete"],
        ],
        turn=1,
        actions=1,
    )
    hands = s.hands
    events, s = rederived(s, ((1, command(s, "ben", "play your skills")),), SEED, b"move")
    assert s.phase == RESPOND and acting(s) == "ann" and s.request[0] == "match"
    (answer,) = RULES.legal(RULES.view(s, 0), 0)
    assert RULES.notation(s, 0, answer) == "discard Force Quickness, Force Balance"
    cannot_judge(s, 0)
    events, s = answered(s, "ann", "discard force balance, force quickness")
    assert hand(s, "ann") == ["Jedi Block", "obi-wan 5/1"]
    (shown,) = [e for e in events if type(e) is HandShown]
    assert (shown.seat, shown.to, len(shown.cards)) == (0, 1, 4)
    discarded = [e for e in events if type(e) is Discarded]
    assert [e.positions for e in discarded] == [(3, 0)]
    assert [c.commitment for c in discarded[0].cards] == [
        hands[0][3].commitment,
        hands[0][0].commitment,
    ]  # (exactly those hand secrets)
    assert any(type(e) is TurnBegan for e in events) and s.turn == 0 and s.phase == MOVE


def test_your_skills_are_not_complete_without_a_special_card_is_answered_by_show():
    s = table(
        characters="obi-wan,vader",
        at={"obi-wan": "a1", "vader": "e4"},
        hands=[["Jedi Block", "obi-wan 5/1"], ["Your Skills Are Not Complete"]],
        turn=1,
        actions=1,
    )
    _, s = rederived(s, ((1, command(s, "ben", "play your skills")),), SEED, b"move")
    assert RULES.legal(RULES.view(s, 0), 0) == [("show",)]
    cannot_judge(s, 0)
    events, s = answered(s, "ann", "show")
    assert turns_over(events, 0) == [] and hand(s, "ann") == ["Jedi Block", "obi-wan 5/1"]
    assert any(type(e) is TurnBegan for e in events)


def test_i_will_not_fight_you_turns_over_both_hands_every_copy_alike():
    """I Will Not Fight You: "You and an opponent show your hands and discard every card
    with an attack value above 1."  Ann's own hand is turned over in her own decision (nobody
    is asked): her copy finds the cards, and ben's copy the same ones among those the record
    turns over.  Ben then names his."""
    s = table(
        characters="luke,vader",
        at={"luke": "a1", "vader": "e4"},
        hands=[
            ["I Will Not Fight You", "luke 5/1", "luke 1/4", "luke 4/1", "Children of the Force"],
            ["vader 4/1", "vader 1/4", "vader 5/1"],
        ],
        actions=1,
    )
    events, s = rederived(s, ((0, command(s, "ann", "play i will not fight")),), SEED, b"move")
    assert hand(s, "ann") == ["Children of the Force", "luke 1/4"]
    assert [e.positions for e in events if type(e) is Discarded] == [(2, 0)]
    assert acting(s) == "ben" and s.phase == RESPOND
    (answer,) = RULES.legal(RULES.view(s, 1), 1)
    assert RULES.notation(s, 1, answer) == "discard vader 5/1, vader 4/1"
    cannot_judge(s, 1)
    events, s = answered(s, "ben", "discard vader 5/1, vader 4/1")
    assert hand(s, "ben") == ["vader 1/4"]
    assert any(type(e) is TurnBegan for e in events) and s.turn == 1


def test_anger_names_the_cards_discarded_never_the_card_kept():
    """Anger: "After the combat, discard all but one card of your hand."  The discards go face
    up (as on the table); ann says ``keep C`` at her copy, which reads it as ``discard`` the
    rest, so the record names no card she kept and ben's copy carries it out without it."""
    s = table(
        characters="anakin,dooku",
        at={"anakin": "e4", "dooku": "e3"},
        hands=[["Anger", "anakin 5/1", "anakin 4/1", "padme 4/1", "anakin 4/1"], []],
        actions=1,
    )
    s = attack(s, "anakin", "dooku", "anger", None)  # (the turn over: see the next test)
    assert s.phase == EFFECT and acting(s) == "ann" and s.request[0] == "keep"
    assert len(RULES.legal(RULES.view(s, 0), 0)) == 3  # one for each card she may keep
    cannot_judge(s, 0)
    before = s.hands[0]  # anakin 5/1, anakin 4/1, padme 4/1, anakin 4/1
    answer = RULES.parse(RULES.view(s, 0), 0, "keep anakin 4/1")
    assert RULES.notation(s, 0, answer) == "discard anakin 5/1, anakin 4/1, padme 4/1"
    events, s = answered(s, "ann", "keep anakin 4/1")
    assert hand(s, "ann") == ["anakin 4/1"] and s.hands[0] == (before[3],)
    (discarded,) = [e for e in events if type(e) is Discarded]
    assert discarded.positions == (2, 1, 0)  # face up: the three others, found by their reveals
    assert [c.commitment for c in discarded.cards] == [c.commitment for c in before[2::-1]]
    assert any(type(e) is TurnBegan for e in events) and s.turn == 1


def test_anger_turned_over_in_the_attackers_decision_is_rederived_by_the_defender():
    """The attack card turned over asks ann to keep a card: ben's copy re-runs the turn-over
    (the card's reveal comes with it), then her answer."""
    s = table(
        characters="anakin,dooku",
        at={"anakin": "e4", "dooku": "e3"},
        hands=[["Anger", "anakin 5/1", "padme 4/1"], ["dooku 1/4"]],
        actions=1,
    )
    s = play(s, "ann", "attack dooku with anakin")
    laid = command(s, "ann", "lay anger")
    s = Decider(MODULE).decide(s, ((0, HIDDEN),), Rng(SEED, b"lay"))[1]
    s = play(s, "ben", "no defence")
    events, s = rederived(s, ((0, laid),), SEED, b"turn")
    assert s.phase == EFFECT and s.request[0] == "keep"
    events, s = answered(s, "ann", "keep padme 4/1")
    assert hand(s, "ann") == ["padme 4/1"] and len(s.discards[0]) == 2  # (and Anger)


def test_insight_shows_the_hand_every_copy_alike():
    """The hand shown to the card's player alone: made at the owner's copy; every other
    copy takes the copies' commitments from the record and re-derives the rest."""
    s = table(
        characters="yoda,dooku",
        at={"yoda": "a1", "dooku": "e4"},
        hands=[["Insight"], ["dooku 5/1", "Force Drain"]],
        actions=1,
    )
    _, s = rederived(s, ((0, command(s, "ann", "play insight")),), SEED, b"move")
    events, s = answered(s, "ben", "show")
    assert [type(e) for e in events if type(e) is HandShown] == [HandShown]
    events, s = answered(s, "ann", "pick force drain")
    assert hand(s, "ben") == ["dooku 5/1"] and any(type(e) is TurnBegan for e in events)


def test_keep_is_read_at_the_owners_copy_only():
    s = table(
        characters="anakin,dooku",
        at={"anakin": "e4", "dooku": "e3"},
        hands=[["Anger", "anakin 5/1", "padme 4/1"], []],
    )
    with pytest.raises(InvalidCommand) as info:  # no card asks for it now
        RULES.parse(s, 0, "keep padme 4/1")
    assert info.value.code == "wrong-phase"
    s = attack(s, "anakin", "dooku", "anger", None)
    with pytest.raises(InvalidCommand):  # another copy cannot read it (the record never
        RULES.parse(RULES.view(s, 1), 0, "keep padme 4/1")  # holds it)
    with pytest.raises(InvalidCommand) as info:
        RULES.parse(s, 0, "keep anakin 4/1")
    assert info.value.code == "not-in-hand"


# ---------------------------------------------------------------------------------- whole games
class _EveryCopy:
    """Stands in for a game's ``Decider``: each decision is re-derived on every other
    player's copy with the record's openings, and must give the same events."""

    def __init__(self, game: Game, counts: dict) -> None:
        self._inner = game.decider
        self._counts = counts

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def decide(self, state, moves, rng, openings=None):
        events, after = self._inner.decide(state, moves, rng, openings)
        (seat, _), *_ = moves
        opened = dict(openings or {})
        opened.update(reveals(events))
        for copy in range(len(state.players)):
            if copy == seat:
                continue
            theirs = OtherCopy(rng._key, rng._stream)
            mine, _ = self._inner.decide(held_by(state, copy), moves, theirs, opened or None)
            assert same_but_unmade(form(mine), form(events)), (moves, copy)
        kind = moves[0][1][0] if moves[0][1] is not HIDDEN else "lay"
        self._counts[kind] = self._counts.get(kind, 0) + 1
        return events, after


GAMES = (
    (2, {"characters": "luke,vader"}),
    (2, {"characters": "anakin,emperor"}),
    (2, {"characters": "yoda,dooku"}),
    (4, {"variant": "team", "characters": "luke,vader,anakin,maul"}),
)


@pytest.mark.parametrize(("players", "options"), GAMES, ids=[str(i) for i in range(len(GAMES))])
def test_every_decision_of_random_games_is_rederived_on_every_copy(players, options):
    counts: dict = {}

    class EveryCopy(Game):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self.decider = _EveryCopy(self, counts)

    for seed in range(3):
        random_game(MODULE, seed, players, options=options, game_class=EveryCopy)
    assert counts.get("play", 0) > 0 and counts.get("lay", 0) > 0
    assert counts.get("discard", 0) + counts.get("show", 0) > 0  # (answers about a hand)


# ---------------------------------------------------------------------------------- the peer mode
class PeerTable(test_peer.Table):
    """test_peer's one copy per player, mail between them, for an Epic Duels peer game."""

    def __init__(self, options: dict, rng_seed: int) -> None:
        from boardstate._fileformat import encode_public, parse_raw
        from boardstate._referee import verify

        names = test_peer.NAMES[:2]
        secrets = [bytes([rng_seed, seat]) * 16 for seat in range(len(names))]
        self.keys = [test_peer.key_of(secret) for secret in secrets]
        first = bs.Game.new(
            MODULE,
            names,
            options,
            created="2026-11-22T00:00:00+00:00",
            seed_salt=bytes([rng_seed]) * 32,
            trust="peer",
            seat=0,
            peer_secret=secrets[0],
        )
        first.signer = self.keys[0].sign
        first.join(0, test_peer._public(self.keys[0]))
        invite = encode_public(first)
        self.copies = [first]
        game = verify(parse_raw(invite, "invite")).game
        game.header = attrs.evolve(game.header, viewer=1, peer_secret=secrets[1])
        game.signer = self.keys[1].sign
        self.copies.append(game)
        self.rng = random.Random(rng_seed)
        game.join(1, test_peer._public(self.keys[1]))


HAND_CARDS = ("your skills", "i will not fight", "anger", "insight")


@pytest.mark.parametrize(
    ("characters", "seed"), [("luke,vader", 1), ("anakin,dooku", 3), ("yoda,emperor", 3)]
)
def test_a_peer_game_with_the_hand_cards_stays_in_step_on_every_copy(characters, seed):
    """Played by mail in the peer mode, the cards above whenever they may be: each copy
    re-runs every record (a decision that ends the turn rolls the next die on every copy, or
    the copies would fall out of step: "no deal is due"), and every copy verifies."""
    from boardstate._fileformat import encode_game, parse_raw
    from boardstate._referee import verify

    table_ = PeerTable({"characters": characters}, seed)
    table_.settle()
    lead = table_.copies[0]
    asked = set()
    for _ in range(3000):
        if lead.outcome() is not None:
            break
        (seat,) = lead.to_act()
        game = table_.copies[seat]
        if game.state.request:
            asked.add(game.state.request[0])
        legal = game.legal(seat)
        chosen = [c for c in legal if any(w in c.lower() for w in HAND_CARDS)]
        game.play(seat, (chosen or [table_.rng.choice(legal)])[0])
        table_.settle()
    assert lead.outcome() is not None
    assert len({tuple(r.hash for r in c.records) for c in table_.copies}) == 1
    for seat, copy in enumerate(table_.copies):
        verdict = verify(parse_raw(encode_game(copy, viewer=seat), "copy"))
        assert verdict.ok, verdict.failure
    commands = " | ".join(r.command for r in lead.records)
    wanted = {
        "luke,vader": ("match",),
        "anakin,dooku": ("keep",),
        "yoda,emperor": ("show", "pick"),
    }[characters]
    assert set(wanted) <= asked, (asked, commands)
