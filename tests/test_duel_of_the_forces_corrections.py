"""Duel of the Forces, rules revision 2: each correction of issue 9 tested from the rule text it
rests on (the sentence quoted beside the test), in the edition it belongs to.

Texts: the Ravensburger 2015 rulebook (DE, FR, IT, NL; sections named in German) and David
Parlett's English text of Duel of the Forces (sections "Play", "Darth Vader cards", "R2-D2
cards", "Ending and winning", "Variations").
"""

from __future__ import annotations

from itertools import combinations

import pytest
from test_duel_of_the_forces import RULES, act, bid, names, refusal, table

import boardstate as bs
from boardstate.modules.duel_of_the_forces import (
    DISCARD,
    KEEP,
    LOOK_CMD,
    MODULE,
    PASS,
    TAKE_CMD,
    give,
)
from boardstate.modules.duel_of_the_forces._cards import DECK_FILE, HERO_ORDER
from boardstate.modules.duel_of_the_forces._state import (
    BID,
    KEEP_CARD,
    LOOK,
    OFFER,
    OVER,
    R2,
    R2_DECISION,
    TAKE,
)
from boardstate.testing import checked_options

PARLETT = ("parlett-english", "parlett-original")
EDITIONS = ("ravensburger-2015", *PARLETT)


def events_named(events) -> list[str]:
    return [type(e).__event_name__ for e in events]


def r2_turned_up(events) -> bool:
    """Did R2-D2 turn up a card (revisions 1-2: the top card; revision 3: a card drawn)?"""
    return bool({"dotf.r2-turned-up", "dotf.r2-drawn"} & set(events_named(events)))


# ------------------------------------------------------------------ 1. Parlett: a gift keeps R2
@pytest.mark.parametrize("edition", PARLETT)
@pytest.mark.parametrize(
    "up, decision, gets, keeps_r2",
    [
        ("Jabba the Hutt", KEEP, 0, False),  # "If you keep it ... must discard your R2-D2"
        ("Jabba the Hutt", give(1), 1, True),  # "if you give it away you can keep your R2-D2"
        (("Darth Vader", -5), KEEP, 0, True),  # "if you turn a Darth Vader ... and decide to
        # keep it you can also keep your RD-D2 card"
        (("Darth Vader", -5), give(1), 1, True),  # "if you give it away": a Vader too
    ],
)
def test_parlett_giving_the_card_away_keeps_r2_d2(edition, up, decision, gets, keeps_r2):
    # Parlett, "R2-D2 cards": "If you keep it you add it to your captured villains and must
    # discard your R2-D2 card to the wastepile, but if you give it away you can keep your R2-D2
    # card and use it again later."  The sentence puts no condition on what is given away.
    s = table(["Greedo", up, "Boba Fett"], edition=edition)
    s, _ = bid(s, R2, 3)
    s, _ = act(s, 0, LOOK_CMD)
    s, _ = act(s, 0, decision)
    up_name = up if isinstance(up, str) else up[0]
    assert up_name in names(s, gets)
    assert (R2 in s.hands[0]) == keeps_r2


def test_ravensburger_giving_a_vader_away_still_costs_r2_d2():
    # Ravensburger 2015, "R2-D2-Karten": "die aufgedeckte Darth Vader-Karte verschenken wollt?
    # In diesem Fall schenkt ihr die Darth Vader-Karte einem beliebigen Mitspieler, müsst aber
    # eure R2-D2-Karte abgeben."  The printed edition stays as printed.
    s = table(["Greedo", ("Darth Vader", -5), "Boba Fett"])
    s, _ = bid(s, R2, 3)
    s, _ = act(s, 0, LOOK_CMD)
    s, _ = act(s, 0, give(1))
    assert "Darth Vader" in names(s, 1) and R2 not in s.hands[0]


