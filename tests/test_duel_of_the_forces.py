"""Duel of the Forces: the rules of all three editions, with the rule texts' own cases.

These run under the newest rules revision, with the stock stacked: the cards a test names turn up
in the order named (revision 3 draws each card at random from the cards left; here the draw is
rigged to take the first).  The corrections of revision 2 are tested from the rule texts in
test_duel_of_the_forces_corrections.py, revisions 1 and 3 in test_duel_of_the_forces_revisions.py.
"""

from __future__ import annotations

import itertools

import pytest

import boardstate as bs
from boardstate.modules.duel_of_the_forces import (
    DISCARD,
    KEEP,
    LOOK_CMD,
    MODULE,
    PASS,
    TAKE_CMD,
    give,
    play,
)
from boardstate.modules.duel_of_the_forces._cards import DECK_FILE, Card
from boardstate.modules.duel_of_the_forces._scoring import score
from boardstate.modules.duel_of_the_forces._state import (
    BID,
    KEEP_CARD,
    LOOK,
    OFFER,
    OVER,
    R2,
    R2_DECISION,
    TAKE,
    VillainDrawn,
    VillainTurnedUp,
)
from boardstate.rules import Table
from boardstate.testing import (
    Rng,
    checked_options,
    initial_state,
    make_secret,
    random_game,
    reveal,
    validate,
)

RULES = MODULE.rules
PLAYERS = ("ann", "ben", "cat", "dan")
DECK = initial_state(MODULE).cards.deck


def deck_index(name: str, points: int | None = None, skip: int = 0) -> int:
    hits = [
        i for i, c in enumerate(DECK) if c.name == name and (points is None or c.points == points)
    ]
    return hits[skip]


def table(stock_names, n=2, edition="ravensburger-2015", hands=None, revision=None, **options):
    """A game whose stock (in the order the cards turn up) is the named cards; the first is
    turned up.  Options are given as keywords (``full_tie="rebid"`` for ``full-tie``); the
    newest revision unless ``revision`` says otherwise."""
    options = {key.replace("_", "-"): value for key, value in options.items()}
    state = initial_state(MODULE, PLAYERS[:n], {"edition": edition, **options}, revision=revision)
    used: dict = {}
    stock = []
    for entry in stock_names:
        name, points = entry if isinstance(entry, tuple) else (entry, None)
        k = used.get(entry, 0)
        used[entry] = k + 1
        stock.append(deck_index(name, points, k))
    if not state.draws_at_turn_up:  # revisions 1-2: the stock is face down, top first
        stock = [make_secret(card, bytes(16)) for card in stock]
    state = state.replace(stock=tuple(stock))
    if hands is not None:
        state = state.replace(hands=tuple(tuple(sorted(h)) for h in hands))
    if state.draws_at_turn_up:
        return RULES.evolve(state, VillainDrawn(stock[0]))
    return RULES.evolve(state, VillainTurnedUp(reveal(stock[0])))


class Stacked(Rng):
    """Randomness that always draws the first of the cards left: the stock of revision 3 turns
    up in the order ``table`` lists it (as if shuffled so).  Revisions 1-2 draw nothing."""

    def __init__(self) -> None:
        super().__init__(b"stacked", b"record:1")

    def randbelow(self, n: int) -> int:
        return 0


def decide(state, moves, rng=None) -> tuple:
    """``(events, state after them)``, as the engine's ``decide`` gives them, on the stock as
    stacked (or with ``rng``)."""
    t = Table(state, RULES.evolve, rng or Stacked())
    RULES.decide(t, tuple(moves))
    return tuple(t.events), t.state


def bid(state, *cards, rng=None):
    moves = tuple((seat, play(c)) for seat, c in enumerate(cards) if c is not None)
    for seat, command in moves:
        validate(MODULE, state, seat, command)
    events, state = decide(state, moves, rng)
    return state, events


def act(state, seat, command, rng=None):
    validate(MODULE, state, seat, command)
    events, state = decide(state, ((seat, command),), rng)
    return state, events


def refusal(state, seat, command) -> bs.IllegalCommand:
    """The engine's refusal of ``command`` from ``seat`` (who acts now)."""
    with pytest.raises(bs.IllegalCommand) as err:
        validate(MODULE, state, seat, command)
    return err.value


