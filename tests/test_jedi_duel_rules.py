"""The rule text of Jedi Duel (Curufea), statement by statement, on tables set up by hand.

Each test quotes the sentence it checks.  Cards are written as in the notation: 7H, QC, RJ.
The Playaid numbers are the shipped reconstruction: attack +1 to the stance's own or a neighbouring
area, +2 between high and low; defence modifier high +5, middle +2, low +3.
"""

from __future__ import annotations

import pytest

import boardstate as bs
from boardstate.modules.jedi_duel import MODULE, _cards
from boardstate.modules.jedi_duel._combat import column_bottom, column_top
from boardstate.modules.jedi_duel._state import (
    ACTION,
    DEFEND,
    LOOK,
    OVER,
    RETURN,
    SETUP,
    SHOW,
    STANCE,
    HandSeen,
    StanceKept,
)
from boardstate.rules import seats_mask
from boardstate.testing import (
    Rng,  # (only to make the secret cards of a table set up by hand)
    decide,
    held_by,
    initial_state,
    start,
    validate,
)

RULES = MODULE.rules
HIGH, MIDDLE, LOW = "high", "middle", "low"
_AREA = {HIGH: 0, MIDDLE: 1, LOW: 2}


def c(text: str) -> int:
    return _cards.parse(text)


def table(
    players=("ann", "ben"),
    hands=None,
    stances=None,
    fatigue=None,
    deck=(),
    discard=(),
    turn=0,
    phase=ACTION,
    options=None,
    immune=None,
    passes=0,
    revision=None,
):
    """A table in the middle of play: ``turn`` is the active seat, asked for ``phase``; under
    the newest rules revision unless ``revision`` says otherwise."""
    rng = Rng(b"table", b"setup")
    n = len(players)
    s = initial_state(MODULE, players, options, revision=revision)
    hands = hands or [[] for _ in players]
    stances = stances or [None] * n
    s = s._replace(
        hands=tuple(tuple(rng.secret(c(x), seats_mask(i)) for x in h) for i, h in enumerate(hands)),
        stance_card=tuple(c(st[0]) if st else -1 for st in stances),
        stance_area=tuple(_AREA[st[1]] if st else -1 for st in stances),
        fatigue=tuple(fatigue or [21] * n),
        immune=tuple(immune or [False] * n),
        deck=tuple(rng.secret(c(x)) for x in deck),
        discard=tuple(c(x) for x in discard),
        dealer=(turn - 1) % n,
        turn=turn,
        turns=1,
        phase=phase,
        queue=(turn,),
        passes=passes,
    )
    return s


def play(s, seat_name: str, text: str, seed: bytes = b"t"):
    """Parse, validate, decide and fold one command, as the engine does."""
    return played(s, seat_name, text, seed)[1]


def played(s, seat_name: str, text: str, seed: bytes = b"t"):
    """``(events, state after them)`` of one command, as the engine gets them."""
    seat = s.players.index(seat_name)
    command = RULES.parse(s, seat, text)
    validate(MODULE, s, seat, command)
    return decide(MODULE, s, ((seat, command),), seed=seed, stream=b"move")


def play_on_own_copy(s, seat_name: str, text: str):
    """Play a command, and require that the player's own copy (their hand, the public table, the
    deck's face-down cards, never another hand) decides the same events."""
    seat = s.players.index(seat_name)
    events, after = played(s, seat_name, text)
    command = RULES.parse(s, seat, text)
    mine, _ = decide(MODULE, held_by(s, seat), ((seat, command),), seed=b"t", stream=b"move")
    assert mine == events
    return events, after


def refused(s, seat_name: str, text: str) -> bs.IllegalCommand:
    with pytest.raises(bs.IllegalCommand) as info:
        play(s, seat_name, text)
    return info.value


def hand(s, seat_name: str) -> list[str]:
    return [_cards.name(x.value) for x in s.hands[s.players.index(seat_name)]]


def acting(s) -> str:
    return s.players[s.queue[0]]


FULL_DECK = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "2D", "3D", "4D"]


# ------------------------------------------------------------------------------ Cards
def test_the_deck_is_52_cards_and_two_jokers_ace_1_jack_11_queen_12_king_13():
    """ "Ace is worth 1, Jack 11, Queen 12 and King 13."  Needed to play: playing cards."""
    assert len(_cards.DECK) == 54
    assert sum(_cards.IS_JOKER) == 2
    assert [_cards.RANK[c(x)] for x in ("AS", "10D", "JH", "QC", "KS")] == [1, 10, 11, 12, 13]
    assert sorted(_cards.name(x) for x in _cards.DECK) == sorted(
        {_cards.name(x) for x in _cards.DECK}
    )


