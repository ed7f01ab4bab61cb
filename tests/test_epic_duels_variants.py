"""Star Wars Epic Duels for 2 to 6: the rulebook's Game Variations, one test per rule.

Team game (4 and 6), free-for-all (2-6), free-for-all with a random draw, Master Play (2 or 4).
"""

from __future__ import annotations

import pytest
from epic_duels_table import (
    acting,
    attack,
    card,
    char,
    hand,
    play,
    refused,
    table,
    where,
    wounds,
)

import boardstate as bs
from boardstate.modules.epic_duels import MODULE
from boardstate.modules.epic_duels._characters import cast
from boardstate.modules.epic_duels._legal import movers
from boardstate.modules.epic_duels._render import render
from boardstate.modules.epic_duels._state import ACT, MOVE, OVER, RESPOND, CastChosen
from boardstate.modules.epic_duels.boards import BOARDS, SCENES
from boardstate.rules import UNKNOWN
from boardstate.testing import checked_options, initial_state, start

RULES = MODULE.rules
TEAM4 = "luke,vader,yoda,maul"  # ann luke, ben vader, cat yoda, dan maul
MASTER2 = "obi-wan+yoda,dooku+maul"


def team(at, **kw):
    return table(characters=TEAM4, at=at, options={"variant": "team"}, **kw)


# ---------------------------------------------------------------------------------- teams
def test_team_game_seats_alternate_round_the_table():
    s = team({"luke": "a7", "vader": "b7", "yoda": "c7", "maul": "d7"})
    assert s.roster.side_of == (0, 1, 0, 1)
    s6 = table(characters="luke,vader,yoda,maul,han,boba", options={"variant": "team"})
    assert s6.roster.side_of == (0, 1, 0, 1, 0, 1)


def test_team_game_is_for_4_or_6():
    with pytest.raises(bs.OptionError, match="for 4 or 6 players, not 3"):
        checked_options(MODULE, {"variant": "team"}, ("ann", "ben", "cat"))


def test_a_player_whose_main_fell_plays_on_with_minors():
    s = team(
        {"leia": "a1", "vader": "b7", "yoda": "c7", "maul": "d7"},
        damage={"luke": 18},
        turn=3,
        actions=1,
    )
    s = play(play(s, "dan", "draw"), "dan", "end")  # (Maul's deck has cards that are no action)
    assert s.turn == 0 and acting(s) == "ann" and s.phase == MOVE


def test_a_team_player_with_no_character_left_is_passed_over():
    """Ann's Luke and Leia are destroyed, Yoda holds her side: the game goes on, and her turns
    are passed over (``in_play``: not out of the game, yet nothing on the board to play)."""
    s = team({"vader": "b7", "yoda": "c7", "maul": "d7"}, damage={"luke": 18}, turn=3, actions=1)
    s = play(play(s, "dan", "draw"), "dan", "end")
    assert s.turn == 1 and acting(s) == "ben" and s.phase == MOVE and not s.out[0]


def test_the_game_ends_when_every_main_of_one_team_is_destroyed():
    at = {"luke": "a1", "vader": "e4", "yoda": "e5", "maul": "j7"}
    s = team(at, hands=[[], ["vader 5/1"], [], []], damage={"yoda": 14, "luke": 2}, turn=1)
    s = attack(s, "vader", "yoda", "5", None)
    assert where(s, "yoda") is None and s.phase == ACT  # Luke still stands
    s = team(
        {"leia": "a1", "vader": "e4", "yoda": "e5", "maul": "j7"},
        hands=[[], ["vader 5/1"], [], []],
        damage={"yoda": 14, "luke": 18},
        turn=1,
    )
    s = attack(s, "vader", "yoda", "5", None)
    assert s.phase == OVER and s.winners == (1, 3) and where(s, "leia") == "a1"


def test_an_all_roll_moves_only_ones_own_characters():
    s = team(
        {"luke": "a1", "leia": "a2", "vader": "j7", "yoda": "c1", "ct1": "c2", "maul": "j1"},
        phase=MOVE,
        die=4,
    )
    assert {s.roster.chars[c].id for c in movers(s, 0)} == {"luke", "leia"}
    assert "not your character" in str(refused(s, "ann", "move yoda c3"))


def test_team_game_a_destroyed_mains_cards_heal_wounded_minors():
    s = team(
        {"leia": "a1", "vader": "j7", "yoda": "c7", "maul": "d7"},
        hands=[["luke 5/1"], [], [], []],
        damage={"luke": 18, "leia": 3},
    )
    s = play(s, "ann", "heal luke 5/1")
    assert wounds(s, "leia") == 2 and s.actions == 1


def test_a_duel_has_no_minor_healing():
    s = table(
        characters="luke,vader",
        at={"leia": "a1", "vader": "j7"},
        hands=[["luke 5/1"], []],
        damage={"luke": 18, "leia": 3},
    )
    assert ("heal", card(s, 0, "luke 5/1"), char(s, "leia")) not in RULES.legal(s, 0)