def names(state, seat):
    return [state.cards.deck[i].name for i in state.captured[seat]]


# ------------------------------------------------------------------ the duel
def test_highest_force_captures_and_discards_the_card_used():
    s = table(["Boba Fett", "Greedo"])
    s, _ = bid(s, 6, 3)
    assert names(s, 0) == ["Boba Fett"] and names(s, 1) == []
    assert 6 not in s.hands[0]  # the winner throws the card to the wastepile
    assert 3 in s.hands[1]  # everyone else takes theirs back
    assert s.cards.deck[s.villain].name == "Greedo"  # the next villain is turned up


def test_equal_force_most_icons_wins():
    # "Gibt es mehrere Jedi/Rebellen-Karten mit gleichem Zahlenwert, entscheidet die Anzahl der
    # Rebellen-Symbole."  Reconstruction: force 1 shows luke 4 icons, han 3.
    s = table(["Boba Fett", "Greedo"])
    s, _ = bid(s, 1, 1)
    assert names(s, 0) == ["Boba Fett"]
    s2 = table(["Boba Fett", "Greedo"])  # force 2: luke 3, han 4
    s2, _ = bid(s2, 2, 2)
    assert names(s2, 1) == ["Boba Fett"] and 2 in s2.hands[0]
    s3 = table(["Boba Fett", "Greedo"], heroes="yoda,leia")  # force 5: yoda 3, leia 4
    s3, _ = bid(s3, 5, 5)
    assert names(s3, 1) == ["Boba Fett"] and 5 in s3.hands[0]


def test_vader_winner_keeps_card_others_discard():
    s = table([("Darth Vader", -4), "Greedo"], n=3)
    s, _ = bid(s, 2, 7, 5)
    assert [s.cards.deck[i].points for i in s.captured[1]] == [-4]
    assert 2 not in s.hands[0] and 5 not in s.hands[2]  # everyone else discards
    assert s.phase == OFFER and s.offer == KEEP_CARD and RULES.to_act(s) == (1,)
    s, _ = act(s, 1, KEEP)
    assert 7 in s.hands[1]  # the winner keeps the card it won with
    assert s.phase == BID and s.cards.deck[s.villain].name == "Greedo"


def test_r2_may_not_be_played_on_a_vader_turn():
    s = table([("Darth Vader", -1), "Greedo"])
    err = refusal(s, 0, play(R2))
    assert err.code == "r2-on-vader" and err.rule == "Ravensburger 2015, Darth Vader-Karten"
    assert play(R2) not in RULES.legal(s, 0)


def test_a_bid_must_be_a_card_in_hand_and_a_play():
    s = table(["Greedo", "Boba Fett"], hands=[(R2, 2, 7), (1, 2)])
    err = refusal(s, 0, play(5))
    assert err.code == "not-in-hand" and "(hand: r2 2 7)" in err.reason
    assert err.rule == "Ravensburger 2015, Spielverlauf"
    assert refusal(s, 1, play(R2)).code == "not-in-hand"
    assert refusal(s, 0, KEEP).code == "wrong-phase"


def test_player_with_only_r2_sits_out_a_vader_turn():
    s = table([("Darth Vader", -1), "Greedo"], n=3, hands=[(R2,), (1, 2), (3,)])
    assert RULES.to_act(s) == (1, 2)


# ------------------------------------------------------------------ R2-D2, Ravensburger timing
@pytest.mark.parametrize(
    "up, decision, gets, keeps_r2",
    [
        ("Jabba the Hutt", KEEP, 0, False),  # keep a villain: lose R2-D2
        ("Jabba the Hutt", give(1), 1, True),  # give a villain away: keep R2-D2
        (("Darth Vader", -5), KEEP, 0, True),  # keep a Vader: keep R2-D2
        (("Darth Vader", -5), give(1), 1, False),  # give a Vader away: lose R2-D2
    ],
)
def test_r2_keep_or_give(up, decision, gets, keeps_r2):
    s = table(["Greedo", up, "Boba Fett"])
    s, events = bid(s, R2, 3)
    assert names(s, 1) == ["Greedo"]  # the villain goes to the best other card
    assert s.phase == OFFER and s.offer == LOOK
    assert RULES.to_act(s) == (0,)  # at the start of the next round, R2 acts
    s, _ = act(s, 0, LOOK_CMD)
    assert s.phase == R2_DECISION and s.r2_seat == 0
    assert set(RULES.legal(s, 0)) == {KEEP, give(1)}
    s, _ = act(s, 0, decision)
    assert s.cards.deck[s.captured[gets][-1]].name == (up if isinstance(up, str) else up[0])
    assert (R2 in s.hands[0]) == keeps_r2
    assert s.phase == BID and s.cards.deck[s.villain].name == "Boba Fett"