# ------------------------------------------------------------------------------ Setup
@pytest.mark.parametrize("n", [2, 3, 6])
def test_setup_deals_five_and_everyone_but_the_dealers_left_shows_a_stance(n):
    """ "Deal 5 cards to each player ... All players except the player to the left of the Dealer
    play one card ... to show their initial Stance. These player(s) then draw a replacement card.
    Play begins with the player to the left of the Dealer."  Counters start on 21."""
    players = tuple(f"p{i}" for i in range(n))
    _, s = start(MODULE, initial_state(MODULE, players), seed=b"setup")
    first = (s.dealer + 1) % n
    assert all(len(h) == 5 for h in s.hands) and len(s.deck) == 54 - 5 * n
    assert s.fatigue == (21,) * n and s.phase == SETUP
    assert s.queue == tuple((first + k) % n for k in range(1, n))
    for _ in range(n - 1):
        seat = s.queue[0]
        command = RULES.legal(s, seat)[0]
        _, s = decide(MODULE, s, ((seat, command),), seed=b"setup", stream=b"s%d" % seat)
        assert len(s.hands[seat]) == 5 and s.stance_card[seat] >= 0
    assert s.turn == first and s.phase == STANCE and s.queue == (first,)
    assert s.stance_card[first] == -1
    assert len(s.deck) == 54 - 5 * n - (n - 1)


# ------------------------------------------------------------------------------ Fatigue Playaid
@pytest.mark.parametrize(
    "fatigue,top,bottom",
    [(21, 21, 15), (15, 21, 15), (14, 14, 8), (8, 14, 8), (7, 7, 1), (1, 7, 1)],
)
def test_the_fatigue_playaid_has_three_columns_of_seven(fatigue, top, bottom):
    """Fatigue Playaid: columns 21-15, 14-8 and 7-1."""
    assert column_top(fatigue) == top and column_bottom(fatigue) == bottom


# ------------------------------------------------------------------------------ Stance
def test_a_new_stance_each_turn_and_the_old_one_is_discarded():
    """ "1. Discard your current Stance. 2. Play a new Stance."  "You can keep the same Stance if
    you play the same suit." """
    s = table(
        hands=[["7H", "2S", "3D", "4C", "5C"], ["8D"]],
        stances=[("9H", MIDDLE), ("KD", HIGH)],
        phase=STANCE,
    )
    s = play(s, "ann", "stance 7H")
    assert s.stance_card[0] == c("7H") and s.stance_area[0] == 1
    assert (
        s.discard == (c("9H"),) and s.phase == ACTION and hand(s, "ann") == ["2S", "3D", "4C", "5C"]
    )


def test_a_club_goes_to_any_stance_and_takes_its_suit():
    """ "You can play a Club card to any of the three Stances and it becomes that suit." """
    s = table(
        hands=[["4C", "QD", "2S", "3S", "5H"], []],
        stances=[("9H", MIDDLE), ("KD", HIGH)],
        phase=STANCE,
    )
    s = play(s, "ann", "stance 4C high")
    assert s.stance_area[0] == 0
    # it became a Diamond: the Queen of Diamonds now works as a Force power
    assert ("push", c("QD")) in RULES.legal(s, 0)


def test_a_suit_decides_the_stance_and_a_joker_is_no_stance():
    """ "Playing a Diamond ... High Stance", "a Heart ... Middle", "a Spade ... Low"."""
    s = table(
        hands=[["7H", "RJ", "2S", "3D", "4C"], []],
        stances=[("9H", MIDDLE), ("KD", HIGH)],
        phase=STANCE,
    )
    assert play(s, "ann", "stance 3D").stance_area[0] == 0
    assert play(s, "ann", "stance 2S").stance_area[0] == 2
    assert refused(s, "ann", "stance 7H low").code == "stance-suit"
    assert refused(s, "ann", "stance RJ middle").code == "joker-stance"


def jokers_table(revision=None):
    """Ben's hand holds only Jokers when his turn comes."""
    return table(
        hands=[["5H", "6H", "7H", "8H"], ["RJ", "BJ"]],
        stances=[("8D", HIGH), ("9S", LOW)],
        deck=FULL_DECK,
        revision=revision,
    )


def test_a_hand_of_jokers_only_is_asked_anyway_and_keeps_its_stance():
    """Revision 2: whether Ben holds a stance card is his to say, so Ann's decision does not look:
    Ben is asked for his stance, and with Jokers only he answers 'keep' (docs, choice 5)."""
    events, s = play_on_own_copy(jokers_table(), "ann", "discard 5H")
    assert s.turn == 1 and s.phase == STANCE and acting(s) == "ben"
    assert RULES.legal(s, 1) == [("keep",)]
    events, s = play_on_own_copy(s, "ben", "keep")
    assert events[0] == StanceKept(1)
    assert s.stance_card[1] == c("9S") and s.stance_area[1] == 2 and c("9S") not in s.discard
    assert s.phase == ACTION and acting(s) == "ben" and hand(s, "ben") == ["RJ", "BJ"]
    assert ("lightning", (c("RJ"), c("BJ"))) in RULES.legal(s, 1)


