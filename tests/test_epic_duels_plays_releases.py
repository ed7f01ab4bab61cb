"""Epic Duels' plays and releases held to the rules from outside, not to each other.

tests/test_epic_duels_fast_parts.py holds ``plays``/``releases`` equal to their one-at-a-time
``plays_of``/``releases_of``, which would agree on a bug they share.  Here the rule is written
again from the texts, apart from ``_legal``:

- the rulebook's Playing a Card: "Special cards are played anytime on your turn after your die
  roll and character(s) movement"; a card is played by a character it pictures, on the board;
  playing one is an action, and "Some Special cards do not even count as an action, allowing
  you to play more than 2 cards in a turn" (docs/games/epic-duels.md: such a card is still
  played with no action left);
- docs/games/epic-duels.md's Choices: "A held character (Force Lift) cannot move, attack or
  defend until its player frees it: ``release dooku discarding C1, C2, C3`` in that player's
  turn.  Releasing is not an action": as many cards of the hand as hold it, any of them.

Hand-worked positions give the commands by name (counted by hand), and every acting position
of random games (tests/test_is_legal.py's) is held to the rule restated: the list and
``is_legal`` over every play of a card of the hand by any character and every release of any
character by one to three cards of it.
"""

from __future__ import annotations

from itertools import combinations

from epic_duels_table import card, char, play, table
from test_is_legal import GAMES

from boardstate.modules.epic_duels import MODULE, _legal
from boardstate.modules.epic_duels._state import ACT, NOWHERE, values_of
from boardstate.rules import SecretUnavailable
from boardstate.testing import random_game

RULES = MODULE.rules
ANN, BEN = 0, 1


def listed(s, seat: int, verb: str) -> set:
    """The commands of ``verb`` the engine gives, each way it gives them: the list, ``plays``
    or ``releases``, and ``is_legal`` on each (the sets must agree, and none listed twice)."""
    every = [c for c in RULES.legal(s, seat) if c[0] == verb]
    assert len(every) == len(set(every)), every
    hand = _legal.hand_cards(s, seat)
    if verb == "play":
        apart = _legal.plays(s, hand)
    else:
        apart = _legal.releases(s, seat, s.roster.chars_of(seat))
    assert sorted(apart) == sorted(every)
    assert all(RULES.is_legal(s, seat, c) for c in every)
    return set(every)


# ------------------------------------------------------------------ hand-worked positions
def test_a_special_card_is_played_by_the_character_it_pictures_on_the_board():
    """Han's deck: Never Tell Me the Odds pictures Han; It's Not Wise..., Wookiee Healing and
    Wookiee Instincts picture Chewbacca; a combat card is never "played".  Two copies of a
    card are one play."""
    hand = ["Never Tell Me the Odds", "Never Tell Me the Odds", "Wookiee Healing", "han 4/1"]
    s = table(characters="han,jango", at={"han": "a1", "jango": "e4"}, hands=[hand, []])
    odds, healing = card(s, ANN, "Never Tell Me the Odds"), card(s, ANN, "Wookiee Healing")
    han, chewie = char(s, "han"), char(s, "chewbacca")
    assert listed(s, ANN, "play") == {("play", odds, han)}  # (Chewbacca is off the board)
    s = table(
        characters="han,jango", at={"han": "a1", "chewbacca": "a3", "jango": "e4"}, hands=[hand, []]
    )
    assert listed(s, ANN, "play") == {("play", odds, han), ("play", healing, chewie)}
    assert not RULES.is_legal(s, ANN, ("play", odds, chewie))  # (not the card's character)
    assert not RULES.is_legal(s, ANN, ("play", card(s, ANN, "han 4/1"), han))
    assert listed(s, BEN, "play") == set()  # (not Ben's turn)


def test_with_no_action_left_only_a_card_that_is_not_an_action_is_played():
    """Jango's Fire Up the Jet Pack does not count as an action; Wrist Cable and Flamethrower
    do: with one action all three are played, with none only the Jet Pack."""
    hand = ["Fire Up the Jet Pack", "Wrist Cable", "Flamethrower"]
    chars, at = "obi-wan,jango", {"obi-wan": "e4", "jango": "e1"}
    for actions, names in ((1, hand), (0, hand[:1])):
        s = table(characters=chars, at=at, hands=[[], hand], turn=BEN, actions=actions)
        jango = char(s, "jango")
        expected = {("play", card(s, BEN, name), jango) for name in names}
        assert listed(s, BEN, "play") == expected, actions


