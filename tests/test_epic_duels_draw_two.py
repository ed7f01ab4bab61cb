"""Epic Duels, rules revision 4: ``draw 2``, both actions drawing as one command.

The rule text: "you may choose two of the same action, such as drawing 2 cards"; "You may look
at a card you just drew before deciding what will be your second action" (a right the player
gives up).  By mail in the peer mode a ``draw`` with an action left waits for the other
player's share of the randomness before the drawer can go on; ``draw 2`` waits once, at the end
of the turn (docs/games/epic-duels.md, The turn; docs/trust.md).
"""

from __future__ import annotations

from epic_duels_table import MODULE, RULES, card, command, hand, play, refused, table

from boardstate._decider import Decider
from boardstate.testing import Rng

AT = {"obi-wan": "c3", "dooku": "h5"}
NINE = ["obi-wan 1/4"] * 3 + ["obi-wan 2/3"] * 3 + ["obi-wan 3/3"] * 3
LAST_CARD = {"deck-end": "last-card"}
PILE = ["obi-wan 4/1", "obi-wan 4/2", "obi-wan 5/1", "Jedi Block"]


def piles(n: int = 4):
    """Obi-Wan's draw pile with ``n`` cards (Dooku's: one)."""
    return [PILE[:n], ["dooku 1/4"]]


def draws_of(s, seat: int = 0) -> list[str]:
    return [RULES.notation(s, seat, c) for c in RULES.legal(s, seat) if c[0] == "draw-two"]


def test_draw_2_comes_to_two_draws_in_a_row_with_the_same_randomness():
    s = table(at=AT, hands=[["obi-wan 1/4"], []], piles=piles())
    decider = Decider(MODULE)
    both = decider.decide(s, ((0, command(s, "ann", "draw 2")),), Rng(b"t", b"m"))[1]
    rng = Rng(b"t", b"m")  # (one stream for the two commands: the draws see the same numbers)
    one = decider.decide(s, ((0, command(s, "ann", "draw")),), rng)[1]
    two = decider.decide(one, ((0, command(one, "ann", "draw")),), rng)[1]
    assert both == two
    assert len(both.hands[0]) == 3 and len(both.piles[0]) == 2 and both.turn == 1


def test_it_takes_both_actions():
    s = table(at=AT, hands=[["obi-wan 1/4"], []], piles=piles(), actions=1)
    assert draws_of(s) == []
    assert refused(s, "ann", "draw 2").code == "one-action"
    assert draws_of(table(at=AT, hands=[["obi-wan 1/4"], []], piles=piles())) == ["draw 2"]


def test_a_hand_of_9_names_one_discard_first_and_of_10_two():
    nine = table(at=AT, hands=[NINE, []], piles=piles())
    assert sorted(draws_of(nine)) == [
        "draw 2 discarding obi-wan 1/4",
        "draw 2 discarding obi-wan 2/3",
        "draw 2 discarding obi-wan 3/3",
    ]
    assert refused(nine, "ann", "draw 2").code == "discards"
    after = play(nine, "ann", "draw 2 discarding obi-wan 2/3")
    assert len(after.hands[0]) == 10 and hand(after, "ann").count("obi-wan 2/3") <= 3
    assert after.discards[0] == (card(nine, 0, "obi-wan 2/3"),)
    ten = table(at=AT, hands=[[*NINE, "obi-wan 5/1"], []], piles=piles())
    pairs = draws_of(ten)
    assert "draw 2 discarding obi-wan 1/4, obi-wan 1/4" in pairs  # (the hand holds three)
    assert "draw 2 discarding obi-wan 5/1, obi-wan 5/1" not in pairs  # (it holds one)
    assert len(pairs) == 3 + 6 + 0  # the same card twice 3 times; two different cards 6
    after = play(ten, "ann", "draw 2 discarding obi-wan 1/4, obi-wan 5/1")
    assert len(after.hands[0]) == 10 and len(after.discards[0]) == 2


def test_discards_first_only_while_the_pile_holds_both_cards():
    """Both discards before both draws is the rules' order (one before each draw) only if no
    reshuffle of the discards can come in between: a pile of one card, and a full hand draws
    one at a time."""
    short = table(at=AT, hands=[NINE, []], piles=piles(1))
    assert draws_of(short) == []
    assert refused(short, "ann", "draw 2 discarding obi-wan 1/4").code == "pile-short"
    assert draws_of(table(at=AT, hands=[["obi-wan 1/4"], []], piles=piles(1))) == ["draw 2"]


def test_the_game_ending_on_the_first_draw_ends_the_command():
    """With deck-end=last-card, drawing the last card of a pile gone through once before ends
    the game: the second draw does not happen (no action is spent after the end)."""
    s = table(at=AT, hands=[["obi-wan 1/4"], []], piles=piles(1), options=LAST_CARD)
    after = play(s._replace(passes=(1, 0)), "ann", "draw 2")
    assert after.over and after.actions == 1


def test_a_revision_3_game_has_no_draw_2():
    s = table(at=AT, hands=[["obi-wan 1/4"], []], piles=piles(), revision=3)
    assert draws_of(s) == []
    assert refused(s, "ann", "draw 2").code == "revision"