def test_r2_turned_up_card_is_public_and_give_names_a_player():
    s = table(["Greedo", "Jabba the Hutt", "Boba Fett"], n=3)
    s, _ = bid(s, 2, R2, 1)
    s, events = act(s, 1, LOOK_CMD)
    assert type(events[-1]).__name__ == "R2Drawn"  # a card id, in public
    assert events[-1].card == deck_index("Jabba the Hutt") == s.r2_card
    assert RULES.notation(s, 1, RULES.parse(s, 1, "give cat")) == "give cat"
    assert refusal(s, 1, RULES.parse(s, 1, "give ben")).code == "give-self"
    assert refusal(s, 1, play(3)).code == "wrong-phase"  # R2-D2 decides before anyone bids


def test_the_engine_refuses_a_bid_before_r2_decides_and_after_the_end():
    game = bs.Game.new(
        MODULE, list(PLAYERS[:3]), {}, seed=b"r2 turn", created="2026-01-01T00:00:00+00:00"
    )
    assert not game.state.cards.deck[game.state.villain].vader  # R2-D2 may be bid
    for seat, text in enumerate(("play r2", "play 3", "play 2")):
        game.play(seat, text)
    assert game.state.phase == OFFER and game.to_act() == (0,)
    with pytest.raises(bs.IllegalCommand) as err:
        game.play(1, "play 3")  # nobody bids before R2-D2 decides
    assert err.value.code == "not-your-turn"
    game.play(0, "look")
    assert game.state.phase == R2_DECISION and game.to_act() == (0,)
    over = random_game(MODULE, 1)
    with pytest.raises(bs.IllegalCommand) as err:
        over.play(0, "play 1")
    assert err.value.code == "game-over"


def test_two_r2s_nobody_peeks_all_take_back():
    s = table(["Greedo", "Jabba the Hutt"], n=3)
    s, events = bid(s, R2, R2, 4)
    assert names(s, 2) == ["Greedo"]
    assert R2 in s.hands[0] and R2 in s.hands[1]
    assert s.phase == BID and not {"R2TurnedUp", "R2Drawn"} & {type(e).__name__ for e in events}


def test_everyone_plays_r2_the_villain_stays_up():
    s = table(["Greedo", "Jabba the Hutt"])
    s, _ = bid(s, R2, R2)
    assert s.cards.deck[s.villain].name == "Greedo" and s.phase == BID


# ------------------------------------------------------------------ R2-D2, Parlett timing
def test_parlett_r2_acts_before_the_current_villain_is_won():
    s = table(["Greedo", "Jabba the Hutt", "Boba Fett"], edition="parlett-english")
    s, events = bid(s, R2, 3)
    assert s.phase == OFFER and s.offer == LOOK
    assert names(s, 1) == []  # Greedo not resolved yet
    s, _ = act(s, 0, LOOK_CMD)
    assert s.phase == R2_DECISION and names(s, 1) == []
    s, _ = act(s, 0, give(1))
    assert names(s, 1) == ["Jabba the Hutt", "Greedo"]
    assert R2 in s.hands[0]