def test_keep_is_refused_to_a_hand_that_holds_a_stance_card():
    """ "Every time you play you must first play a new card to your Stance." """
    s = table(hands=[["7H", "RJ"], []], stances=[("9H", MIDDLE), ("KD", HIGH)], phase=STANCE)
    assert ("keep",) not in RULES.legal(s, 0)
    assert refused(s, "ann", "keep").code == "must-change-stance"
    assert (
        refused(
            table(
                hands=[["7H", "RJ"], []],
                stances=[("9H", MIDDLE), ("KD", HIGH)],
                phase=STANCE,
                revision=1,
            ),
            "ann",
            "keep",
        ).code
        == "keep-revision"
    )


def test_revision_1_skips_the_stance_of_a_hand_of_jokers():
    """Revision 1: the previous player's decision looks into the hand and goes on to the action."""
    s = play(jokers_table(revision=1), "ann", "discard 5H")
    assert s.turn == 1 and s.phase == ACTION and s.stance_card[1] == c("9S")


# ------------------------------------------------------------------------------ Attack
def test_an_attack_in_the_defenders_stance_area_compares_with_the_stance_card():
    """ "Play a non-royal card for an attack. Its rank is its speed. Add the attack speed modifier
    ... Compare the total to the card in your target's Stance. ... the difference in the totals is
    the amount of Fatigue damage caused to the defender."
    Ann (middle) attacks high with 3D: 3 + 1 = 4 against Ben's high-stance 9D: 9 - 4 = 5."""
    s = table(
        hands=[["3D", "5H", "6H", "7H"], ["2H"]],
        stances=[("8H", MIDDLE), ("9D", HIGH)],
        deck=FULL_DECK,
    )
    s = play(s, "ann", "attack ben 3D")
    assert s.phase == DEFEND and acting(s) == "ben" and s.attack[3] == 4
    s = play(s, "ben", "take")
    assert s.fatigue[1] == 21 - 5


def test_an_attack_in_another_area_adds_the_defence_modifier_of_the_defenders_stance():
    """ "If attacking an area other than their Stance, also add the defensive modifier for their
    Stance."  Ann (high) attacks low with 4S: 4 + 2 = 6 against Ben's high 9D + 5 = 14: 8 damage."""
    s = table(
        hands=[["4S", "5H", "6H", "7H"], ["2H"]],
        stances=[("8D", HIGH), ("9D", HIGH)],
        deck=FULL_DECK,
    )
    s = play(s, "ann", "attack ben 4S")
    assert "speed 6 against a stance defence of 14 (8 damage if taken)" in RULES.render(s, 1)
    s = play(s, "ben", "take")
    assert s.fatigue[1] == 21 - 8


def test_a_slower_attack_does_no_damage():
    """ "If the attack value is lower, the attack is faster than the defence"; otherwise nothing."""
    s = table(
        hands=[["10H", "5H", "6H", "7H"], ["2H"]],
        stances=[("8H", MIDDLE), ("3H", MIDDLE)],
        deck=FULL_DECK,
    )
    s = play(play(s, "ann", "attack ben 10H"), "ben", "take")
    assert s.fatigue[1] == 21


def test_a_club_attack_names_its_area_and_adds_no_speed_modifier():
    """ "Club cards do not add the attack speed modifier but you must still state which area it is
    attacking ... as it effects the defence modifier."  3C to the low area against Ben's middle
    stance 6H: 3 against 6 + 2 = 8, 5 damage; to the middle: 3 against 6, 3 damage."""
    base = table(
        hands=[["3C", "5H", "6S", "7H"], ["2H"]],
        stances=[("8D", HIGH), ("6H", MIDDLE)],
        deck=FULL_DECK,
    )
    with pytest.raises(bs.AmbiguousCommand):
        RULES.parse(base, 0, "attack ben 3C")
    s = play(play(base, "ann", "attack ben 3C low"), "ben", "take")
    assert s.fatigue[1] == 21 - 5
    s = play(play(base, "ann", "attack ben 3C middle"), "ben", "take")
    assert s.fatigue[1] == 21 - 3


def test_royals_do_not_attack():
    """ "Play a non-royal card for an attack." """
    s = table(hands=[["JH", "5H", "6H", "7H"], ["2H"]], stances=[("8H", MIDDLE), ("9D", HIGH)])
    assert refused(s, "ann", "attack ben JH").code == "royal-attack"


