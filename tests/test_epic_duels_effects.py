"""Star Wars Epic Duels: one test per effect verb of the card vocabulary, and its conditions.

Each test plays a real card of the built-in decks; every command, the answers of the players a
card asks included, is decided alike on the acting player's own copy (tests/epic_duels_table.py).
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

from boardstate.modules.epic_duels import MODULE
from boardstate.modules.epic_duels._state import ACT, EFFECT, OVER, RESPOND
from boardstate.rules import UNKNOWN, InvalidCommand

RULES = MODULE.rules
BEN = 1


def ben_plays(characters, at, ben_hand, ann_hand=(), **kw):
    return table(
        characters=characters, at=at, hands=[list(ann_hand), list(ben_hand)], turn=BEN, **kw
    )


# ---------------------------------------------------------------------------------- draw
def test_draw():
    s = ben_plays(
        "obi-wan,dooku",
        {"obi-wan": "a1", "dooku": "e4"},
        ["Gain Power"],
        piles=[[], ["dooku 5/1", "dooku 4/1", "dooku 4/2", "dooku 3/3"]],
    )
    pile = s.piles[1]
    s = play(s, "ben", "play gain power")
    assert len(s.hands[1]) == 3 and s.actions == 1  # three cards at random positions
    assert sorted(s.hands[1] + s.piles[1], key=pile.index) == list(pile)  # the very secrets


# ---------------------------------------------------------------------------------- discard
def test_discard_at_random_is_picked_by_the_engine_and_turned_over_by_its_owner():
    s = ben_plays(
        "obi-wan,dooku",
        {"obi-wan": "a1", "dooku": "e4"},
        ["Force Drain"],
        ["obi-wan 5/1", "obi-wan 4/1", "obi-wan 4/2"],
    )
    s = play(s, "ben", "play force drain")
    assert s.phase == RESPOND and acting(s) == "ann" and RULES.legal(s, 0) == [("show",)]
    kind, asked, asker, n, positions = s.request
    assert (kind, asked, asker, n, len(positions)) == ("random", 0, 1, 2, 2)
    kept = [c for i, c in enumerate(s.hands[0]) if i not in positions]
    s = play(s, "ann", "show")
    assert s.hands[0] == tuple(kept) and len(s.discards[0]) == 2 and s.phase == ACT


def test_discard_of_the_owners_choice():
    s = ben_plays(
        "obi-wan,emperor",
        {"obi-wan": "a1", "emperor": "e4"},
        ["Let Go of Your Hatred"],
        ["obi-wan 5/1", "obi-wan 4/1", "Jedi Block"],
    )
    s = play(s, "ben", "play let go")
    assert s.phase == RESPOND and acting(s) == "ann"
    s = play(s, "ann", "discard obi-wan 5/1, obi-wan 4/1")
    assert hand(s, "ann") == ["Jedi Block"]


def test_discard_picked_by_the_cards_player_after_the_owner_shows_the_hand_to_them_alone():
    s = table(
        characters="yoda,dooku",
        at={"yoda": "a1", "dooku": "e4"},
        hands=[["Insight"], ["dooku 5/1", "Force Drain"]],
    )
    s = play(s, "ann", "play insight")
    assert s.phase == RESPOND and acting(s) == "ben"
    s = play(s, "ben", "show")
    assert s.phase == EFFECT and acting(s) == "ann"
    assert RULES.view(s, 0).seen[0][1][0].value is not UNKNOWN  # ann sees ben's hand
    assert all(c.value is UNKNOWN for c in RULES.view(s, 1).seen[0][1])  # nobody else does
    assert all(c.value is UNKNOWN for c in RULES.view(s, None).seen[0][1])
    s = play(s, "ann", "pick force drain")
    assert hand(s, "ben") == ["dooku 5/1"] and s.discards[1] == (card(s, 1, "Force Drain"),)


def test_discard_the_whole_hand():
    s = ben_plays(
        "obi-wan,emperor",
        {"obi-wan": "a1", "emperor": "e4"},
        ["You Will Die"],
        ["obi-wan 5/1", "Jedi Block"],
    )
    s = play(s, "ben", "play you will die")
    s = play(s, "ann", "show")
    assert hand(s, "ann") == [] and len(s.discards[0]) == 2


def test_discard_all_but_one_of_your_own_hand_after_the_combat():
    s = table(
        characters="anakin,dooku",
        at={"anakin": "e4", "dooku": "e3"},
        hands=[["Anger", "anakin 5/1", "anakin 4/1", "padme 4/1"], []],
    )
    s = attack(s, "anakin", "dooku", "anger", None)
    assert wounds(s, "dooku") == 8 and s.phase == EFFECT and acting(s) == "ann"
    kept = RULES.parse(s, 0, "keep padme 4/1")  # read as the cards it discards: the record
    assert RULES.notation(s, 0, kept) == "discard anakin 5/1, anakin 4/1"  # names no card kept
    assert kept in RULES.legal(s, 0) and len(RULES.legal(s, 0)) == 3  # one per card kept
    s = play(s, "ann", "keep padme 4/1")
    assert hand(s, "ann") == ["padme 4/1"] and len(s.discards[0]) == 3


def test_discard_every_matching_card_once_the_hand_is_shown():
    s = ben_plays(
        "obi-wan,vader",
        {"obi-wan": "a1", "vader": "e4"},
        ["Your Skills Are Not Complete"],
        ["Force Balance", "Jedi Block", "obi-wan 5/1", "Force Quickness"],
    )
    s = play(s, "ben", "play your skills")
    assert RULES.legal(s, 0) == [RULES.parse(s, 0, "discard force balance, force quickness")]
    s = play(s, "ann", "discard force balance, force quickness")  # every special card, named
    assert hand(s, "ann") == ["Jedi Block", "obi-wan 5/1"]  # special cards gone
    assert len(s.seen[1][1]) == 4  # (ben saw the whole hand)


def test_a_hand_without_a_matching_card_is_only_shown():
    s = ben_plays(
        "obi-wan,vader",
        {"obi-wan": "a1", "vader": "e4"},
        ["Your Skills Are Not Complete"],
        ["Jedi Block", "obi-wan 5/1"],
    )
    s = play(s, "ben", "play your skills")
    assert RULES.legal(s, 0) == [("show",)]
    s = play(s, "ann", "show")
    assert hand(s, "ann") == ["Jedi Block", "obi-wan 5/1"] and len(s.seen[1][1]) == 2


def test_discard_matching_from_both_hands_the_players_own_at_once():
    s = table(
        characters="luke,vader",
        at={"luke": "a1", "vader": "e4"},
        hands=[["I Will Not Fight You", "luke 5/1", "luke 1/4"], ["vader 4/1", "vader 1/4"]],
    )
    s = play(s, "ann", "play i will not fight")
    assert hand(s, "ann") == ["luke 1/4"]  # attack above 1 discarded, without being asked
    assert acting(s) == "ben" and s.phase == RESPOND
    s = play(s, "ben", "discard vader 4/1")
    assert hand(s, "ben") == ["vader 1/4"]


# ---------------------------------------------------------------------------------- search
def test_search_the_draw_pile_for_a_named_card_then_shuffle():
    s = table(
        characters="han,dooku",
        at={"han": "a1", "chewbacca": "a2", "dooku": "e4"},
        hands=[["Wookiee Instincts"], []],
        piles=[["han 4/1", "han 3/1", "Bowcaster Attack", "han 2/2"], []],
    )
    pile = s.piles[0]
    s = play(s, "ann", "play wookiee instincts")  # she looks through her whole pile
    assert s.seen[0][1] == pile and s.piles[0] == () and acting(s) == "ann"
    assert RULES.legal(s, 0) == [("take", 2, ())]  # only Bowcaster Attack, by its place
    assert RULES.notation(s, 0, ("take", 2, ())) == "take 3"  # (the record names no card)
    assert RULES.parse(s, 0, "take bowcaster attack") == ("take", 2, ())
    s = play(s, "ann", "take 3")
    assert hand(s, "ann") == ["Bowcaster Attack"] and s.hands[0][0] is pile[2]
    assert s.piles[0] == pile[:2] + pile[3:]  # "shuffle the draw pile": draws are at random


def test_look_at_four_cards_drawn_at_random_take_one_and_put_the_rest_back():
    """Future Foreseen's "top 4" are 4 cards drawn at random positions for a look (the pile is
    the Emperor's player's own: it has no top); the others go back into the pile."""
    cards = ["emperor 4/2", "Meditation", "emperor 1/5", "royal-guard 5/1", "emperor 3/3"]
    s = table(
        characters="obi-wan,emperor",
        at={"obi-wan": "a1", "emperor": "e4"},
        hands=[[], ["Future Foreseen"]],
        piles=[[], cards],
        turn=BEN,
    )
    pile = s.piles[1]
    s = play(s, "ben", "play future foreseen")
    looked = s.seen[1][1]
    assert s.phase == EFFECT and len(looked) == 4 and len(s.piles[1]) == 1
    assert set(looked) | set(s.piles[1]) == set(pile)  # the very secrets, out of the pile
    assert RULES.legal(s, BEN) == [("take", i, ()) for i in range(4)]  # by place: no face
    with pytest.raises(InvalidCommand, match="say 'take CARD' or 'take N'"):
        RULES.parse(s, BEN, "take meditation then emperor 4/2")
    with pytest.raises(InvalidCommand, match="you look at 4 cards"):
        RULES.parse(s, BEN, "take 5")
    taken = looked[1]
    s = play(s, "ben", "take 2")
    assert s.hands[1] == (taken,) and s.seen[1] == () and s.phase == ACT
    assert sorted(s.piles[1], key=pile.index) == [c for c in pile if c is not taken]


def test_search_the_discard_pile():
    s = table(
        at={"obi-wan": "a1", "dooku": "e4"},
        hands=[["Jedi Mind Trick"], []],
        discards=[["obi-wan 5/1", "Jedi Block"], []],
    )
    s = play(s, "ann", "play jedi mind trick")
    s = play(s, "ann", "take jedi block")
    assert hand(s, "ann") == ["Jedi Block"] and s.discards[0][0] == card(s, 0, "obi-wan 5/1")


def test_reshuffle_the_discard_pile_into_the_draw_pile():
    s = table(
        characters="han,dooku",
        at={"han": "a1", "dooku": "e4"},
        hands=[["Never Tell Me the Odds"], []],
        piles=[["han 4/1"], []],
        discards=[["han 3/1", "han 2/2"], []],
        options={"alternatives": "c-odds-reshuffle"},
    )
    pile = s.piles[0]
    s = play(s, "ann", "play never tell me")
    assert len(s.piles[0]) == 3 and s.discards[0] == (card(s, 0, "Never Tell Me the Odds"),)
    assert s.piles[0][0] is pile[0]  # the draw pile's own secrets stay; the discards join it
    assert all(c.owners == 1 for c in s.piles[0])  # arranged for ann


# ---------------------------------------------------------------------------------- damage etc.
def test_damage_a_chosen_character_anywhere():
    s = ben_plays("obi-wan,vader", {"obi-wan": "a1", "ct1": "j7", "vader": "e4"}, ["Throw Debris"])
    s = play(s, "ben", "play throw debris")
    assert s.phase == EFFECT and "target" in RULES.notation(s, 1, RULES.legal(s, 1)[0])
    s = play(s, "ben", "target ct1")
    assert wounds(s, "ct1") == 4 and where(s, "ct1") == "j7"  # 4 wound points: not beyond


def test_option_destroyed_at_zero_destroys_at_damage_equal_to_the_wound_points():
    s = ben_plays(
        "obi-wan,vader",
        {"obi-wan": "a1", "ct1": "j7", "vader": "e4"},
        ["Throw Debris"],
        options={"destroyed": "at-zero"},
    )
    s = play(play(s, "ben", "play throw debris"), "ben", "target ct1")
    assert where(s, "ct1") is None


def test_damage_each_attackable_character_and_a_detonators_neighbours():
    s = table(
        characters="mace,dooku",
        at={"mace": "e4", "dooku": "e3", "sbd1": "d5", "sbd2": "a1"},
        hands=[["Whirlwind Attack"], []],
    )
    s = play(s, "ann", "play whirlwind")
    assert wounds(s, "dooku") == 4 and wounds(s, "sbd1") == 4 and wounds(s, "sbd2") == 0
    s = table(
        characters="obi-wan,boba",
        at={"obi-wan": "e4", "ct1": "e5", "ct2": "h4", "boba": "e1"},
        hands=[[], ["Thermal Detonator"]],
        turn=BEN,
    )
    s = play(s, "ben", "play thermal")
    s = play(s, "ben", "target obi-wan")
    assert wounds(s, "obi-wan") == 4 and wounds(s, "ct1") == 4 and wounds(s, "ct2") == 0


def test_heal_never_above_the_starting_wound_points_and_forbid_draw():
    s = ben_plays(
        "obi-wan,emperor", {"obi-wan": "a1", "emperor": "e4"}, ["Meditation"], damage={"emperor": 2}
    )
    s = play(s, "ben", "play meditation")
    assert wounds(s, "emperor") == 0 and s.no_draw == (True, False)
    s = play(s, "ben", "draw")  # ben's second action: the turn passes to ann
    s = play(s, "ann", "done")
    assert "forbids drawing" in str(refused(s, "ann", "draw"))


def test_destroy_when_the_condition_holds():
    s = table(
        characters="obi-wan,boba",
        at={"obi-wan": "e4", "greedo": "e3", "boba": "a1"},
        hands=[[], ["Desperate Shot"]],
        turn=BEN,
    )
    s = attack(s, "greedo", "obi-wan", "desperate shot", None)  # 7: Obi-Wan stands
    assert wounds(s, "obi-wan") == 7 and where(s, "greedo") is None


def test_move_any_or_all_characters_by_the_card_player():
    s = table(
        at={"obi-wan": "e4", "ct1": "a1", "dooku": "e3"},
        hands=[["Force Control"], []],
    )
    s = attack(s, "obi-wan", "dooku", "force control", None)
    assert wounds(s, "dooku") == 7 and s.phase == EFFECT
    s = play(s, "ann", "move dooku h3")  # an enemy, moved by the card's player
    s = play(s, "ann", "move ct1 a4")
    s = play(s, "ann", "done")
    assert where(s, "dooku") == "h3" and where(s, "ct1") == "a4" and where(s, "obi-wan") == "e4"


def test_move_self_and_each_of_a_minor_type():
    s = ben_plays(
        "obi-wan,dooku",
        {"obi-wan": "a7", "dooku": "e4", "sbd1": "e5", "sbd2": "e3"},
        ["Give Orders"],
    )
    s = play(s, "ben", "play give orders")
    s = play(s, "ben", "move dooku a4")
    s = play(s, "ben", "move sbd2 b2")
    s = play(s, "ben", "done")
    assert where(s, "dooku") == "a4" and where(s, "sbd2") == "b2" and where(s, "sbd1") == "e5"


def test_place_an_adjacent_character_anywhere_then_damage_it():
    s = ben_plays("obi-wan,dooku", {"obi-wan": "e4", "dooku": "e3"}, ["Force Push"])
    s = play(s, "ben", "play force push")
    s = play(s, "ben", "place obi-wan a7")
    assert where(s, "obi-wan") == "a7" and wounds(s, "obi-wan") == 1


def test_swap_places():
    s = ben_plays(
        "obi-wan,emperor", {"obi-wan": "a7", "emperor": "e4", "rg2": "h2"}, ["Royal Command"]
    )
    s = play(s, "ben", "play royal command")
    assert where(s, "emperor") == "h2" and where(s, "rg2") == "e4"


def test_immobilize_until_its_player_discards_to_free_it():
    s = table(
        characters="yoda,dooku",
        at={"yoda": "e4", "dooku": "e3"},
        hands=[["Force Lift"], []],
    )
    s = play(s, "ann", "play force lift")
    assert s.held[char(s, "dooku")] == 3


def test_lose_actions_for_the_player_of_the_character_hit():
    s = table(
        characters="obi-wan,jango",
        at={"obi-wan": "e4", "jango": "e1"},
        hands=[[], ["Wrist Cable"]],
        turn=BEN,
    )
    s = play(s, "ben", "play wrist cable")
    assert wounds(s, "obi-wan") == 2 and s.lost == (1, 0)
    s = play(s, "ben", "draw")
    s = play(s, "ben", "end")  # (Jango's deck has a card that is not an action)
    assert s.turn == 0 and s.actions == 1


# ---------------------------------------------------------------------------------- conditions
def test_an_optional_step_and_previous_done():
    s = table(
        characters="anakin,dooku",
        at={"anakin": "a1", "padme": "e4", "dooku": "e7"},
        hands=[["Precise Shot", "anakin 5/1"], []],
        piles=[["anakin 4/1"], []],
    )
    s = attack(s, "padme", "dooku", "precise shot", None)
    assert wounds(s, "dooku") == 9 and ("skip",) in RULES.legal(s, 0)
    skipped = play(s, "ann", "skip")
    assert hand(skipped, "ann") == ["anakin 5/1"]  # no discard, so no draw
    done = play(s, "ann", "discard anakin 5/1")
    assert hand(done, "ann") == ["anakin 4/1"]


def test_hand_size_adjacent_to_and_destroyed_conditions():
    s = table(
        characters="anakin,dooku",
        at={"anakin": "a1", "dooku": "j7"},
        hands=[["Calm"], []],
        piles=[["anakin 5/1"] * 6, []],
    )
    s = play(s, "ann", "play calm")
    s = play(s, "ann", "done")
    assert len(s.hands[0]) == 5  # the hand was empty after playing Calm
    at = {"luke": "e4", "leia": "e5", "dooku": "a1"}
    hurt = {"luke": 5, "leia": 5}
    s = table(characters="luke,dooku", at=at, hands=[["Luke's in Trouble"], []], damage=hurt)
    s = play(s, "ann", "play luke's in trouble")
    assert wounds(s, "luke") == 2 and wounds(s, "leia") == 5


def test_a_typographic_apostrophe_names_the_card_as_the_plain_one():
    """A mail client may turn "Luke's" into "Luke’s": the command still names the card."""
    at = {"luke": "e4", "leia": "e5", "dooku": "a1"}
    hurt = {"luke": 5, "leia": 5}
    s = table(characters="luke,dooku", at=at, hands=[["Luke's in Trouble"], []], damage=hurt)
    assert play(s, "ann", "play Luke’s in Trouble") == play(s, "ann", "play luke's in trouble")


def test_damage_dealt_and_opposing_destroyed_conditions():
    s = table(
        characters="han,dooku",
        at={"han": "e4", "dooku": "e3"},
        hands=[["Gambler's Luck"], ["dooku 5/1"]],
    )
    s = attack(s, "han", "dooku", "gambler's luck", None)
    assert s.phase == RESPOND and acting(s) == "ben"
    s = play(s, "ben", "show")
    assert hand(s, "ben") == []
    s = table(
        characters="obi-wan,boba",
        at={"obi-wan": "a7", "ct1": "h4", "boba": "e1"},
        hands=[[], ["Kyber Dart"]],
        piles=[[], ["boba 4/1", "boba 3/1", "boba 3/2"]],
        turn=BEN,
    )
    s = attack(s, "boba", "ct1", "kyber dart", None)
    assert where(s, "ct1") is None and len(s.hands[1]) == 3


def test_a_main_destroyed_by_a_card_ends_the_game():
    s = ben_plays(
        "obi-wan,vader", {"obi-wan": "a1", "vader": "e4"}, ["Throw Debris"], damage={"obi-wan": 15}
    )
    s = play(s, "ben", "play throw debris")  # (its one target: an enemy character)
    assert s.phase == OVER and s.winners == (1,)