# ------------------------------------------------------------------ end of game
def test_final_take_through_play():
    s = table(
        [("Darth Vader", -2), "Greedo", "Boba Fett", "Jabba the Hutt"], hands=[(3,), (R2, 1, 2)]
    )
    s, events = bid(s, 3, 1)  # Vader: ann wins, keeps 3; ben discards 1
    s, _ = act(s, 0, KEEP)
    s, events = bid(s, 3, 2)  # Greedo: ann wins and discards her last card
    assert s.phase == OFFER and s.offer == TAKE and RULES.to_act(s) == (1,)
    s, _ = act(s, 1, TAKE_CMD)
    assert s.phase == OVER
    # ben alone holds cards (R2-D2 and 2): one villain from the stock per card
    assert names(s, 1) == ["Boba Fett", "Jabba the Hutt"] and s.hands[1] == ()
    assert "only ben has cards left and takes 2" in s.end_reason


def test_parlett_english_ends_when_one_player_runs_out():
    s = table(
        ["Greedo", "Boba Fett", "Jabba the Hutt"],
        edition="parlett-english",
        hands=[(3,), (R2, 1, 2)],
    )
    s, _ = bid(s, 3, 1)
    assert s.phase == OVER and "ann has run out" in s.end_reason
    assert names(s, 1) == []  # no take from the stock in this edition


def test_parlett_original_others_play_on_last_takes_from_stock():
    s = table(
        ["Greedo", "Boba Fett", "Jabba the Hutt", "Count Dooku", "Darth Maul"],
        n=3,
        edition="parlett-original",
        hands=[(8,), (1, 2), (R2, 4, 5)],
    )
    s, _ = bid(s, 8, 1, 4)  # ann wins Greedo with her last card: she stops
    assert s.phase == BID and RULES.to_act(s) == (1, 2)
    s, _ = bid(s, None, 2, 5)  # cat wins Boba Fett; ben takes back his 2
    s, _ = bid(s, None, 2, 4)  # cat wins Jabba and holds only R2-D2
    assert s.phase == BID and s.hands[2] == (R2,)
    s, _ = bid(s, None, 2, R2)  # R2-D2 turns up Darth Maul before Dooku is won
    s, _ = act(s, 2, LOOK_CMD)
    assert s.phase == R2_DECISION and names(s, 1) == []
    s, _ = act(s, 2, KEEP)  # cat keeps Maul and loses R2-D2; ben wins Dooku with 2
    assert names(s, 1) == ["Count Dooku"]
    assert names(s, 2) == ["Boba Fett", "Jabba the Hutt", "Darth Maul"]
    assert s.phase == OVER and "only ben has cards left and takes 0" in s.end_reason


def test_stock_used_up_ends_the_game():
    s = table(["Greedo"])
    s, _ = bid(s, 2, 1)
    assert s.phase == OVER and s.end_reason == "the stock is used up"


def test_only_r2_left_ends_the_game():
    s = table(["Greedo", "Boba Fett"], hands=[(R2, 2), (R2, 1)])
    s, _ = bid(s, 2, 1)
    assert s.phase == BID
    s, _ = bid(s, R2, 1)
    # ben won with his last force card: both hold only R2-D2, and the game ends before
    # ann's R2-D2 turns up a card of a next round
    assert s.phase == OVER and s.end_reason == "only R2-D2 cards are left in hand"


# ------------------------------------------------------------------ scoring
def test_scoring_bonuses_and_vader_penalty():
    deck = DECK

    def idx(name, k=0, points=None):
        return deck_index(name, points, k)

    tarkins = [idx("Grand Moff Tarkin", k) for k in range(3)]
    jabbas = [idx("Jabba the Hutt", k) for k in range(2)]
    storm = [idx("Stormtrooper", k) for k in range(4)]
    vader = idx("Darth Vader", points=-6)
    # 3 Tarkins (3 each) + 20 bonus = 29; 2 Jabbas 18 + 10 = 28; Vader -6
    assert score(tarkins, deck, "ravensburger-2015") == 29
    assert score(jabbas + [vader], deck, "ravensburger-2015") == 22
    assert score(storm, deck, "parlett-english") == 4 + 30
    # Parlett's original: flat 20/30/40 instead of face values; both Jabbas 30, Palpatines 40
    assert score(tarkins, deck, "parlett-original") == 30
    assert score(storm, deck, "parlett-original") == 40
    assert score(jabbas, deck, "parlett-original") == 30
    assert score([idx("Emperor Palpatine", k) for k in range(2)], deck, "parlett-original") == 40
    assert score([idx("Boba Fett", 0)], deck, "parlett-original") == 8