def test_a_club_is_a_temporary_defence_without_modifier_and_is_replaced():
    """ "The defender may: Discard a Club card as a temporary defense. Club cards played in defense
    do not have defensive modifiers added to them."  "Then the defender draws a card if they
    played a Club."  4S from the high stance (6) against 5C: no damage; without the Club:
    9 + 5 = 14, 8 damage."""
    s = table(
        hands=[["4S", "5H", "6H", "7H"], ["5C", "2H"]],
        stances=[("8D", HIGH), ("9D", HIGH)],
        deck=["2C", "3C", "4C", "5D"],
    )
    s = play(s, "ann", "attack ben 4S")
    assert ("defend", c("5C")) in RULES.legal(s, 1)
    s = play(s, "ben", "defend 5C")
    assert s.fatigue[1] == 21 and s.discard[-1] == c("5C")
    # Ann draws back to five first, then Ben his replacement
    assert hand(s, "ann") == ["5H", "6H", "7H", "2C", "3C"]
    assert hand(s, "ben") == ["2H", "4C"]
    assert s.turn == 1 and s.phase == STANCE


# ------------------------------------------------------------------------------ Force Defence
def test_force_defence_negates_an_attack_with_a_royal_of_the_stance_suit_or_a_club_royal():
    """ "Royal cards may also be discarded to negate any attack ... You must play a card of the suit
    of your current Stance (or a Club Royal)." """
    s = table(
        hands=[["2H", "5H", "6H", "7H"], ["QH", "KC", "JD", "3S"]],
        stances=[("8H", MIDDLE), ("10H", MIDDLE)],
        deck=FULL_DECK,
    )
    s = play(s, "ann", "attack ben 2H")
    listed = RULES.legal(s, 1)
    assert ("force-defend", c("QH"), -1) in listed and ("force-defend", c("KC"), -1) in listed
    assert refused(s, "ben", "force-defend JD").code == "defence-suit"
    after = play(s, "ben", "force-defend QH")
    assert after.fatigue[1] == 21 and len(hand(after, "ben")) == 4  # 3 kept + the replacement


def test_force_defence_is_useless_against_the_high_stance():
    """ "You cannot defend against attacks made by someone in the High Stance." """
    s = table(
        hands=[["2D", "5H", "6H", "7H"], ["KD", "KC", "3C"]],
        stances=[("8D", HIGH), ("10D", HIGH)],
        deck=FULL_DECK,
    )
    s = play(s, "ann", "attack ben 2D")
    # a Club royal is still a Club: it may serve as a temporary defence, never as a Force Defence
    assert RULES.legal(s, 1) == [("take",), ("defend", c("KC")), ("defend", c("3C"))]
    assert refused(s, "ben", "force-defend KD").code == "force-aware"


def test_fumble_swaps_the_attackers_stance_card_when_the_defender_is_a_column_lower():
    """ "If your fatigue is in a column lower than your attacker's and you successfully play a
    Force Defence you may choose to cause your attacker to fumble: Swap their current Stance card
    with a card from your hand." """
    s = table(
        hands=[["2H", "5H", "6H", "7H"], ["QH", "KS", "3S"]],
        stances=[("8H", MIDDLE), ("10H", MIDDLE)],
        fatigue=[20, 12],
        deck=FULL_DECK,
    )
    s = play(s, "ann", "attack ben 2H")
    s = play(s, "ben", "force-defend QH fumble KS")
    assert s.stance_card[0] == c("KS") and s.stance_area[0] == 2  # option fumble-stance=card
    assert "8H" in hand(s, "ben") and "KS" not in hand(s, "ben")


def test_fumble_keeps_the_attackers_area_with_the_area_option_and_needs_a_lower_column():
    s = table(
        hands=[["2H", "5H", "6H", "7H"], ["QH", "KS", "3S"]],
        stances=[("8H", MIDDLE), ("10H", MIDDLE)],
        fatigue=[20, 12],
        deck=FULL_DECK,
        options={"fumble-stance": "area"},
    )
    s1 = play(play(s, "ann", "attack ben 2H"), "ben", "force-defend QH fumble KS")
    assert s1.stance_card[0] == c("KS") and s1.stance_area[0] == 1
    same_column = play(s._replace(fatigue=(20, 15)), "ann", "attack ben 2H")
    assert refused(same_column, "ben", "force-defend QH fumble KS").code == "no-fumble"