# ------------------------------------------------------------------ 2. Ravensburger: end first
def test_ravensburger_no_r2_d2_turn_up_after_the_game_has_ended():
    # Ravensburger 2015, "R2-D2-Karten": "Dafür dürft ihr zu Beginn der nächsten Runde die oberste
    # Karte vom Bösewicht-Kartenstapel aufdecken".  "Spielende": "Das Spiel endet, wenn nur noch
    # einer der Spieler Karten auf der Hand hat. Er darf für jede übrige Karte eine
    # Bösewicht-Karte vom Stapel nehmen".  Ben wins Greedo with his last card: only ann holds
    # cards, the game ends, and no next round begins for R2-D2 to turn up a card in.
    stock = ["Greedo", ("Darth Vader", -4), "Jabba the Hutt", "Boba Fett", "Count Dooku"]
    s = table(stock, hands=[(R2, 5, 6), (4,)])
    s, events = bid(s, R2, 4)
    assert not r2_turned_up(events)
    assert s.phase == OFFER and s.offer == TAKE and RULES.to_act(s) == (0,)
    s, _ = act(s, 0, TAKE_CMD)  # one stock card for each of R2-D2, 5 and 6
    assert names(s, 0) == ["Darth Vader", "Jabba the Hutt", "Boba Fett"]
    assert RULES.outcome(s).scores == (13, 2)
    # Revision 1 let R2-D2 turn up the Vader first and give it away: 17 to -2.
    s1 = table(stock, hands=[(R2, 5, 6), (4,)], revision=1)
    s1, _ = bid(s1, R2, 4)
    assert s1.phase == R2_DECISION
    s1, _ = act(s1, 0, give(1))
    assert RULES.outcome(s1).scores == (17, -2)


def test_ravensburger_several_r2_d2_holders_end_the_game_before_a_turn_up():
    # "Das Spiel endet auch, wenn mehrere Spieler nur noch R2-D2-Karten auf der Hand haben":
    # ben wins Greedo with his last force card while ann, holding only R2-D2, played it alone.
    s = table(["Greedo", "Jabba the Hutt", "Boba Fett"], n=3, hands=[(R2,), (R2, 5), (2, 3)])
    s, events = bid(s, R2, 5, 2)
    assert s.phase == OVER and s.end_reason == "ann and ben hold only R2-D2"
    assert not r2_turned_up(events) and not names(s, 0)


def test_ravensburger_r2_d2_still_turns_up_when_the_game_goes_on():
    s = table(["Greedo", "Jabba the Hutt", "Boba Fett"], hands=[(R2, 5, 6), (3, 4)])
    s, _ = bid(s, R2, 4)
    assert s.phase == OFFER and s.offer == LOOK and names(s, 1) == ["Greedo"]


# ------------------------------------------------------------------ 3. "may" is a choice
@pytest.mark.parametrize("edition", EDITIONS)
def test_r2_d2_may_look_or_pass(edition):
    # Ravensburger 2015, "R2-D2-Karten": "Dafür dürft ihr ... die oberste Karte vom
    # Bösewicht-Kartenstapel aufdecken" (FR "vous pouvez retourner la carte supérieure", NL
    # "Daarvoor mag je ... de bovenste kaart ... omdraaien").  Parlett, "R2-D2 cards": "instead,
    # you can look at the next top card of the stock and either keep it yourself or give it to
    # somebody else."  Passing turns up nothing; R2-D2 goes back to hand.
    s = table(["Greedo", "Jabba the Hutt", "Boba Fett"], edition=edition)
    s, _ = bid(s, R2, 3)
    assert s.phase == OFFER and s.offer == LOOK and RULES.to_act(s) == (0,)
    assert set(RULES.legal(s, 0)) == {LOOK_CMD, PASS}
    assert refusal(s, 0, KEEP).code == "answer-the-offer"
    s, events = act(s, 0, PASS)
    assert not r2_turned_up(events)
    assert R2 in s.hands[0] and names(s, 0) == []
    assert names(s, 1) == ["Greedo"]  # Parlett: the duel that waited is decided now
    assert s.phase == BID and s.cards.deck[s.villain].name == "Jabba the Hutt"


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("answer, kept", [(KEEP, True), (DISCARD, False)])
def test_the_vader_winner_may_keep_or_discard_the_card(edition, answer, kept):
    # Ravensburger 2015, "Darth Vader-Karten": "ABER: Er darf seine Jedi/Rebellen-Karte
    # behalten! Dafür müssen die „erfolglosen“ Mitspieler ihre eingesetzten Karten abgeben."
    # (FR "il peut reprendre sa carte", IT "può anche riprendere", NL "hij mag zijn
    # Jedi/Rebellen-kaart houden").  Parlett, "Darth Vader cards": "(2) whoever wins it may
    # retain the card they won it with, while everyone else must discard the ones they played."
    s = table([("Darth Vader", -3), "Greedo"], n=3, edition=edition)
    s, _ = bid(s, 2, 7, 5)
    assert 2 not in s.hands[0] and 5 not in s.hands[2]  # a duty: no one is asked
    assert s.phase == OFFER and s.offer == KEEP_CARD and RULES.to_act(s) == (1,)
    assert set(RULES.legal(s, 1)) == {KEEP, DISCARD}
    s, _ = act(s, 1, answer)
    assert (7 in s.hands[1]) == kept and s.phase == BID