def test_team_mates_do_not_see_each_others_hands():
    s = team(
        {"luke": "a7", "vader": "b7", "yoda": "c7", "maul": "d7"},
        hands=[["luke 5/1"], ["vader 5/1"], ["yoda 4/2"], ["maul 5/1"]],
    )
    mine = RULES.view(s, 0)
    assert mine.hands[0][0].value is not UNKNOWN
    assert all(h[0].value is UNKNOWN for h in mine.hands[1:])


# ---------------------------------------------------------------------------------- free-for-all
def test_free_for_all_anyone_plays_anyone_and_a_fallen_main_takes_its_player_out():
    s = table(
        characters="luke,yoda,vader",
        at={"luke": "e5", "leia": "a1", "yoda": "j7", "ct1": "j6", "vader": "e4"},
        hands=[[], [], ["vader 5/1"]],
        damage={"luke": 15},
        turn=2,
        options={"variant": "free-for-all"},
    )
    s = attack(s, "vader", "luke", "5", None)
    assert s.out == (True, False, False) and where(s, "leia") is None and s.phase == ACT
    s = play(s, "cat", "draw")
    assert s.turn == 1  # the order passes over the player who is out, to ben then cat
    s = play(play(play(s, "ben", "done"), "ben", "draw"), "ben", "draw")
    assert s.turn == 2


def test_free_for_all_the_last_main_standing_wins():
    s = table(
        characters="luke,yoda,vader",
        at={"yoda": "e5", "vader": "e4"},
        hands=[[], [], ["vader 5/1"]],
        damage={"luke": 18, "yoda": 14},
        turn=2,
        options={"variant": "free-for-all"},
    )
    s = s._replace(out=(True, False, False))
    s = attack(s, "vader", "yoda", "5", None)
    assert s.phase == OVER and s.winners == (2,) and "Yoda destroyed" in s.end_reason


def test_free_for_all_with_six_puts_every_main_on_its_square_on_every_board():
    for scene in SCENES:
        options = {"variant": "free-for-all", "board": scene}
        options["characters"] = "yoda,vader,luke,maul,han,boba"
        s = start(MODULE, initial_state(MODULE, tuple("abcdef"), options))[1]
        board = BOARDS[scene]
        for m in s.roster.mains:
            col, row = board.square(s.roster.chars[m].kind)
            assert s.square[m] == row * board.width + col


def test_every_board_names_a_square_for_every_main_character():
    for scene in SCENES:
        named = set(BOARDS[scene].named_squares)
        assert {t.id for t in cast().teams} <= named


# ---------------------------------------------------------------------------------- random draw
def test_random_draw_deals_the_mains_by_the_engines_randomness_and_records_them():
    names = ("ann", "ben", "cat", "dan")
    casts = set()
    for seed in (b"1", b"2", b"3"):
        events, s = start(MODULE, initial_state(MODULE, names, {"variant": "random-draw"}), seed)
        drawn = next(e for e in events if type(e) is CastChosen)
        assert drawn.drawn and len({t for group in drawn.cast for t in group}) == 4
        casts.add(drawn.cast)
    assert len(casts) > 1
    with pytest.raises(bs.OptionError, match="drawn, not chosen"):
        checked_options(MODULE, {"variant": "random-draw", "characters": "luke,vader"})


def test_the_default_for_more_than_two_is_a_free_for_all_with_mains_drawn():
    options = checked_options(MODULE, {}, ("ann", "ben", "cat"))
    assert options["variant"] == "free-for-all" and "characters" not in options


# ---------------------------------------------------------------------------------- Master Play
def master(at=None, **kw):
    return table(characters=MASTER2, at=at or {}, options={"variant": "master"}, **kw)


def test_master_play_two_mains_each_and_two_cards_from_each_deck():
    """(Revision 2 dealt at the start; revision 3 once the minors are placed.)"""
    s = start(MODULE, initial_state(MODULE, ("ann", "ben"), {"variant": "master"}, revision=2))[1]
    assert [len(s.roster.mains_of(p)) for p in (0, 1)] == [2, 2]
    for p in (0, 1):
        groups = s.roster.groups_of(p)
        assert sorted(s.backs[p]) == sorted(groups * 2)


def test_master_play_a_draw_names_the_deck():
    s = master({"obi-wan": "a1", "yoda": "a2", "dooku": "j7", "maul": "j6"})
    yoda = s.roster.groups_of(0)[1]
    before = len(s.piles[yoda])
    s = play(s, "ann", "draw from yoda")
    assert s.backs[0] == (yoda,) and len(s.piles[yoda]) == before - 1


def test_master_play_others_see_the_backs_of_a_hand_not_the_faces():
    s = master(
        {"obi-wan": "a1", "yoda": "a2", "dooku": "j7", "maul": "j6"},
        hands=[["obi-wan 5/1", "yoda 4/2", "Insight"], []],
    )
    theirs = RULES.view(s, 1)
    assert theirs.backs[0] == s.backs[0] and all(c.value is UNKNOWN for c in theirs.hands[0])
    assert "backs: 1 obi-wan, 2 yoda" in render(theirs, 1)


