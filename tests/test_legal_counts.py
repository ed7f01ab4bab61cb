"""Legal-move counts checked by hand against the rule texts.

Each test builds a position through the public engine (a new game from a chosen seed, then
commands), works out from the rule sentence quoted beside it which commands a player may give
there, and compares that with what the engine lists.  The expected commands are computed from the
hand and the rule, never from ``legal()``: a rules change that alters these counts fails here.
"""

from __future__ import annotations

import pytest

import boardstate as bs

NAMES = ("ann", "ben", "cat", "dan", "eve", "fay")


# ------------------------------------------------------------ the engine, in one place
def new_game(module_id: str, n: int, seed: int, **options) -> bs.Game:
    module = bs.installed_modules()[module_id]
    return bs.Game.new(
        module,
        list(NAMES[:n]),
        options,
        seed=b"legal-%d" % seed,
        created="2026-01-01T00:00:00+00:00",
    )


def table(game: bs.Game, seat: int) -> dict:
    """The table as ``seat`` sees it, as data (the module's JSON form)."""
    return game.rules.to_json(game.rules.view(game.state, seat), seat)


def legal(game: bs.Game, seat: int) -> list[str]:
    return game.legal(seat)


def play(game: bs.Game, seat: int, text: str) -> None:
    game.play(seat, text)


def found(search, what: str, seeds=range(400)):
    """The first non-None ``search(seed)``: a position with the property wanted."""
    for seed in seeds:
        result = search(seed)
        if result is not None:
            return result
    pytest.fail(f"no seed gives {what}")


def same(listed: list[str], expected: list[str]) -> None:
    assert len(listed) == len(set(listed)), f"duplicates in {listed}"
    assert sorted(listed) == sorted(expected), (
        f"{len(listed)} listed, {len(expected)} by the "
        f"rule:\n  listed {listed}\n  rule   {expected}"
    )


# ------------------------------------------------------------ Duel of the Forces
DOTF = "duel-of-the-forces"
HEROES = ("luke", "han", "leia", "yoda")  # the default heroes, in seat order
FORCES = range(1, 9)


def vader_up(game: bs.Game) -> bool:
    return "Darth Vader" in table(game, 0)["villain"]


def dotf_game(n: int, vader: bool, **options) -> bs.Game:
    """A new game whose first card turned up is (or is not) a Darth Vader."""

    def search(seed):
        game = new_game(DOTF, n, seed, **options)
        return game if vader_up(game) == vader else None

    return found(search, f"a {'Vader' if vader else 'villain'} first")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_dotf_first_bid_is_any_of_the_nine_cards(n):
    # Parlett's English rules, "To start": "take as your playing hand all eight rebel cards of
    # that character, plus one R2-D2 card, making nine in all."  "Play": "You then each choose
    # from your hand a card showing the amount of force you wish to exert".
    game = dotf_game(n, vader=False)
    assert sorted(game.to_act()) == list(range(n))  # the bids are simultaneous
    for seat in range(n):
        expected = ["play r2"] + [f"play {HEROES[seat]} {f}" for f in FORCES]
        assert len(expected) == 9
        same(legal(game, seat), expected)


@pytest.mark.parametrize("n", [2, 4])
def test_dotf_no_r2_against_darth_vader(n):
    # Parlett's English rules, "Darth Vader cards": "When a Darth Vader card is turned up you all
    # bid for it in the usual way, except that (1) you may not play an R2-D2 card".
    # Ravensburger 2015 (DE), "Darth Vader-Karten": "Dabei dürft ihr im Duell um Darth
    # Vader-Karten keine R2-D2-Karte spielen."
    game = dotf_game(n, vader=True)
    for seat in range(n):
        expected = [f"play {HEROES[seat]} {f}" for f in FORCES]
        assert len(expected) == 8
        same(legal(game, seat), expected)