# ------------------------------------------------------------------------------ Jokers
def test_a_joker_moves_the_target_to_the_bottom_of_its_column():
    """ "You may only play a Joker from the Medium or Low Stance. The only defence is a Force
    Defence. Move the target's Fatigue Counter to the bottom of its current column." """
    s = table(
        hands=[["RJ", "5H", "6H", "7H"], ["3C", "2S"]],
        stances=[("8S", LOW), ("10H", MIDDLE)],
        fatigue=[21, 13],
        deck=FULL_DECK,
    )
    s = play(s, "ann", "attack ben joker")
    assert RULES.legal(s, 1) == [("take",)]  # no Club defence against a Joker
    s = play(s, "ben", "take")
    assert s.fatigue[1] == 8


def test_no_joker_from_the_high_stance():
    s = table(hands=[["RJ", "5H", "6H", "7H"], ["3C"]], stances=[("8D", HIGH), ("10H", MIDDLE)])
    assert refused(s, "ann", "attack ben RJ").code == "joker-stance"


def test_a_force_defence_stops_a_joker():
    s = table(
        hands=[["BJ", "5H", "6H", "7H"], ["JC"]],
        stances=[("8H", MIDDLE), ("10H", MIDDLE)],
        fatigue=[21, 13],
        deck=FULL_DECK,
    )
    s = play(play(s, "ann", "attack ben BJ"), "ben", "force-defend JC")
    assert s.fatigue[1] == 13


# ------------------------------------------------------------------------------ Force powers
def test_force_heal_moves_the_counter_to_the_top_of_its_column():
    """ "Force Heal (Jack). Move your Fatigue Counter to the top of its current column." """
    s = table(
        hands=[["JH", "5H", "6H", "7H"], []],
        stances=[("8H", MIDDLE), ("9D", HIGH)],
        fatigue=[9, 21],
        deck=FULL_DECK,
    )
    assert play(s, "ann", "heal JH").fatigue[0] == 14


def test_a_power_needs_the_suit_of_the_stance_or_a_club_royal():
    """ "The power only works if it is the same suit as your current Stance (or if it is a Club
    Royal)." """
    s = table(
        hands=[["JS", "JC", "6H", "7H"], []],
        stances=[("8H", MIDDLE), ("9D", HIGH)],
        fatigue=[9, 21],
        deck=FULL_DECK,
    )
    assert refused(s, "ann", "heal JS").code == "power-suit"
    assert play(s, "ann", "heal JC").fatigue[0] == 14


def test_force_push_makes_immune_until_the_next_turn_except_from_the_high_stance():
    """ "Force Pull / Force Push (Queen). You are immune from attacks until your next turn. Unless
    they are made by opponents in the High Stance." """
    s = table(
        players=("ann", "ben", "cy"),
        hands=[["QH", "5H", "6H", "7H"], ["2H", "3H"], ["3D", "4D"]],
        stances=[("8H", MIDDLE), ("9H", MIDDLE), ("9D", HIGH)],
        deck=FULL_DECK * 2,
    )
    s = play(s, "ann", "push QH")
    assert s.immune == (True, False, False) and acting(s) == "ben"
    s = play(s, "ben", "stance 2H")
    assert refused(s, "ben", "attack ann 3H").code == "immune"
    s = play(s, "ben", "attack cy 3H")
    s = play(s, "cy", "take")
    s = play(s, "cy", "stance 3D")
    # cy attacks from the high stance: the immunity does not hold against it
    assert ("attack", 0, c("4D"), 0) in RULES.legal(s, 2)
    s = play(s, "cy", "discard 4D")
    # the immunity ends when ann's next turn begins
    assert s.turn == 0 and s.immune == (False, False, False)


def sense_table(revision=None):
    return table(
        players=("ann", "ben", "cy"),
        hands=[["KH", "5H", "6H", "7H"], ["2S", "3S", "4S", "5S", "6S"], ["2D"]],
        stances=[("8H", MIDDLE), ("9S", LOW), ("9D", HIGH)],
        deck=FULL_DECK,
        revision=revision,
    )


def test_force_sense_shows_a_hand_to_the_looker_only_and_swaps_one_card():
    """ "Force Sense (King). Look at an opponent's hand and swap one of your remaining three cards
    with one of theirs. Unless your opponent is in the High Stance."  (Revision 1: the looker's
    own decision looks into the hand.)"""
    s = sense_table(revision=1)
    assert refused(s, "ann", "sense cy KH").code == "force-aware"
    s = play(s, "ann", "sense ben KH")
    assert s.phase == LOOK and acting(s) == "ann"
    assert_only_ann_sees_bens_hand(s)
    s = play(s, "ann", "swap 6H 2")  # give my 6H, take their card 2 (3S)
    assert hand(s, "ann") == ["5H", "7H", "3S", "2C", "3C"]
    assert hand(s, "ben") == ["2S", "4S", "5S", "6S", "6H"]
    assert s.peek == ()