def test_master_play_an_all_roll_moves_both_groups():
    s = master({"obi-wan": "a1", "yoda": "a2", "ct1": "b1", "dooku": "j7", "maul": "j6"})
    s = s._replace(phase=MOVE, die=5)
    assert {s.roster.chars[c].id for c in movers(s, 0)} == {"obi-wan", "yoda", "clone-trooper-1"}


def test_master_play_shared_minor_types_are_numbered_on():
    s = master()
    ids = [c.id for c in s.roster.chars if c.kind == "clone-trooper"]
    assert ids == [f"clone-trooper-{n}" for n in (1, 2, 3, 4)]


def test_master_play_a_player_is_beaten_when_both_mains_are_destroyed():
    at = {"obi-wan": "e5", "yoda": "a1", "dooku": "e4", "maul": "j7"}
    s = master(at, hands=[[], ["dooku 5/1"]], damage={"obi-wan": 15}, turn=1)
    s = attack(s, "dooku", "obi-wan", "5", None)
    assert where(s, "obi-wan") is None and s.phase == ACT
    at = {"yoda": "e5", "dooku": "e4", "maul": "j7"}
    s = master(at, hands=[[], ["dooku 5/1"]], damage={"obi-wan": 19, "yoda": 12}, turn=1)
    s = attack(s, "dooku", "yoda", "5", None)
    assert s.phase == OVER and s.winners == (1,)


def test_master_play_for_four_ends_when_one_player_loses_both_mains():
    s = table(
        characters="obi-wan+yoda,dooku+maul,luke+han,vader+boba",
        at={"yoda": "e5", "dooku": "e4", "luke": "a1", "vader": "j7"},
        hands=[[], ["dooku 5/1"], [], []],
        damage={"obi-wan": 19, "yoda": 12},
        turn=1,
        options={"variant": "master"},
    )
    assert s.roster.side_of == (0, 1, 0, 1)
    s = attack(s, "dooku", "yoda", "5", None)
    assert s.phase == OVER and s.winners == (1, 3)  # Luke and Han still stand: no matter


def test_master_play_a_random_pick_chooses_the_group_by_its_backs():
    s = master(
        {"obi-wan": "a1", "yoda": "a2", "dooku": "j7", "maul": "j6"},
        hands=[["obi-wan 5/1", "yoda 4/2", "yoda 3/3", "obi-wan 4/1"], ["Force Drain"]],
        turn=1,
    )
    s = play(s, "ben", "play force drain")
    assert s.phase == RESPOND and acting(s) == "ben" and s.request[0] == "backs"
    s = play(s, "ben", "backs yoda, yoda")
    assert acting(s) == "ann" and s.request[0] == "random"
    s = play(s, "ann", "show")
    assert hand(s, "ann") == ["obi-wan 4/1", "obi-wan 5/1"]


def test_master_play_future_foreseen_looks_through_the_emperors_pile_only():
    s = table(
        characters="obi-wan+yoda,emperor+maul",
        at={"obi-wan": "a1", "emperor": "j7", "maul": "j6"},
        hands=[[], ["Future Foreseen"]],
        piles=[[], [], ["emperor 4/2", "Meditation"], ["maul 5/1", "maul 4/1"]],
        turn=1,
        options={"variant": "master"},
    )
    s = play(s, "ben", "play future foreseen")
    shown = [card_label_of(s, 1, c.value) for c in s.seen[1][1]]
    assert sorted(shown) == ["Meditation", "emperor 4/2"] and s.piles[2] == ()
    assert len(s.piles[3]) == 2  # (Maul's pile is not looked at)


def card_label_of(s, seat, k):
    from boardstate.modules.epic_duels._notation import card_label

    return card_label(s, seat, k)


def test_master_play_names_a_card_both_decks_hold_with_its_deck():
    s = table(characters="han+luke,boba+jango", options={"variant": "master"})
    labels = [card_label_of(s, 1, k) for k in range(len(s.roster.cards))]
    assert "Rocket Retreat (boba)" in labels and "Rocket Retreat (jango)" in labels
    assert "Bowcaster Attack" in labels


def test_random_self_play_of_every_variant_ends():
    for variant, names in (
        ("team", "abcd"),
        ("team", "abcdef"),
        ("free-for-all", "abcdef"),
        ("random-draw", "abc"),
        ("master", "ab"),
        ("master", "abcd"),
    ):
        for seed in range(3):
            _, outcome, _ = bs.random_playout(
                MODULE, list(names), {"variant": variant}, seed=b"%d" % seed, bot_seed=seed
            )
            assert outcome.winners, (variant, names)


def test_a_variant_game_through_the_engine_verifies(tmp_path):
    from boardstate.testing import random_game

    game = random_game(MODULE, 5, 4, options={"variant": "master"})
    path = tmp_path / "master.msgpack"
    bs.save_game(game, path)
    assert bs.verify(path).ok
