"""Star Wars Epic Duels: the rulebook's rules and examples, one test per rule.

Tables are set up by hand (tests/epic_duels_table.py); every command is parsed, validated and
decided as the engine does, and decided alike on the acting player's own copy.
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
    played,
    refused,
    table,
    where,
    wounds,
)

from boardstate.modules.epic_duels import MODULE
from boardstate.modules.epic_duels._state import (
    ACT,
    DEFEND,
    DIE,
    LAY,
    MOVE,
    OVER,
    PLACE,
    TRIM,
    TurnBegan,
)
from boardstate.testing import decide, initial_state, start

RULES = MODULE.rules
DOOKU_TURN = 1


# ---------------------------------------------------------------------------------- set-up
def test_setup_puts_mains_on_their_squares_deals_four_and_the_roll_winner_places_first():
    """Rules revision 2 dealt the hands before the minors were placed (revision 3 after them:
    tests/test_epic_duels_revision_3.py)."""
    options = {"characters": "obi-wan,dooku"}
    s = start(MODULE, initial_state(MODULE, ("ann", "ben"), options, revision=2))[1]
    assert where(s, "obi-wan") == "i4" and where(s, "dooku") == "e1"  # Geonosis: O and D
    assert [len(h) for h in s.hands] == [4, 4]
    assert [len(p) for p in s.piles] == [27, 27]
    assert s.phase == PLACE and s.queue == (s.order[0],)
    assert where(s, "clone-trooper-1") is None


def test_minors_go_next_to_their_main_diagonals_included_and_the_first_placer_plays_first():
    s = start(MODULE, initial_state(MODULE, ("ann", "ben"), {"characters": "obi-wan,dooku"}))[1]
    first = s.players[s.order[0]]
    minors = ("ct1", "ct2") if first == "ann" else ("sbd1", "sbd2")
    main = "obi-wan" if first == "ann" else "dooku"
    assert "not a free square next to" in str(refused(s, first, f"place {minors[0]} a7"))
    legal = RULES.legal(s, s.order[0])
    main_sq = s.square[char(s, main)]
    w = s.roster.board.width
    for _, _, sq in legal:
        assert max(abs(sq % w - main_sq % w), abs(sq // w - main_sq // w)) == 1
    for _m in minors:
        s = play(s, first, RULES.notation(s, s.order[0], RULES.legal(s, s.order[0])[0]))
    assert acting(s) != first
    second = acting(s)
    for _ in range(2):
        seat = s.players.index(second)
        s = play(s, second, RULES.notation(s, seat, RULES.legal(s, seat)[-1]))
    assert s.phase == MOVE and acting(s) == first


def test_the_die_has_the_six_faces_and_is_rolled_by_the_engine_at_each_turn():
    assert DIE == ((3, False), (4, False), (5, False), (2, True), (3, True), (4, True))
    s = table(at={"obi-wan": "d4", "dooku": "h4"}, actions=1, hands=[["obi-wan 5/1"], []])
    faces = set()
    for seed in range(40):
        events, _ = played(s, "ann", "draw", seed=b"%d" % seed)
        faces |= {e.die for e in events if type(e) is TurnBegan}
    assert faces == set(range(6))


# ---------------------------------------------------------------------------------- moving
def test_a_number_moves_one_character_up_to_that_many_squares_orthogonally():
    s = table(at={"obi-wan": "d4", "ct1": "a1", "dooku": "h4"}, phase=MOVE, die=0)  # 3
    s2 = play(s, "ann", "move obi-wan c2")  # d4 -> c2 is 3 steps
    assert where(s2, "obi-wan") == "c2" and s2.phase == ACT
    why = str(refused(s, "ann", "move obi-wan a2"))  # 5 steps
    assert "5 squares" in why and "allows 3" in why


def test_an_all_roll_moves_each_character_and_fewer_squares_or_none_is_allowed():
    s = table(at={"obi-wan": "d4", "ct1": "a1", "ct2": "b1", "dooku": "h4"}, phase=MOVE, die=4)
    s = play(s, "ann", "move obi-wan d5")  # one square of three
    assert s.phase == MOVE
    s = play(s, "ann", "move ct1 a4")
    assert "already moved" in str(refused(s, "ann", "move obi-wan d6"))
    s = play(s, "ann", "done")
    assert s.phase == ACT and where(s, "ct2") == "b1"


def test_moves_pass_friends_but_not_enemies_and_never_end_on_a_character_or_obstacle():
    # Geonosis row 4 (rank 4): a4 ... ; f6-h6 are the fallen pillar
    s = table(at={"obi-wan": "c4", "ct1": "d4", "dooku": "c3", "sbd1": "b4"}, phase=MOVE, die=0)
    assert where(play(s, "ann", "move obi-wan e4"), "obi-wan") == "e4"  # through the trooper
    assert "taken" in str(refused(s, "ann", "move obi-wan d4"))
    why = str(refused(s, "ann", "move obi-wan a4"))  # round the droid on b4: c5 b5 a5 a4
    assert "4 squares" in why and "allows 3" in why
    s = table(at={"obi-wan": "e6", "dooku": "a1"}, phase=MOVE, die=2)
    assert "obstacle" in str(refused(s, "ann", "move obi-wan f6"))


# ---------------------------------------------------------------------------------- attacks
def test_rulebook_example_dooku_5_against_obi_wan_3_deals_2():
    s = table(
        at={"obi-wan": "e4", "dooku": "e3"},
        hands=[["obi-wan 3/3"], ["dooku 5/1"]],
        turn=DOOKU_TURN,
    )
    s = attack(s, "dooku", "obi-wan", "5", "3")
    assert wounds(s, "obi-wan") == 2
    assert s.discards == ((card(s, 0, "obi-wan 3/3"),), (card(s, 1, "dooku 5/1"),))
    assert s.actions == 1 and s.phase == ACT


def test_rulebook_example_dooku_3_against_obi_wan_4_is_blocked():
    s = table(
        at={"obi-wan": "e4", "dooku": "e3"},
        hands=[["obi-wan 1/4"], ["dooku 3/3"]],
        turn=DOOKU_TURN,
    )
    s = attack(s, "dooku", "obi-wan", "dooku 3/3", "obi-wan 1/4")
    assert wounds(s, "obi-wan") == 0


def test_no_defence_takes_the_whole_attack_and_only_a_card_of_the_defender_defends():
    s = table(
        at={"obi-wan": "e4", "ct1": "a1", "dooku": "e3"},
        hands=[["clone-trooper 1/2", "obi-wan 2/3"], ["dooku 4/1"]],
        turn=DOOKU_TURN,
    )
    s1 = play(s, "ben", "attack obi-wan with dooku")
    from boardstate.rules import HIDDEN

    s1 = decide(MODULE, s1, ((1, HIDDEN),))[1]
    assert s1.phase == DEFEND and acting(s1) == "ann"
    assert "not a card of obi-wan" in str(refused(s1, "ann", "defend clone-trooper 1/2"))
    s = attack(s, "dooku", "obi-wan", "4", None)
    assert wounds(s, "obi-wan") == 4


def test_attack_position_is_adjacent_diagonals_included_for_a_melee_character():
    s = table(at={"obi-wan": "e4", "dooku": "f3"}, hands=[[], ["dooku 5/1"]], turn=DOOKU_TURN)
    assert ("attack", char(s, "dooku"), char(s, "obi-wan")) in RULES.legal(s, 1)
    s = table(at={"obi-wan": "e4", "dooku": "g4"}, hands=[[], ["dooku 5/1"]], turn=DOOKU_TURN)
    why = str(refused(s, "ben", "attack obi-wan with dooku"))
    assert "not next to obi-wan" in why and "no blaster" in why


def test_ranged_characters_shoot_along_a_clear_row_column_or_exact_diagonal():
    hands = [[], ["super-battle-droid 5/1"]]
    s = table(at={"obi-wan": "a2", "sbd1": "e5", "dooku": "j7"}, hands=hands, turn=DOOKU_TURN)
    assert "straight" in str(refused(s, "ben", "attack obi-wan with sbd1"))  # a knight's move
    s = table(at={"obi-wan": "b2", "sbd1": "e5", "dooku": "j7"}, hands=hands, turn=DOOKU_TURN)
    s = attack(s, "sbd1", "obi-wan", "5", None)  # the diagonal e5-b2
    assert wounds(s, "obi-wan") == 5


def test_a_shot_is_blocked_by_an_obstacle_or_a_character_and_the_refusal_says_where():
    hands = [[], ["super-battle-droid 5/1"]]
    s = table(at={"obi-wan": "i6", "sbd1": "e6", "dooku": "a1"}, hands=hands, turn=DOOKU_TURN)
    assert "blocked by obstacle at f6" in str(refused(s, "ben", "attack obi-wan with sbd1"))
    s = table(
        at={"obi-wan": "a4", "ct1": "b4", "sbd1": "e4", "dooku": "j7"}, hands=hands, turn=DOOKU_TURN
    )
    assert "blocked by Clone Trooper 1 at b4" in str(refused(s, "ben", "attack obi-wan with sbd1"))


@pytest.mark.parametrize(
    ("board", "shooter", "target"),
    [("kamino", "f6", "j6"), ("throne-room", "a7", "a4")],
    ids=["over Kamino's water", "over the Throne Room's mist"],
)
def test_shots_pass_over_water_and_mist(board, shooter, target):
    s = table(
        board=board,
        at={"obi-wan": target, "sbd1": shooter, "dooku": "e4"},
        hands=[[], ["super-battle-droid 5/1"]],
        turn=DOOKU_TURN,
    )
    assert ("attack", char(s, "sbd1"), char(s, "obi-wan")) in RULES.legal(s, 1)


def test_a_held_character_cannot_move_attack_or_defend_until_freed():
    s = table(
        at={"obi-wan": "e4", "dooku": "e3"},
        hands=[["obi-wan 1/4"], ["dooku 5/1", "dooku 4/1", "dooku 4/2", "dooku 3/3"]],
        turn=DOOKU_TURN,
        phase=MOVE,
    )
    s = s._replace(held=tuple(3 if i == char(s, "dooku") else 0 for i in range(len(s.held))))
    assert "held" in str(refused(s, "ben", "move dooku e2"))
    assert "held" in str(refused(s, "ben", "attack obi-wan with dooku"))
    s = play(s, "ben", "release dooku discarding dooku 4/1, dooku 4/2, dooku 3/3")
    assert s.held[char(s, "dooku")] == 0 and s.phase == MOVE and s.actions == 2
    assert hand(s, "ben") == ["dooku 5/1"]


# ---------------------------------------------------------------------------------- actions
def test_two_actions_then_the_turn_passes():
    s = table(at={"obi-wan": "e4", "dooku": "a1"}, hands=[[], []])
    s = play(s, "ann", "draw")
    assert s.actions == 1 and len(s.hands[0]) == 1
    s = play(s, "ann", "draw")
    assert s.turn == 1 and s.phase == MOVE and s.actions == 2


def test_a_full_hand_discards_a_card_face_up_before_drawing():
    ten = ["obi-wan 5/1"] * 10
    s = table(at={"obi-wan": "e4", "dooku": "a1"}, hands=[ten, []])
    assert "10 cards" in str(refused(s, "ann", "draw"))
    s = play(s, "ann", "draw discarding obi-wan 5/1")
    assert len(s.hands[0]) == 10 and s.discards[0] == (card(s, 0, "obi-wan 5/1"),)


def test_a_card_that_is_not_an_action_does_not_use_one():
    s = table(
        characters="obi-wan,boba",
        at={"obi-wan": "e4", "boba": "a1", "greedo": "j7"},
        hands=[[], ["Sudden Arrival"]],
        turn=DOOKU_TURN,
    )
    s = play(s, "ben", "play sudden arrival")
    assert s.actions == 2
    s = play(s, "ben", "place greedo e5")
    assert where(s, "greedo") == "e5" and s.actions == 2 and s.phase == ACT


def test_after_the_actions_a_deck_with_free_cards_may_still_play_them_until_end():
    s = table(
        characters="obi-wan,maul",
        at={"obi-wan": "e4", "maul": "e3"},
        hands=[[], ["Sith Speed", "maul 5/1"]],
        turn=DOOKU_TURN,
        actions=1,
    )
    s = play(s, "ben", "draw")
    assert s.phase == ACT and s.actions == 0 and acting(s) == "ben"
    assert ("draw", -1) not in RULES.legal(s, 1)
    s = attack(s, "maul", "obi-wan", "sith speed", None)  # free: attack 3
    assert wounds(s, "obi-wan") == 3
    s = play(s, "ben", "end")
    assert s.turn == 0


def test_healing_needs_every_minor_destroyed_and_heals_one_per_card():
    at = {"luke": "e4", "leia": "e5", "dooku": "a1"}
    s = table(characters="luke,dooku", at=at, hands=[["leia 4/1"], []], damage={"luke": 5})
    assert "minor characters destroyed" in str(refused(s, "ann", "heal leia 4/1"))
    s = table(
        characters="luke,dooku",
        at={"luke": "e4", "dooku": "a1"},
        hands=[["leia 4/1", "luke 5/1"], []],
        damage={"luke": 5, "leia": 11},
    )
    assert "cannot heal luke" in str(refused(s, "ann", "heal luke 5/1"))
    s = play(s, "ann", "heal leia 4/1")
    assert wounds(s, "luke") == 4 and s.actions == 1


# ---------------------------------------------------------------------------------- power combat
def test_power_combat_effects_come_after_damage_attacker_first():
    s = table(
        at={"obi-wan": "e4", "dooku": "e3"},
        hands=[["Jedi Block"], ["Taunting"]],
        piles=[["obi-wan 5/1"], ["dooku 1/4"]],
        turn=DOOKU_TURN,
    )
    s = attack(s, "dooku", "obi-wan", "taunting", "jedi block")  # 7 against 12: blocked
    assert wounds(s, "obi-wan") == 0
    assert hand(s, "ben") == ["dooku 1/4"] and hand(s, "ann") == ["obi-wan 5/1"]


def test_all_too_easy_deals_20_when_not_defended_and_3_when_defended():
    at = {"obi-wan": "e4", "vader": "e3"}
    s = table(characters="obi-wan,vader", at=at, hands=[[], ["All Too Easy"]], turn=1)
    s = attack(s, "vader", "obi-wan", "all too easy", None)
    assert s.phase == OVER and s.winners == (1,)
    s = table(
        characters="obi-wan,vader",
        at=at,
        hands=[["obi-wan 1/4"], ["All Too Easy"]],
        turn=1,
    )
    assert wounds(attack(s, "vader", "obi-wan", "all too easy", "1/4"), "obi-wan") == 0


def test_force_rebound_blocks_all_and_the_attacker_takes_the_attack_value():
    s = table(
        characters="yoda,vader",
        at={"yoda": "e4", "vader": "e3"},
        hands=[["Force Rebound"], ["vader 5/1"]],
        turn=1,
    )
    s = attack(s, "vader", "yoda", "5", "force rebound")
    assert wounds(s, "yoda") == 0 and wounds(s, "vader") == 5


def test_battlemind_is_worth_the_cards_left_in_hand():
    s = table(
        characters="mace,dooku",
        at={"mace": "e4", "dooku": "e3"},
        hands=[["Battlemind", "mace 5/1", "mace 4/1", "mace 4/2"], ["dooku 1/4"]],
    )
    s = attack(s, "mace", "dooku", "battlemind", "dooku 1/4")  # 3 left: 3 against 4
    assert wounds(s, "dooku") == 0
    s = table(
        characters="mace,dooku",
        at={"mace": "e4", "dooku": "e3"},
        hands=[["Battlemind"] + ["mace 5/1"] * 7, []],
    )
    assert wounds(attack(s, "mace", "dooku", "battlemind", None), "dooku") == 7


# ---------------------------------------------------------------------------------- the end
def test_destroying_the_main_character_wins():
    s = table(
        at={"obi-wan": "e4", "dooku": "e3"},
        hands=[[], ["dooku 5/1"]],
        damage={"obi-wan": 14},
        turn=DOOKU_TURN,
    )
    s = attack(s, "dooku", "obi-wan", "5", None)
    assert s.phase == OVER and s.winners == (1,) and "Obi-Wan Kenobi destroyed" in s.end_reason
    assert RULES.outcome(s).winners == (1,)


def test_a_destroyed_minor_leaves_the_board():
    s = table(
        at={"obi-wan": "e4", "ct1": "e5", "dooku": "e6"},
        hands=[[], ["dooku 5/1"]],
        turn=DOOKU_TURN,
    )
    s = attack(s, "dooku", "ct1", "5", None)
    assert where(s, "ct1") is None and not s.alive(char(s, "ct1")) and s.phase == ACT


def test_the_draw_pile_is_reshuffled_once_and_the_second_time_ends_on_least_damage():
    at = {"obi-wan": "e4", "dooku": "a1"}
    s = table(at=at, hands=[[], []], piles=[[], []], discards=[["obi-wan 5/1"], []])
    s = s._replace(damage=tuple(3 if i == char(s, "dooku") else 0 for i in range(len(s.damage))))
    s = play(s, "ann", "draw")
    assert s.passes == (1, 0) and hand(s, "ann") == ["obi-wan 5/1"] and s.discards[0] == ()
    s = play(s, "ann", "draw")  # nothing left anywhere: the second pass ends the game
    assert s.phase == OVER and s.winners == (0,) and "least damage" in s.end_reason


def test_a_tie_on_damage_is_a_tie():
    s = table(at={"obi-wan": "e4", "dooku": "a1"}, hands=[[], []], piles=[[], []])
    s = s._replace(passes=(1, 0))
    s = play(s, "ann", "draw")
    assert s.phase == OVER and s.winners == (0, 1) and "a tie" in s.end_reason


def test_option_deck_end_last_card_counts_the_pass_when_the_last_card_is_drawn():
    s = table(
        at={"obi-wan": "e4", "dooku": "a1"},
        hands=[[], []],
        piles=[["obi-wan 5/1"], []],
        discards=[["obi-wan 4/1"], []],
        options={"deck-end": "last-card"},
    )
    s = play(s, "ann", "draw")
    assert s.passes == (1, 0) and len(s.piles[0]) == 1 and s.discards[0] == ()


def test_more_than_ten_cards_from_an_effect_are_discarded_down_to_ten():
    s = table(
        characters="obi-wan,dooku",
        at={"obi-wan": "e4", "dooku": "a1"},
        hands=[[], ["Gain Power"] + ["dooku 5/1"] * 9],
        piles=[[], ["dooku 4/1", "dooku 4/2", "dooku 3/3"]],
        turn=DOOKU_TURN,
    )
    s = play(s, "ben", "play gain power")
    assert s.phase == TRIM and acting(s) == "ben" and len(s.hands[1]) == 12
    s = play(s, "ben", "discard dooku 5/1, dooku 5/1")
    assert len(s.hands[1]) == 10 and s.phase == ACT


def test_lay_lists_only_cards_of_the_attacker_with_an_attack_value():
    s = table(
        at={"obi-wan": "e4", "dooku": "e3", "sbd1": "a1"},
        hands=[[], ["dooku 5/1", "super-battle-droid 4/1", "Force Push"]],
        turn=DOOKU_TURN,
    )
    s = play(s, "ben", "attack obi-wan with dooku")
    assert s.phase == LAY and RULES.legal(s, 1) == [("lay", card(s, 1, "dooku 5/1"))]