@pytest.mark.parametrize("edition", ["ravensburger-2015", "parlett-english"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_dotf_r2_turn_up_keep_or_give_to_each_other_player(n, edition):
    # Parlett's English rules, "R2-D2 cards": "If you play one and nobody else does, it doesn't
    # win an Empire card: instead, you can look at the next top card of the stock and either keep
    # it yourself or give it to somebody else."  Ravensburger 2015 (DE), "R2-D2-Karten": "In
    # diesem Fall schenkt ihr die Bösewicht-Karte einem beliebigen Mitspieler".
    # So: keep, or give to each of the n - 1 other players.  "can look" (DE "dürft ihr ...
    # aufdecken") is a right: first the R2-D2 player looks, or passes (two commands).
    game = dotf_game(n, vader=False, edition=edition)
    play(game, 0, "play r2")
    for seat in range(1, n):
        play(game, seat, f"play {HEROES[seat]} {seat}")
    assert game.to_act() == (0,)
    same(legal(game, 0), ["look", "pass"])
    play(game, 0, "look")
    assert game.to_act() == (0,)
    expected = ["keep"] + [f"give {name}" for name in NAMES[1:n]]
    assert len(expected) == 1 + (n - 1)
    same(legal(game, 0), expected)
    for seat in range(1, n):  # nobody else decides anything meanwhile
        assert legal(game, seat) == []


def test_dotf_two_r2s_and_the_losers_take_their_cards_back():
    # Parlett's English rules, "R2-D2 cards": "If two or more players play their RD-D2 card at
    # the same time, neither of them wins and they cannot turn over another card. Instead, they
    # can take them back into hand".  "Play": "On capturing a prisoner you must throw the card you
    # captured with to a wastepile, but everyone else returns the card they played back into
    # hand."  So next round ann and ben again hold all nine cards, cat (who won with Leia 5) eight.
    def search(seed):
        game = new_game(DOTF, 3, seed)
        if vader_up(game):
            return None
        play(game, 0, "play r2")
        play(game, 1, "play r2")
        play(game, 2, "play leia 5")
        return None if vader_up(game) else game

    game = found(search, "two villains before any Vader")
    assert sorted(game.to_act()) == [0, 1, 2]
    for seat in (0, 1):
        same(legal(game, seat), ["play r2"] + [f"play {HEROES[seat]} {f}" for f in FORCES])
    expected = ["play r2"] + [f"play leia {f}" for f in FORCES if f != 5]
    assert len(expected) == 8
    same(legal(game, 2), expected)


# ------------------------------------------------------------ Jedi Duel
JEDI = "jedi-duel"
AREAS = ("high", "middle", "low")
AREA_OF_SUIT = {"D": "high", "H": "middle", "S": "low"}  # a Club goes to any of the three


def suit(card: str) -> str:
    return card[-1]


def is_joker(card: str) -> bool:
    return card in ("RJ", "BJ")


def is_royal(card: str) -> bool:
    return not is_joker(card) and card[:-1] in ("J", "Q", "K")


def is_club(card: str) -> bool:
    return not is_joker(card) and suit(card) == "C"


def hand(game: bs.Game, seat: int) -> list[str]:
    return table(game, seat)["players"][seat]["hand"]


def stance_commands(cards: list[str]) -> list[str]:
    # Jedi Duel, "Stance": "You can play a Club card to any of the three Stances and it becomes
    # that suit."  "Playing a Diamond (or a club to this space) puts you in a High Stance" (a
    # Heart: Middle, a Spade: Low).  A Joker is no stance ("Jokers represent amputation ... You may
    # only play a Joker from the Medium or Low Stance"; docs/games/jedi-duel.md, choice 5: "A
    # stance card may be any card but a Joker").
    out = []
    for c in cards:
        if is_club(c):
            out.extend(f"stance {c} {area}" for area in AREAS)
        elif not is_joker(c):
            out.append(f"stance {c}")
    return out


def test_jedi_setup_stance_options():
    # Jedi Duel, "Setup": "All players except the player to the left of the Dealer play one card
    # on their playaid to show their initial Stance."  A hand with a Club, a Joker and a card of
    # another suit: each Club counts three times, each Diamond, Heart or Spade once, a Joker never.
    def search(seed):
        game = new_game(JEDI, 3, seed)
        seat = game.to_act()[0]
        cards = hand(game, seat)
        kinds = {"club" if is_club(c) else "joker" if is_joker(c) else "suit" for c in cards}
        return (game, seat, cards) if kinds == {"club", "joker", "suit"} else None

    game, seat, cards = found(search, "a first hand with a Club, a Joker and another suit")
    assert table(game, seat)["step"] == "show an initial stance"
    clubs = sum(map(is_club, cards))
    jokers = sum(map(is_joker, cards))
    expected = stance_commands(cards)
    assert len(expected) == 3 * clubs + (5 - clubs - jokers)
    same(legal(game, seat), expected)


def jedi_to_action(seed: int, n: int, area: str, keep) -> tuple[bs.Game, int] | None:
    """Play the setup stances, then give the first player a stance in ``area`` with a card
    whose removal leaves a hand for which ``keep(hand)`` holds.  ``(game, seat)`` in the action
    step, or None."""
    game = new_game(JEDI, n, seed)
    while table(game, game.to_act()[0])["step"] == "show an initial stance":
        seat = game.to_act()[0]
        play(game, seat, stance_commands(hand(game, seat))[0])
    seat = game.to_act()[0]
    cards = hand(game, seat)
    for c in cards:
        rest = [d for d in cards if d != c]
        if is_club(c):
            text = f"stance {c} {area}"
        elif not is_joker(c) and AREA_OF_SUIT[suit(c)] == area:
            text = f"stance {c}"
        else:
            continue
        if keep(rest):
            play(game, seat, text)
            return game, seat
    return None


def test_jedi_attacker_options_with_number_cards():
    # Jedi Duel, "Playing the Game", step 3: "Play a card to Attack, use a Force Power or Discard
    # it to regain some Fatigue."  "Attack": "Play a non-royal card for an attack."  "Club cards
    # do not add the attack speed modifier but you must still state which area it is attacking
    # (High, Medium or Low)".  "Discarding": "Rather than playing a Force Power or an Attack you may
    # discard a card to regain some Fatigue."
    # Three players, a hand of four number cards (a Club among them): each card attacks each of
    # the two opponents (a Club in any of three areas), and each card may be discarded.
    def keep(rest):
        plain = all(not is_royal(c) and not is_joker(c) for c in rest)
        return plain and any(map(is_club, rest)) and not all(map(is_club, rest))

    game, seat = found(
        lambda seed: jedi_to_action(seed, 3, "middle", keep),
        "a first hand of number cards with a Club",
    )
    data = table(game, seat)
    assert data["step"] == "attack, use a Force power, or discard for fatigue"
    cards = hand(game, seat)
    targets = [p["name"] for p in data["players"] if p["name"] != NAMES[seat]]
    assert not any(p["immune"] for p in data["players"])
    expected = [f"discard {c}" for c in cards]
    for t in targets:
        for c in cards:
            if is_club(c):
                expected.extend(f"attack {t} {c} {area}" for area in AREAS)
            else:
                expected.append(f"attack {t} {c}")
    clubs = sum(map(is_club, cards))
    assert len(expected) == 2 * (3 * clubs + (4 - clubs)) + 4
    same(legal(game, seat), expected)


@pytest.mark.parametrize("attacker_area", ["middle", "high"])
def test_jedi_defender_options(attacker_area):
    # Jedi Duel, "Attack": "The defender may: Discard a Club card as a temporary defense. Play a
    # Force Defence card to negate the attack if you have not attacked from the High Stance."
    # "Force Defence": "Royal cards may also be discarded to negate any attack" and "You must
    # play a card of the suit of your current Stance (or a Club Royal)."  "You cannot defend
    # against attacks made by someone in the High Stance."  And "Fumble": "If your fatigue is in a
    # column lower than your attacker's" -- not so here: everyone is still at 21.
    # So: take the blow, or each Club, or (not against the high stance) each royal of the
    # defender's stance suit or of Clubs.
    def defender_ok(game, target):
        me = table(game, target)["players"][target]
        stance_suit = {v: k for k, v in AREA_OF_SUIT.items()}[me["stance"]]
        cards = hand(game, target)
        force = [c for c in cards if is_royal(c) and suit(c) in (stance_suit, "C")]
        off_suit = [c for c in cards if is_royal(c) and c not in force]
        return any(map(is_club, cards)) and force and off_suit

    def search(seed):
        position = jedi_to_action(
            seed,
            2,
            attacker_area,
            lambda rest: any(not is_royal(c) and not is_joker(c) for c in rest),
        )
        if position is None:
            return None
        game, seat = position
        target = 1 - seat
        if not defender_ok(game, target):
            return None
        card = next(c for c in hand(game, seat) if not is_royal(c) and not is_joker(c))
        play(game, seat, f"attack {NAMES[target]} {card}" + (" low" if is_club(card) else ""))
        return game, target

    game, target = found(
        search, "a defender with a Club and royals in and out of stance suit", range(2000)
    )
    assert game.to_act() == (target,)
    data = table(game, target)
    assert data["players"][0]["column"] == data["players"][1]["column"]  # no fumble
    cards = hand(game, target)
    stance_suit = {v: k for k, v in AREA_OF_SUIT.items()}[data["players"][target]["stance"]]
    expected = ["take"] + [f"defend {c}" for c in cards if is_club(c)]
    if attacker_area != "high":
        expected += [
            f"force-defend {c}" for c in cards if is_royal(c) and suit(c) in (stance_suit, "C")
        ]
    same(legal(game, target), expected)