def test_a_held_character_is_released_by_as_many_cards_of_the_hand_as_hold_it():
    """Yoda's Force Lift holds Dooku by 3 cards.  In Ben's turn, a hand of two copies of one
    card and two others frees him three ways (AAB, AAC, ABC: counted by hand), with actions
    or none; a hand of three cards, one way; of two, none.  Off the board, none."""
    s = table(characters="yoda,dooku", at={"yoda": "e4", "dooku": "e3"}, hands=[["Force Lift"], []])
    held = play(s, "ann", "play force lift").held
    dooku = char(s, "dooku")
    assert held[dooku] == 3
    cards = ["dooku 4/1", "dooku 4/1", "Force Push", "Gain Power"]
    for hand, ways in ((cards, 3), (cards[1:], 1), (cards[2:], 0)):
        for actions in (2, 0):
            s = table(
                characters="yoda,dooku",
                at={"yoda": "e4", "dooku": "e3"},
                hands=[[], hand],
                turn=BEN,
                actions=actions,
            )._replace(held=held)
            a, b, c = (card(s, BEN, name) for name in ("dooku 4/1", "Force Push", "Gain Power"))
            every = {(a, a, b), (a, a, c), (a, b, c)} if ways == 3 else {(a, b, c)}
            expected = {("release", dooku, tuple(sorted(m))) for m in every}
            assert len(listed(s, BEN, "release")) == ways, (hand, actions)
            if ways:
                assert listed(s, BEN, "release") == expected
            assert not RULES.is_legal(s, BEN, ("release", dooku, (a, b)))  # (two: too few)
            assert listed(s, ANN, "release") == set()  # (not Ann's turn, and Yoda is free)
    s = table(characters="yoda,dooku", at={"yoda": "e4"}, hands=[[], cards], turn=BEN)
    assert listed(s._replace(held=held), BEN, "release") == set()  # (Dooku off the board)


# ------------------------------------------------------------------ the rule restated
def plays_by_rule(s, seat: int, values) -> set:
    rs = s.roster
    out = set()
    for k in set(values):
        kind = rs.cards[k]
        if kind.kind != "special" or not (s.actions > 0 or kind.free):
            continue
        for c in rs.chars_of_group(rs.card_group[k]):
            if rs.chars[c].kind == kind.pictures and s.square[c] != NOWHERE:
                out.add(("play", k, c))
    return out


def releases_by_rule(s, seat: int, values) -> set:
    return {
        ("release", c, chosen)
        for c in s.roster.chars_of(seat)
        if s.held[c] and s.square[c] != NOWHERE
        for chosen in combinations(sorted(values), s.held[c])
    }


def test_every_play_and_release_of_random_games_is_the_rules():
    checked = {"positions": 0, "plays": 0, "releases": 0, "asked": 0}

    def check(game):
        s = game.state
        if game.reveal_due() or s.phase != ACT:
            return
        for seat in game.to_act():
            try:
                values = values_of(s.hands[seat], s, seat)
            except SecretUnavailable:
                continue
            plays, releases = plays_by_rule(s, seat, values), releases_by_rule(s, seat, values)
            assert listed(s, seat, "play") == plays
            assert listed(s, seat, "release") == releases
            every_char = range(len(s.roster.chars))
            asked = [("play", k, c) for k in set(values) for c in every_char]
            asked += [
                ("release", c, chosen)
                for c in every_char
                for n in (1, 2, 3)
                for chosen in set(combinations(sorted(values), n))
            ]
            for command in asked:
                assert RULES.is_legal(s, seat, command) is (command in plays | releases), command
            checked["positions"] += 1
            checked["plays"] += len(plays)
            checked["releases"] += len(releases)
            checked["asked"] += len(asked)

    for seed, players, options in GAMES["epic-duels"]:
        random_game(MODULE, seed, players, options=options, check_each=check)
    assert checked["positions"] > 500 and checked["plays"] > 200, checked