def test_a_villain_scores_its_own_points_whatever_its_name():
    """A deck file may name a villain as the Vader cards are named: a group of villains is
    scored by its own cards, never by a Darth Vader captured before them (before a169231 a
    pair of such villains scored 2 x -3 + 10, in that order only)."""
    deck = (Card("Darth Vader", 5), Card("Darth Vader", 5), Card("Darth Vader", -3))
    for captured in itertools.permutations(range(3)):
        assert score(captured, deck, "ravensburger-2015") == 5 * 2 + 10 - 3
        assert score(captured, deck, "parlett-original") == 20 - 3


def test_tie_break_fewer_vader_points_then_more_villains():
    from boardstate.modules.duel_of_the_forces._scoring import outcome

    deck = DECK
    a = [deck_index("Boba Fett"), deck_index("Darth Vader", -1)]  # 8 - 1 = 7
    b = [deck_index("Count Dooku")]  # 7
    result = outcome((a, b), deck, "ravensburger-2015", "x")
    assert result.scores == (7, 7) and result.winners == (1,)


# ------------------------------------------------------------------ full tie (house rule)
def _tie_deck(tmp_path):
    """The built-in cards with Han's icons equal to Luke's: every tie on force is a full tie."""
    text = DECK_FILE.builtin_text()
    luke = next(line for line in text.splitlines() if line.startswith("icons = ["))
    han = [line for line in text.splitlines() if line.startswith("icons = [")][1]
    text = text.replace(han, luke)
    path = tmp_path / "tie.toml"
    path.write_text(text)
    return str(path)


def test_full_tie_set_aside_and_rebid(tmp_path):
    deck = _tie_deck(tmp_path)
    s = table(["Greedo", "Boba Fett"], deck=deck)
    s2, _ = bid(s, 5, 5)
    assert names(s2, 0) == names(s2, 1) == [] and 5 in s2.hands[0] and 5 in s2.hands[1]
    assert s2.cards.deck[s2.set_aside[0]].name == "Greedo"
    assert s2.cards.deck[s2.villain].name == "Boba Fett"
    s3 = table(["Greedo", "Boba Fett"], deck=deck, full_tie="rebid")
    s3, _ = bid(s3, 5, 5)
    assert s3.cards.deck[s3.villain].name == "Greedo" and not s3.set_aside


def test_deck_file_errors_name_file_line_and_field(tmp_path):
    text = DECK_FILE.builtin_text()
    bad = text.replace("points = 8\ncopies = 2", "points = 12\ncopies = 2")
    path = tmp_path / "bad.toml"
    path.write_text(bad)
    with pytest.raises(bs.OptionError) as err:
        checked_options(MODULE, {"deck": str(path)})
    line = bad.splitlines().index("points = 12") + 1
    assert f"bad.toml:{line}:" in str(err.value) and "points" in str(err.value)
    path.write_text(text.replace("copies = 3\n", "copies = 3\ncolour = 'red'\n", 1))
    with pytest.raises(bs.OptionError) as err:
        checked_options(MODULE, {"deck": str(path)})
    assert "colour" in str(err.value)
    path.write_text("[[villain]\n")
    with pytest.raises(bs.OptionError) as err:
        checked_options(MODULE, {"deck": str(path)})
    assert "bad.toml:1" in str(err.value)
    twice = text.replace('name = "Greedo"', 'name = "Jabba the Hutt"')
    path.write_text(twice)
    with pytest.raises(bs.OptionError) as err:
        checked_options(MODULE, {"deck": str(path)})
    line = (
        twice.splitlines().index(
            'name = "Jabba the Hutt"', text.splitlines().index('name = "Greedo"')
        )
        + 1
    )
    assert str(err.value).startswith(f"{path}:{line}: villain[")
    assert "'Jabba the Hutt' is listed twice" in str(err.value)
    path.write_text(text.replace("[heroes.yoda]", "[heroes.obiwan]"))
    with pytest.raises(bs.OptionError) as err:
        checked_options(MODULE, {"deck": str(path)})
    assert "heroes: needs exactly the heroes luke, han, leia, yoda" in str(err.value)