def assert_only_ann_sees_bens_hand(s) -> None:
    """After a Force Sense by Ann on Ben: her view shows his hand, the others' do not, and she
    may swap any of her three cards for any of his five."""
    mine = RULES.view(s, 0)
    assert [_cards.name(x.value) for x in mine.peek[1]] == ["2S", "3S", "4S", "5S", "6S"]
    for other in (1, 2):
        assert all(not x.known for x in RULES.view(s, other).peek[1])
    assert len(RULES.legal(s, 0)) == 3 * 5


def test_force_sense_asks_the_target_whose_answer_shows_the_hand_to_the_looker_only():
    """Revision 2: only Ben holds his hand, so Ann's decision asks him; his answer shows it."""
    s = sense_table()
    assert refused(s, "ann", "sense cy KH").code == "force-aware"
    events, s = play_on_own_copy(s, "ann", "sense ben KH")
    assert not any(isinstance(e, HandSeen) for e in events) and s.peek == ()
    assert s.phase == SHOW and acting(s) == "ben"
    assert RULES.legal(s, 1) == [("show",)]
    assert refused(s, "ben", "take").code == "wrong-step"
    assert "ben to show their hand to the Force Sense" in RULES.render(RULES.view(s, 0), 0)
    events, s = play_on_own_copy(s, "ben", "show")
    (seen,) = [e for e in events if isinstance(e, HandSeen)]
    assert (seen.seat, seen.target) == (0, 1)
    assert all(x.owners == seats_mask(0) for x in seen.cards)
    assert s.phase == LOOK and acting(s) == "ann"
    assert_only_ann_sees_bens_hand(s)
    _, s = play_on_own_copy(s, "ann", "swap 6H 2")  # the swap reads what Ann saw, not Ben's hand
    assert hand(s, "ann") == ["5H", "7H", "3S", "2C", "3C"]
    assert hand(s, "ben") == ["2S", "4S", "5S", "6S", "6H"]
    assert s.peek == ()


def test_force_sense_on_an_empty_hand_sees_nothing_and_asks_nobody():
    """An empty hand has nothing to show (its size is public): the looker's decision goes on."""
    s = sense_table()
    s = s._replace(hands=(s.hands[0], (), s.hands[2]))
    events, s = play_on_own_copy(s, "ann", "sense ben KH")
    assert HandSeen(0, 1, ()) in events
    assert not any(getattr(e, "phase", None) == SHOW for e in events)
    assert s.turn == 1 and len(hand(s, "ann")) == 5


# ------------------------------------------------------------------------------ Force Lightning
def test_force_lightning_sends_everyone_not_high_to_the_bottom_unless_they_force_defend():
    """ "If you are in Medium or Low Stance you may play four royal cards of any suit ... Every
    player not in the High Stance is affected and moves their fatigue to the bottom of their
    current column unless they are able to successfully play a Force Defence." """
    s = table(
        players=("ann", "ben", "cy", "dee"),
        hands=[["JD", "QS", "KC", "KH"], ["2S"], ["QH", "3H"], ["5D"]],
        stances=[("8H", MIDDLE), ("9S", LOW), ("9H", MIDDLE), ("9D", HIGH)],
        fatigue=[21, 18, 11, 20],
        deck=FULL_DECK,
    )
    s = play(s, "ann", "lightning JD QS KC KH")
    assert s.phase == DEFEND and s.queue == (1, 2)  # dee is in the high stance
    s = play(s, "ben", "take")
    assert s.fatigue[1] == 15
    s = play(s, "cy", "force-defend QH")
    assert s.fatigue[2] == 11
    assert len(hand(s, "ann")) == 5 and s.turn == 1


def test_force_lightning_with_both_jokers_and_never_from_the_high_stance():
    s = table(
        hands=[["RJ", "BJ", "5H", "6H"], ["2S"]],
        stances=[("8S", LOW), ("9S", LOW)],
        fatigue=[21, 12],
        deck=FULL_DECK,
    )
    assert play(play(s, "ann", "lightning jokers"), "ben", "take").fatigue[1] == 8
    high = s._replace(stance_card=(c("8D"), c("9S")), stance_area=(0, 2))
    assert refused(high, "ann", "lightning RJ BJ").code == "lightning-stance"