def test_ravensburger_the_last_player_may_take_from_the_stock_or_not():
    # Ravensburger 2015, "Spielende": "Er darf für jede übrige Karte eine Bösewicht-Karte vom
    # Stapel nehmen und vor sich ablegen." (FR "il a le droit de piocher", IT "Egli potrà
    # pescare", NL "Hij mag ... pakken").
    stock = ["Greedo", ("Darth Vader", -6), "Boba Fett", "Jabba the Hutt"]
    s = table(stock, hands=[(1, 2), (8,)])
    s, _ = bid(s, 1, 8)
    assert s.phase == OFFER and s.offer == TAKE and set(RULES.legal(s, 0)) == {TAKE_CMD, PASS}
    taken, _ = act(s, 0, TAKE_CMD)
    assert names(taken, 0) == ["Darth Vader", "Boba Fett"] and taken.phase == OVER
    passed, _ = act(s, 0, PASS)
    assert names(passed, 0) == [] and passed.phase == OVER
    assert passed.end_reason == "only ann has cards left and takes none"
    assert RULES.outcome(passed).scores == (0, 2)


def test_parlett_original_the_last_player_must_take():
    # Parlett, "Variations" (1): "That player discards them and must capture the same number of
    # cards from the top of the stock."  A duty: nobody is asked.
    stock = ["Greedo", "Boba Fett", "Jabba the Hutt"]
    s = table(stock, edition="parlett-original", hands=[(1, 2), (8,)])
    s, _ = bid(s, 1, 8)
    assert s.phase == OVER and names(s, 0) == ["Boba Fett", "Jabba the Hutt"]


def test_an_answer_is_only_for_its_moment():
    s = table(["Greedo", "Jabba the Hutt"])
    err = refusal(s, 0, LOOK_CMD)
    assert err.code == "wrong-phase" and "every player bids" in err.reason
    s, _ = bid(s, R2, 3)
    err = refusal(s, 0, TAKE_CMD)
    assert err.code == "answer-the-offer" and "'look' or 'pass'" in err.reason
    assert err.rule == "Ravensburger 2015, R2-D2-Karten"


# ------------------------------------------------------------------ 4. readings that end a game
def _vader_then_only_r2(edition, answer, **options):
    """ann wins a Vader with her last force card while ben, holding only R2-D2, sits out; cat
    still holds force cards.  Then ann keeps or discards the card."""
    s = table(
        [("Darth Vader", -1), "Greedo", "Jabba the Hutt"],
        n=3,
        edition=edition,
        hands=[(R2, 4), (R2,), (1, 2, 3)],
        **options,
    )
    assert RULES.to_act(s) == (0, 2)  # "keine R2-D2-Karte spielen": ben sits out
    s, _ = bid(s, 4, None, 1)
    s, _ = act(s, 0, answer)
    return s


def test_ravensburger_several_players_with_only_r2_d2_end_the_game():
    # Ravensburger 2015, "Spielende": "Das Spiel endet auch, wenn mehrere Spieler nur noch
    # R2-D2-Karten auf der Hand haben" (IT "quando a più giocatori restano in mano solamente
    # carte R2-D2", NL "als meer spelers alleen nog R2-D2-kaarten in hun hand hebben").
    s = _vader_then_only_r2("ravensburger-2015", DISCARD)
    assert s.phase == OVER and s.end_reason == "ann and ben hold only R2-D2"
    # Keeping the card keeps ann in the game: only ben holds nothing but R2-D2.
    assert _vader_then_only_r2("ravensburger-2015", KEEP).phase == BID


def test_ravensburger_the_french_reading_is_an_option():
    # FR, "Fin de la partie": "La partie est également terminée si les joueurs n'ont plus que des
    # cartes R2-D2 en main" -- all of them: cat still holds force cards, the game goes on.
    s = _vader_then_only_r2("ravensburger-2015", DISCARD, r2_only_end="all")
    assert s.phase == BID and s.cards.deck[s.villain].name == "Greedo"


@pytest.mark.parametrize("edition", PARLETT)
def test_parlett_ends_on_only_r2_d2_when_all_hold_it_unless_told_several(edition):
    # Parlett's text says nothing of hands of R2-D2 only; the game ends when it could not go on
    # (every player still holding cards holds only R2-D2), or, as an option, as printed.
    assert _vader_then_only_r2(edition, DISCARD).phase == BID
    s = _vader_then_only_r2(edition, DISCARD, r2_only_end="several")
    assert s.phase == OVER and s.end_reason == "ann and ben hold only R2-D2"


