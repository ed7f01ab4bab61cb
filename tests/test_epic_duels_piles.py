"""Star Wars Epic Duels, rules revision 2: draw piles without a dealer.

Every draw pile is its player's own (``Rng.arrange``: secrets owned by that player, never by
nobody), a draw takes the secret at a random position and moves that very secret into the hand,
"the top N cards" are N cards drawn at random for a look, and a search of the draw pile is its
player's own look through it.  Decisions move another player's pile secrets but never read them:
each command below is decided alike on a copy that holds none of the other players' secrets.
"""

from __future__ import annotations

import attrs
import pytest
from epic_duels_table import acting, card, char, hand, play, played, table

import boardstate as bs
from boardstate.modules.epic_duels import MODULE, _effects
from boardstate.modules.epic_duels._state import (
    EFFECT,
    CardDrawn,
    Frame,
    PileReshuffled,
    without,
)
from boardstate.rules import Reveal, Secret, Setup, Table, seats_mask
from boardstate.testing import (
    CREATED,
    Rng,
    check_hidden_information,
    decide,
    held_by,
    initial_state,
    random_game,
    registered,
)

RULES = MODULE.rules


def secrets_in(value, kind=Secret):
    """Every ``Secret`` (or ``kind``) in an event, a frame or a tuple of them."""
    if isinstance(value, kind):
        yield value
    elif isinstance(value, tuple):
        for v in value:
            yield from secrets_in(v, kind)
    elif attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            yield from secrets_in(getattr(value, field.name), kind)


class NoDealer(Rng):
    """The randomness of a copy without a dealer: a secret owned by nobody fails the test;
    ``arranged`` keeps ``(owner, cards)`` of every pile arranged."""

    def __init__(self, seed: bytes) -> None:
        super().__init__(seed, b"record:0")
        self.arranged: list[tuple[int, list]] = []

    def secret(self, value, owners: int = 0):
        assert owners, "a secret owned by nobody: the peer mode has no dealer to hold it"
        return super().secret(value, owners)

    def arrange(self, items, owner: int) -> tuple:
        items = tuple(items)
        self.arranged.append((owner, sorted(items)))
        return super().arrange(items, owner)


def decided_alike_by_everyone(s, seat: int, command, seed: bytes = b"t"):
    """``(events, state after)`` of ``seat``'s command, checked to come out the same on every
    player's copy (each holding only its own secrets, and the openings of what the record
    turns face up: a peer mode copy)."""
    events, after = decide(MODULE, s, ((seat, command),), seed=seed, stream=b"move")
    opened = {r.commitment: r for r in secrets_in(tuple(events), Reveal)}
    for copy in range(len(s.players)):
        mine = decide(
            MODULE, held_by(s, copy), ((seat, command),), seed=seed, stream=b"move", openings=opened
        )
        assert mine[0] == events
    return events, after


# ---------------------------------------------------------------------------------- set-up
@pytest.mark.parametrize(
    ("players", "options"),
    [
        (("ann", "ben"), {"characters": "obi-wan,dooku"}),
        (("ann", "ben"), {"variant": "master", "characters": "obi-wan+yoda,dooku+maul"}),
        (("ann", "ben", "cat", "dan"), {"variant": "team"}),
    ],
)
def test_every_pile_is_arranged_for_its_player_at_setup(players, options):
    state = initial_state(MODULE, players, options)
    rng = NoDealer(b"setup")
    table_ = Table(state, RULES.evolve, rng)
    RULES.start(table_)
    s = table_.state
    rs = s.roster
    assert [owner for owner, _ in rng.arranged] == list(rs.group_seat)
    assert [cards for _, cards in rng.arranged] == [sorted(d) for d in rs.decks]
    for g, pile in enumerate(s.piles):
        mask = seats_mask(rs.group_seat[g])
        assert pile and all(c.owners == mask for c in pile)
    for seat in s.seats:
        assert all(c.owners == seats_mask(seat) for c in s.hands[seat])
        mine = [g for g in range(len(s.piles)) if rs.group_seat[g] == seat]
        assert len(mine) == (2 if options.get("variant") == "master" else 1)
        for copy in s.seats:  # the pile's player sees it in their view; nobody else does
            viewed = RULES.view(s, copy)
            assert all(c.known == (copy == seat) for g in mine for c in viewed.piles[g])