def test_lightning_fumbles_go_in_player_order_and_the_second_takes_the_card_just_placed():
    """ "multiple players may cause Fumbles if eligible and cards are swapped in player order (the
    first player to the left swaps cards, the next player will be swapping that card just placed
    in the Stance)." """
    s = table(
        players=("ann", "ben", "cy"),
        hands=[["JD", "QD", "KC", "KD"], ["QS", "2D"], ["KH", "3S"]],
        stances=[("8H", MIDDLE), ("9S", LOW), ("9H", MIDDLE)],
        fatigue=[21, 12, 5],
        deck=FULL_DECK,
    )
    s = play(s, "ann", "lightning JD QD KC KD")
    s = play(s, "ben", "force-defend QS fumble 2D")
    assert s.stance_card[0] == c("2D") and "8H" in hand(s, "ben")
    s = play(s, "cy", "force-defend KH fumble 3S")
    assert s.stance_card[0] == c("3S") and "2D" in hand(s, "cy")


def test_queen_immunity_shields_from_lightning_unless_the_option_says_no():
    kwargs = dict(
        hands=[["JD", "QD", "KC", "KD"], ["2S"]],
        stances=[("8H", MIDDLE), ("9S", LOW)],
        fatigue=[21, 12],
        immune=[False, True],
        deck=FULL_DECK,
    )
    shielded = play(table(**kwargs), "ann", "lightning JD QD KC KD")
    assert shielded.fatigue[1] == 12 and shielded.turn == 1
    hit = play(
        table(options={"queen-vs-lightning": "no"}, **kwargs), "ann", "lightning JD QD KC KD"
    )
    assert hit.queue == (1,)


# ------------------------------------------------------------------------------ Discarding
def test_a_discard_regains_two_on_a_matching_suit_else_one_within_the_column():
    """ "If your card matches the suit of the topmost card in the discard pile, gain 2 Fatigue,
    otherwise gain 1 Fatigue."  "You may not change from one column to another." """
    base = table(
        hands=[["5H", "6S", "7C", "8H"], []],
        stances=[("8D", HIGH), ("9D", HIGH)],
        discard=["2H"],
        fatigue=[10, 21],
        deck=FULL_DECK,
    )
    assert play(base, "ann", "discard 5H").fatigue[0] == 12
    assert play(base, "ann", "discard 6S").fatigue[0] == 11
    assert play(base, "ann", "discard 7C").fatigue[0] == 12  # the Club is wild
    assert play(base._replace(fatigue=(13, 21)), "ann", "discard 5H").fatigue[0] == 14
    assert play(base._replace(fatigue=(14, 21)), "ann", "discard 5H").fatigue[0] == 14


def test_the_top_of_the_discard_pile_is_the_stance_just_given_up():
    """Step 1 discards the old stance, so a discard in step 3 matches it."""
    s = table(
        hands=[["5S", "6H", "7D", "8D", "9D"], []],
        stances=[("4S", LOW), ("9D", HIGH)],
        discard=["2H"],
        fatigue=[10, 21],
        deck=FULL_DECK,
        phase=STANCE,
    )
    s = play(s, "ann", "stance 7D")
    assert play(s, "ann", "discard 5S").fatigue[0] == 12
    assert play(s, "ann", "discard 6H").fatigue[0] == 11


# ------------------------------------------------------------------------------ Redraw
def test_low_stance_draws_three_and_puts_one_back_which_the_defender_then_draws():
    """ "If you have a Low Stance, draw three cards instead of just two, keep two and place one back
    on top of the Draw Deck."  "After an attack you draw two replacement cards ... Then the
    defender draws a card if they played a Club or Force Defence" """
    s = table(
        hands=[["2S", "3H", "4H", "5H"], ["5C", "KD"]],
        stances=[("8S", LOW), ("10D", HIGH)],
        deck=["6C", "7C", "8C", "9C"],
    )
    s = play(play(s, "ann", "attack ben 2S"), "ben", "defend 5C")
    assert s.phase == RETURN and acting(s) == "ann"
    assert hand(s, "ann") == ["3H", "4H", "5H", "6C", "7C", "8C"]
    assert [p + 1 for p in s.returnable] == [4, 5, 6]
    assert RULES.legal(s, 0) == [("return", 3), ("return", 4), ("return", 5)]
    assert refused(s, "ann", "return 1").code == "bad-position"
    s = play(s, "ann", "return 7C")
    assert hand(s, "ann") == ["3H", "4H", "5H", "6C", "8C"]
    assert hand(s, "ben") == ["KD", "7C"] and s.turn == 1


def test_the_card_put_back_is_known_to_its_player_only():
    """Revision 1: the card on the deck stays the player's secret (read by the next drawer's
    decision, so this revision is sound only in the open trust mode)."""
    s = table(
        hands=[["2S", "3H", "4H", "5H"], ["5C"]],
        stances=[("8S", LOW), ("10D", HIGH)],
        deck=["6C", "7C", "8C", "9C"],
        revision=1,
    )
    s = play(play(s, "ann", "discard 2S"), "ann", "return 5")
    assert hand(s, "ann") == ["3H", "4H", "5H", "6C", "8C"]
    assert s.deck[0].value == c("7C") and s.deck[0].owned_by(0) and not s.deck[0].owned_by(1)
    assert RULES.view(s, 0).deck[0].known and not RULES.view(s, 1).deck[0].known
    assert "top: 7C" in RULES.render(RULES.view(s, 0), 0)


