"""Duel of the Forces, rules revisions: a game created under revision 1 or 2 plays and verifies
exactly as before the next revision came, record for record.

tests/fixtures/duel-of-the-forces-revision-1/ and -revision-2/ hold the sample games made under
revisions 1 and 2; the samples in replays/ are made under the newest revision.  Revision 3 is
tested in test_duel_of_the_forces_revision_3.py.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_duel_of_the_forces import act, bid, names, table

import boardstate as bs
from boardstate.modules.duel_of_the_forces import KEEP, MODULE, SPEC, give
from boardstate.modules.duel_of_the_forces._state import EVENTS, OVER, R2, R2_DECISION, R2TurnedUp
from boardstate.testing import check_module, initial_state
from conftest import assert_replays_to_the_same_records, replayed

FIXTURES = sorted(
    (Path(__file__).parent / "fixtures" / "duel-of-the-forces-revision-1").glob("*.msgpack")
)
IDS = [p.name for p in FIXTURES]
REVISION_2_SAMPLES = sorted(
    (Path(__file__).parent / "fixtures" / "duel-of-the-forces-revision-2").glob("*.msgpack")
)
REVISION_1_EVENTS = (
    "dotf.stock-shuffled",
    "dotf.villain-turned-up",
    "dotf.bids-revealed",
    "dotf.captured",
    "dotf.card-discarded",
    "dotf.villain-set-aside",
    "dotf.r2-turned-up",
    "dotf.r2-resolved",
    "dotf.final-take",
    "dotf.game-ended",
)


def test_there_is_a_revision_1_sample_for_every_edition_and_player_count():
    assert len(FIXTURES) == 9


@pytest.mark.parametrize("path", FIXTURES, ids=IDS)
def test_a_revision_1_sample_verifies_unchanged(path):
    verdict = bs.verify(path)
    assert verdict.ok, verdict.failure
    assert verdict.rederived == verdict.records and verdict.outcome is not None
    assert verdict.game.header.revision == 1 and verdict.game.state.revision == 1


@pytest.mark.parametrize("path", FIXTURES, ids=IDS)
def test_a_revision_1_game_replays_its_commands_to_identical_records(path):
    assert_replays_to_the_same_records(path)


@pytest.mark.parametrize("path", FIXTURES[::4], ids=IDS[::4])
def test_a_revision_1_game_in_progress_goes_on_under_revision_1(path):
    """Half a sample, then new moves: only revision-1 events, and the whole verifies."""
    sample = bs.load_game(path)
    game = replayed(sample, len(sample.records) // 2)
    pick = random.Random(path.name)
    while game.outcome() is None:
        seat = pick.choice(game.to_act())
        game.play(seat, pick.choice(game.legal(seat)))
    assert {type(e).__event_name__ for r in game.records for e in r.events} <= set(
        REVISION_1_EVENTS
    )
    verdict = bs.verify(bs.parse_raw(bs.encode_game(game), "continued"))
    assert verdict.ok, verdict.failure


@pytest.mark.parametrize("path", REVISION_2_SAMPLES, ids=[p.name for p in REVISION_2_SAMPLES])
def test_a_revision_2_game_replays_its_commands_to_identical_records(path):
    """The samples made under revision 2 (a stock shuffled at creation): the same commands
    still make the very same records."""
    sample = bs.load_game(path)
    assert sample.header.revision == 2
    game = replayed(sample)
    assert [type(e).__event_name__ for e in game.records[0].events] == [
        "dotf.stock-shuffled",
        "dotf.villain-turned-up",
    ]
    assert game.records == sample.records and game.outcome() == sample.outcome()


def test_there_is_a_revision_2_sample_for_every_edition_and_player_count():
    assert len(REVISION_2_SAMPLES) == 9


def test_the_samples_in_replays_are_made_under_the_newest_revision():
    samples = sorted(
        (Path(__file__).parent.parent / "replays").glob("duel-of-the-forces-*.msgpack")
    )
    assert len(samples) == 9
    for path in samples:
        assert bs.load_game(path).header.revision == SPEC.revision


def test_new_games_are_played_under_revision_3():
    game = bs.Game.new(MODULE, ["ann", "ben"], {}, seed=b"rev")
    assert SPEC.revision == 3 and game.header.revision == 3 and game.state.revision == 3
    assert len(SPEC.changes_since(1)) == 8 and len(SPEC.changes_since(2)) == 1


def test_events_are_only_appended():
    assert tuple(e.__event_name__ for e in EVENTS[:10]) == REVISION_1_EVENTS
    assert [e.__event_name__ for e in EVENTS[10:]] == [
        "dotf.offered",  # revision 2
        "dotf.answered",
        "dotf.villain-drawn",  # revision 3
        "dotf.r2-drawn",
        "dotf.final-drawn",
    ]


def test_the_newest_revision_passes_the_conformance_suite():
    assert not check_module(MODULE, seeds=30).failures


# ------------------------------------------------------------------ revision 1, as it was
def test_revision_1_turns_up_r2_d2_without_asking():
    s = table(["Greedo", "Jabba the Hutt", "Boba Fett"], revision=1)
    s, events = bid(s, R2, 3)
    assert isinstance(events[-1], R2TurnedUp) and s.phase == R2_DECISION


def test_revision_1_vader_winner_keeps_the_card_without_asking():
    s = table([("Darth Vader", -4), "Greedo"], n=3, revision=1)
    s, _ = bid(s, 2, 7, 5)
    assert 7 in s.hands[1] and s.cards.deck[s.villain].name == "Greedo"


def test_revision_1_final_take_without_asking():
    s = table(["Greedo", "Boba Fett", "Jabba the Hutt"], hands=[(1, 2), (8,)], revision=1)
    s, _ = bid(s, 1, 8)
    assert s.phase == OVER and names(s, 0) == ["Boba Fett", "Jabba the Hutt"]


@pytest.mark.parametrize("edition", ["parlett-english", "parlett-original"])
def test_revision_1_parlett_giving_a_vader_away_costs_r2_d2(edition):
    s = table(["Greedo", ("Darth Vader", -5), "Boba Fett"], edition=edition, revision=1)
    s, _ = bid(s, R2, 3)
    s, _ = act(s, 0, give(1))
    assert R2 not in s.hands[0]


def test_revision_1_ends_on_only_r2_d2_when_all_hold_it():
    assert not initial_state(MODULE, ("ann", "ben", "cat"), revision=1).several_r2_end
    # ann holds only R2-D2 and plays it alone; ben wins Greedo with his last force card.
    stock = ["Greedo", "Jabba the Hutt", "Boba Fett"]
    hands = [(R2,), (R2, 6), (1, 2)]
    s = table(stock, n=3, hands=hands, revision=1)
    s, _ = bid(s, R2, 6, 1)
    assert s.phase == R2_DECISION  # revision 1: R2-D2 turns up Jabba all the same
    s, _ = act(s, 0, give(2))  # ann gives it away and keeps R2-D2
    # ann and ben hold only R2-D2, cat still holds force cards: the game goes on
    assert s.hands[:2] == ((R2,), (R2,)) and s.phase != OVER
    s2 = table(stock, n=3, hands=hands)  # revision 2: several hold only R2-D2, it ends
    s2, _ = bid(s2, R2, 6, 1)
    assert s2.phase == OVER and s2.end_reason == "ann and ben hold only R2-D2"


def test_revision_1_keep_still_means_keep_the_turned_up_card():
    s = table(["Greedo", "Jabba the Hutt", "Boba Fett"], revision=1)
    s, _ = bid(s, R2, 3)
    s, _ = act(s, 0, KEEP)
    assert names(s, 0) == ["Jabba the Hutt"] and R2 not in s.hands[0]