def test_the_pile_drawn_at_setup_is_the_arranged_pile_less_the_hand():
    state = initial_state(MODULE, ("ann", "ben"), {"characters": "obi-wan,dooku"}, revision=2)
    rng = NoDealer(b"setup")  # (revision 3 deals once the minors are placed)
    table_ = Table(state, RULES.evolve, rng)
    RULES.start(table_)
    arranged = table_.events[1].piles  # PilesShuffled, after the cast
    s = table_.state
    for seat in s.seats:
        assert set(s.hands[seat]) | set(s.piles[seat]) == set(arranged[seat])
        assert len(s.hands[seat]) == 4 and len(s.piles[seat]) == len(arranged[seat]) - 4


# ---------------------------------------------------------------------------------- drawing
def test_a_draw_moves_a_secret_of_the_drawer_from_a_random_position():
    labels = [
        "obi-wan 5/1",
        "obi-wan 4/1",
        "obi-wan 4/2",
        "obi-wan 3/3",
        "Jedi Block",
        "Force Control",
    ]
    s = table(at={"obi-wan": "e4", "dooku": "a1"}, hands=[[], []], piles=[labels, []])
    pile = s.piles[0]
    assert all(c.owners == seats_mask(0) for c in pile)
    positions = set()
    for seed in range(40):
        command = RULES.parse(s, 0, "draw")
        events, after = decided_alike_by_everyone(s, 0, command, seed=b"%d" % seed)
        (drawn,) = [e for e in events if type(e) is CardDrawn]
        assert (drawn.seat, drawn.group) == (0, 0)
        assert drawn.card is pile[drawn.index]  # that very secret: no copy made, none read
        assert after.hands[0] == (drawn.card,) and after.piles[0] == without(pile, (drawn.index,))
        positions.add(drawn.index)
    assert positions == set(range(len(pile)))


def test_a_card_making_everyone_draw_moves_the_others_secrets_without_reading_them():
    s = table(
        at={"obi-wan": "e4", "dooku": "a1"},
        hands=[["Force Balance", "obi-wan 5/1"], ["dooku 4/1"]],
        piles=[
            ["obi-wan 4/1", "obi-wan 4/2", "obi-wan 3/3", "Force Control"],
            ["dooku 5/1", "dooku 3/3", "dooku 2/3", "Force Drain"],
        ],
    )
    piles = s.piles
    s = play(s, "ann", "play force balance")
    assert acting(s) == "ben"  # ben shows his hand; his decision then draws for ann too
    _, s = decided_alike_by_everyone(s, 1, RULES.parse(s, 1, "show"))
    for seat in (0, 1):
        assert len(s.hands[seat]) == 3 and set(s.hands[seat]) <= set(piles[seat])
        assert set(s.hands[seat]) | set(s.piles[seat]) == set(piles[seat])


def test_a_pile_gone_through_is_the_discard_pile_arranged_for_its_player():
    s = table(
        characters="obi-wan,dooku",
        at={"obi-wan": "e4", "dooku": "a1"},
        hands=[[], []],
        piles=[[], []],
        discards=[[], ["dooku 5/1", "dooku 4/1"]],
        turn=1,
    )
    events, s = decided_alike_by_everyone(s, 1, RULES.parse(s, 1, "draw"))
    (shuffled,) = [e for e in events if type(e) is PileReshuffled]
    assert all(c.owners == seats_mask(1) for c in shuffled.cards) and len(shuffled.cards) == 2
    assert s.passes == (0, 1) and len(s.hands[1]) == 1 and s.hands[1][0] in shuffled.cards