# ------------------------------------------------------------------ notation and options
def test_notation_round_trip_and_errors():
    s = table(["Greedo", "Boba Fett"], n=3)
    assert RULES.parse(s, 0, "play luke 5") == play(5) == RULES.parse(s, 0, "PLAY 5")
    assert RULES.parse(s, 1, "play r2") == play(R2) == RULES.parse(s, 1, "play R2-D2")
    with pytest.raises(bs.IllegalCommand):
        RULES.parse(s, 0, "play han 5")  # not ann's hero
    with pytest.raises(bs.InvalidCommand):
        RULES.parse(s, 0, "play 9")
    with pytest.raises(bs.InvalidCommand):
        RULES.parse(s, 0, "attack")
    with pytest.raises(bs.InvalidCommand):
        RULES.parse(s, 0, "look now")
    assert [RULES.notation(s, 0, c) for c in RULES.legal(s, 0)][:2] == ["play r2", "play luke 1"]
    for command in (KEEP, LOOK_CMD, PASS, DISCARD, TAKE_CMD, give(2)):
        assert RULES.parse(s, 0, RULES.notation(s, 0, command)) == command


def test_give_prefix_is_ambiguous_between_players():
    s = table(["Greedo", "Jabba the Hutt", "Boba Fett"], n=4)
    s = s._replace(players=("ann", "anna", "ben", "cat"))
    with pytest.raises(bs.AmbiguousCommand):
        RULES.parse(s, 2, "give an")


def test_options_validated():
    with pytest.raises(bs.OptionError):
        checked_options(MODULE, {"edition": "deluxe"})
    with pytest.raises(bs.OptionError):
        checked_options(MODULE, {"full-tie": "coin"})
    with pytest.raises(bs.OptionError):
        checked_options(MODULE, {"heroes": "luke,luke"})
    with pytest.raises(bs.OptionError):
        checked_options(MODULE, {"heroes": "luke"})
    with pytest.raises(bs.OptionError):
        checked_options(MODULE, {"colour": "x"})
    assert checked_options(MODULE, {"heroes": "yoda, leia"})["heroes"] == ("yoda", "leia")


def test_header_options_hold_the_cards():
    """The header stores the same options as ever: old files keep their game ids."""
    assert checked_options(MODULE, players=PLAYERS[:3]) == {
        "edition": "ravensburger-2015",
        "heroes": ("luke", "han", "leia"),
        "full-tie": "set-aside",
        "cards": DECK_FILE.builtin().to_option(),
    }


def test_is_legal_is_membership_in_legal():
    pool = {play(c) for c in range(9)} | {KEEP, LOOK_CMD, PASS, DISCARD, TAKE_CMD}
    pool |= {give(s) for s in range(4)}

    def check(game):
        for seat in game.to_act():
            listed = set(RULES.legal(game.state, seat))
            for command in pool:
                assert RULES.is_legal(game.state, seat, command) == (command in listed)

    for seed in range(6):
        random_game(
            MODULE,
            seed,
            options={
                "edition": ("ravensburger-2015", "parlett-english", "parlett-original")[seed % 3]
            },
            check_each=check,
        )


def test_two_to_four_players():
    for n in (2, 3, 4):
        state, outcome, actions = bs.random_playout(MODULE, PLAYERS[:n], {}, seed=b"n%d" % n)
        assert len(outcome.scores) == n and actions > 0
    with pytest.raises(bs.OptionError):
        bs.Game.new(MODULE, ["solo"], {})
    with pytest.raises(bs.OptionError):
        bs.Game.new(MODULE, list("abcde"), {})


@pytest.mark.parametrize("text", ["play luke -1", "play -1", "play luke " + "9" * 5000,
                                  "play luke ٣", "play luke 0", "play luke 9"])  # fmt: skip
def test_a_force_outside_1_to_8_is_refused_not_read_as_another(text):
    """A bid names a force from 1 to 8; '-1' was read as 1 and a 5000-digit number was an
    internal error."""
    game = bs.Game.new(MODULE, ["ann", "ben"], {}, seed=b"numbers")
    with pytest.raises(bs.InvalidCommand):
        game.play(0, text)
    assert game.seq == 1 and game.legal(0)