def test_the_card_put_back_is_a_face_down_deck_card_which_the_next_drawer_takes():
    """Revision 2: the card goes back face down and nobody owns it (Ann remembers it; her view
    does not show it), so Ben's own copy can draw it."""
    s = table(
        hands=[["2S", "3H", "4H", "5H"], ["5C", "9D"]],
        stances=[("8S", LOW), ("10D", HIGH)],
        deck=["6C", "7C", "8C", "9C"],
    )
    s = play(s, "ann", "discard 2S")
    _, s = play_on_own_copy(s, "ann", "return 5")
    assert hand(s, "ann") == ["3H", "4H", "5H", "6C", "8C"]
    top = s.deck[0]
    assert top.value == c("7C") and top.owners == 0
    assert not RULES.view(s, 0).deck[0].known and not RULES.view(s, 1).deck[0].known
    assert "top:" not in RULES.render(RULES.view(s, 0), 0)
    _, s = play_on_own_copy(s, "ben", "stance 9D")
    _, s = play_on_own_copy(s, "ben", "discard 5C")
    assert hand(s, "ben")[:2] == ["7C", "9C"]


# ------------------------------------------------------------------------------ Game End
def test_the_deck_is_reshuffled_and_the_game_ends_after_as_many_passes_as_players():
    """ "The game ends when ... You have gone through the draw deck as many times as there are
    players. The player with the most Fatigue is the winner." """
    s = table(
        hands=[["2H", "3H", "4H", "5H"], ["6D"]],
        stances=[("8D", HIGH), ("9D", HIGH)],
        deck=["2C"],
        discard=["7S", "8S", "9S"],
        fatigue=[12, 15],
    )
    s = play(s, "ann", "discard 2H")
    assert s.passes == 1 and s.phase != OVER
    assert len(s.hands[0]) == 5 and len(s.deck) + len(s.discard) == 3
    ending = s._replace(passes=1, deck=(), turn=0, phase=ACTION, queue=(0,))
    ending = ending._replace(hands=(ending.hands[0][:4], ending.hands[1]))
    over = play(ending, "ann", RULES.notation(ending, 0, ("discard", ending.hands[0][0].value)))
    assert over.phase == OVER and over.passes == 2
    result = RULES.outcome(over)
    assert result.winners == (1,) and result.scores == over.fatigue


def test_the_last_one_with_fatigue_wins():
    """ "The game ends when: All but one player have run out of Fatigue." """
    s = table(
        players=("ann", "ben", "cy"),
        hands=[["AH", "3H", "4H", "5H"], ["6D"], ["7D"]],
        stances=[("8H", MIDDLE), ("KH", MIDDLE), ("9D", HIGH)],
        fatigue=[5, 0, 3],
        deck=FULL_DECK,
    )
    s = play(s, "ann", "attack cy AH")  # 1 + 1 = 2 against 9 + 5 = 14
    s = play(s, "cy", "take")
    assert s.phase == OVER and RULES.outcome(s).winners == (0,)
    assert RULES.outcome(s).scores == (5, 0, 0)


def test_players_out_of_fatigue_are_skipped_and_cannot_be_targeted():
    s = table(
        players=("ann", "ben", "cy"),
        hands=[["AH", "3H", "4H", "5H"], ["6D"], ["7D", "8D"]],
        stances=[("8H", MIDDLE), ("KH", MIDDLE), ("9D", HIGH)],
        fatigue=[5, 0, 13],
        deck=FULL_DECK,
    )
    assert refused(s, "ann", "attack ben AH").code == "target-out"
    assert play(s, "ann", "discard AH").turn == 2


# ------------------------------------------------------------------------------ Hidden information
def test_views_hide_other_hands_and_the_deck():
    s = table(
        hands=[["AH", "3H"], ["6D", "7D"]], stances=[("8H", MIDDLE), ("KH", MIDDLE)], deck=FULL_DECK
    )
    ann = RULES.view(s, 0)
    assert [x.value for x in ann.hands[0]] == [c("AH"), c("3H")]
    assert not any(x.known for x in ann.hands[1]) and not any(x.known for x in ann.deck)
    spectator = RULES.view(s, None)
    assert not any(x.known for h in spectator.hands for x in h)
    text = MODULE.rules.render(ann, 0)
    assert "1:AH 2:3H" in text and "7D" not in text