# ---------------------------------------------------------------------------------- searching
def test_a_search_of_the_whole_draw_pile_takes_a_card_by_its_place():
    """Jedi Mind Trick as source T reads it (``t-mind-trick``): any card of the draw pile.
    Ann looks at her whole pile and takes a card by its place, so that every copy carries the
    record out (and the record does not say which card went into her hand)."""
    labels = ["obi-wan 5/1", "Jedi Block", "obi-wan 4/1"]
    s = table(
        at={"obi-wan": "a1", "dooku": "e4"},
        hands=[["Jedi Mind Trick"], []],
        piles=[labels, []],
        options={"alternatives": "t-mind-trick"},
    )
    pile = s.piles[0]
    _, s = decided_alike_by_everyone(s, 0, RULES.parse(s, 0, "play jedi mind trick"))
    assert s.phase == EFFECT and acting(s) == "ann" and s.seen[0][1] == pile
    assert RULES.legal(s, 0) == [("take", i, ()) for i in range(3)]
    assert RULES.legal(held_by(s, 1), 0) == RULES.legal(s, 0)  # (judged without the faces)
    command = RULES.parse(s, 0, "take jedi block")
    assert command == ("take", 1, ()) and RULES.notation(s, 0, command) == "take 2"
    events, s = decided_alike_by_everyone(s, 0, command)
    assert hand(s, "ann") == ["Jedi Block"] and s.hands[0][0] is pile[1]
    assert set(s.piles[0]) == {pile[0], pile[2]} and s.seen[0] == ()


def test_a_search_in_another_players_decision_moves_the_pile_without_reading_it():
    """Wookiee Instincts resolving in ben's decision (as a custom deck could make it: a power
    combat card of the defender runs in the attacker's decision): ben's copy does not hold
    ann's pile, yet it makes the same record, and ann's own answer takes the card."""
    s = table(
        characters="han,dooku",
        at={"han": "a1", "chewbacca": "a2", "dooku": "e4"},
        hands=[[], []],
        piles=[["han 4/1", "Bowcaster Attack", "han 2/2"], []],
    )
    pile = s.piles[0]
    s = s._replace(stack=(Frame(0, card(s, 0, "Wookiee Instincts"), char(s, "chewbacca")),))
    runs = []
    for copy in (s, held_by(s, 1)):
        t = Table(copy, RULES.evolve, Rng(b"t", b"move"))
        assert _effects.run(t, 1)  # waits for ann's choice
        runs.append((t.events, t.state))
    assert runs[0][0] == runs[1][0]
    s = runs[0][1]
    assert s.phase == EFFECT and acting(s) == "ann" and RULES.legal(s, 0) == [("take", 1, ())]
    events, s = played(s, "ann", "take bowcaster attack")
    assert s.hands[0] == (pile[1],) and set(s.piles[0]) == {pile[0], pile[2]}


def test_a_named_card_missing_from_the_pile_leaves_only_skip():
    s = table(
        characters="han,dooku",
        at={"han": "a1", "chewbacca": "a2", "dooku": "e4"},
        hands=[["Wookiee Instincts"], []],
        piles=[["han 4/1", "han 2/2"], []],
    )
    pile = s.piles[0]
    s = play(s, "ann", "play wookiee instincts")
    assert RULES.legal(s, 0) == [("skip",)]
    with pytest.raises(bs.SecretUnavailable):  # (which card is named: only ann's copy knows)
        RULES.legal(RULES.view(s, 1), 0)
    s = play(s, "ann", "skip")
    assert s.hands[0] == () and set(s.piles[0]) == set(pile) and s.seen[0] == ()


def test_a_random_discard_of_the_players_own_hand_is_turned_over_by_their_next_answer():
    """Force Lightning on ann's own character: the engine picks her card at random in this
    decision, and she turns it over in the next (no copy reveals a card after randomness in
    the same decision: in the peer mode only her copy could)."""
    s = table(
        characters="obi-wan,emperor",
        at={"emperor": "e4", "royal-guard-1": "e5", "obi-wan": "a1"},
        hands=[[], ["Force Lightning", "emperor 4/2", "emperor 1/5"]],
        turn=1,
        options={"own-damage": "allowed"},  # (forbidden by default since rules revision 3)
    )
    s = play(s, "ben", "play force lightning")
    s = play(s, "ben", "target royal-guard-1")
    assert s.request[0] == "random" and acting(s) == "ben" and RULES.legal(s, 1) == [("show",)]
    events, s = decided_alike_by_everyone(s, 1, ("show",))
    assert len(s.hands[1]) == 1 and len(s.discards[1]) == 2