def test_parlett_english_runs_out_of_rebel_cards_with_no_card_left():
    # Parlett, "Ending and winning": "The game ends as soon as one player runs out of rebel
    # cards."  "To start": "There are 36 rebel cards (light backs)" -- 32 hero cards and the four
    # R2-D2s: holding R2-D2, ann has not run out.  The other reading is option out-of-cards.
    s = table(["Greedo", "Boba Fett"], edition="parlett-english", hands=[(R2, 3), (1, 2, 4)])
    s, _ = bid(s, 3, 1)
    assert s.phase == BID and s.hands[0] == (R2,)
    s = table(
        ["Greedo", "Boba Fett"],
        edition="parlett-english",
        hands=[(R2, 3), (1, 2, 4)],
        out_of_cards="only-r2",
    )
    s, _ = bid(s, 3, 1)
    # "Each of your rebel cards shows a force value from 1 to 8": R2-D2 shows none.
    assert s.phase == OVER and s.end_reason == "ann has run out of rebel cards (only R2-D2 left)"


def test_parlett_original_a_player_with_only_r2_d2_stops_under_only_r2():
    # Parlett, "Variations" (1): "When you run out of rebel cards you stop playing, but the
    # others keep going till only one player has any left. That player discards them and must
    # capture the same number of cards from the top of the stock."
    stock = ["Greedo", "Jabba the Hutt", "Boba Fett", "Count Dooku"]
    s = table(stock, edition="parlett-original", hands=[(R2, 3), (R2, 1, 2)])
    s, _ = bid(s, 3, 1)
    assert s.phase == BID and RULES.to_act(s) == (0, 1)  # R2-D2 is a rebel card: ann plays on
    hands = [(R2, 3), (R2, 1, 2)]
    s = table(stock, edition="parlett-original", hands=hands, out_of_cards="only-r2")
    s, _ = bid(s, 3, 1)
    # ann stops; ben alone holds rebel cards: his two force cards capture two stock cards
    assert s.phase == OVER and names(s, 1) == ["Jabba the Hutt", "Boba Fett"]


def test_the_readings_are_options_stored_only_when_given():
    assert "r2-only-end" not in checked_options(MODULE, {})
    assert "out-of-cards" not in checked_options(MODULE, {})
    given = checked_options(MODULE, {"r2-only-end": "all", "out-of-cards": "only-r2"})
    assert given["r2-only-end"] == "all" and given["out-of-cards"] == "only-r2"
    with pytest.raises(bs.OptionError):
        checked_options(MODULE, {"r2-only-end": "some"})
    with pytest.raises(bs.OptionError):
        checked_options(MODULE, {"out-of-cards": "r2"})


# ------------------------------------------------------------------ 5. a fair icon table
ICONS = DECK_FILE.builtin().icon_map


@pytest.mark.parametrize("a, b", list(combinations(HERO_ORDER, 2)))
def test_every_two_heroes_win_four_of_their_eight_force_ties(a, b):
    # "Gibt es mehrere Jedi/Rebellen-Karten mit gleichem Zahlenwert, entscheidet die Anzahl der
    # Rebellen-Symbole": at every force the icons differ, and neither hero is favoured.
    wins = sum(ICONS[a][f] > ICONS[b][f] for f in range(8))
    assert wins == 4 and all(ICONS[a][f] != ICONS[b][f] for f in range(8))
    won = []
    for force in range(1, 9):  # and so the engine decides them, whatever the seats
        s = table(["Greedo", "Boba Fett"], heroes=f"{a},{b}")
        s, _ = bid(s, force, force)
        won.append(0 if names(s, 0) else 1)
    assert won.count(0) == 4


def test_the_icons_show_zero_to_four_and_every_hero_leads_twice():
    # Parlett, "Play": "Each of your rebel cards shows a force value from 1 to 8 and from 0 to 4
    # rebel icons."
    for force in range(8):
        column = [ICONS[h][force] for h in HERO_ORDER]
        assert len(set(column)) == 4 and all(0 <= n <= 4 for n in column)
    leads = [max(HERO_ORDER, key=lambda h, f=f: ICONS[h][f]) for f in range(8)]
    assert all(leads.count(h) == 2 for h in HERO_ORDER)


def test_the_printed_icons_load_from_a_file(tmp_path):
    text = DECK_FILE.builtin_text()
    han = [line for line in text.splitlines() if line.startswith("icons = [")][1]
    path = tmp_path / "printed.toml"
    path.write_text(text.replace(han, "icons = [0, 0, 0, 0, 4, 0, 0, 0]"))
    s = table(["Greedo", "Boba Fett"], deck=str(path))
    assert s.cards.icon_map["han"] == (0, 0, 0, 0, 4, 0, 0, 0)
    s, _ = bid(s, 1, 1)  # luke 4 icons against han 0
    assert names(s, 0) == ["Greedo"]