# ---------------------------------------------------------------------------------- whole games
GAMES = (
    (2, {"characters": "obi-wan,dooku", "alternatives": "t-mind-trick"}),
    (2, {"characters": "han,emperor", "alternatives": "c-odds-reshuffle"}),
    (2, {"variant": "master", "characters": "han+obi-wan,emperor+dooku"}),
    (4, {"variant": "team"}),
    (4, {"variant": "master"}),
    (3, {"variant": "free-for-all", "deck-end": "last-card"}),
    (5, {"variant": "random-draw"}),
)


@pytest.mark.parametrize(("players", "options"), GAMES, ids=[str(i) for i in range(len(GAMES))])
def test_no_secret_is_owned_by_nobody_in_random_games(players, options):
    """Walk every event of random games (the conformance suite's way of playing), and every
    hand, pile and look before each command: each secret belongs to a player, and each pile
    to its group's player."""
    kinds = set()

    def check(game):
        s = game.state
        rs = s.roster
        for g, pile in enumerate(s.piles):
            assert all(c.owners == seats_mask(rs.group_seat[g]) for c in pile)
        for seat in s.seats:
            assert all(c.owners == seats_mask(seat) for c in s.hands[seat])
            if s.seen[seat]:
                assert all(c.owners == seats_mask(seat) for c in s.seen[seat][1])

    for seed in range(2):
        game = random_game(MODULE, seed, players, options=options, check_each=check)
        check(game)
        for record in game.records:
            for event in record.events:
                kinds.add(type(event).__name__)
                for secret in secrets_in(event):
                    assert secret.owners, f"record {record.seq}: {event!r}"
    assert {"PilesShuffled", "CardDrawn"} <= kinds
    assert not kinds & {"CardsDrawn", "PileSeen", "PileSet"}  # (revision 1's events)


@pytest.mark.parametrize(
    "options",
    [
        {"characters": "obi-wan,emperor", "alternatives": "t-mind-trick"},
        {"characters": "han,emperor", "alternatives": "c-odds-reshuffle"},
    ],
)
def test_the_contract_holds_with_the_draw_pile_searches(options):
    assert check_hidden_information(MODULE, range(3), options=options) > 0


# ---------------------------------------------------------------------------------- revisions
def test_the_spec_is_revision_4_and_refuses_revision_1_files(tmp_path):
    spec = MODULE.spec
    assert (spec.revision, spec.oldest_revision, spec.major) == (4, 2, 2)
    assert "random position" in spec.changes_since(1)[0]
    old = bs.Module(
        attrs.evolve(spec, revision=1, oldest_revision=1, version="1.0", changes=()), RULES
    )
    with registered(old):
        game = bs.Game.new(
            bs.get_module("epic-duels"), ["ann", "ben"], {}, seed=b"old", created=CREATED
        )
    path = tmp_path / "old.msgpack"
    bs.save_game(game, path)
    with pytest.raises(bs.FutureVersion) as err:
        bs.load_game(path)
    assert err.value.code == "unsupported-revision" and "no longer plays" in str(err.value)


@pytest.mark.parametrize("mode", ["open", "peer", "hosted"])
@pytest.mark.parametrize(
    ("players", "options"),
    [(("ann", "ben"), {}), (("ann", "ben", "cat", "dan"), {"variant": "master"})],
)
def test_every_configuration_is_played_in_every_trust_mode(mode, players, options):
    from boardstate.testing import checked_options

    setup = Setup(players, checked_options(MODULE, options, players), MODULE.spec.revision)
    assert type(RULES).refuse_trust(setup, mode) is None
