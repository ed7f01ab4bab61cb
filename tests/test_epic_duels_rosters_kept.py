"""Epic Duels keeps every two-player duel's roster (``_roster.ROSTERS_KEPT``): self-play that
goes round the 36 pairings on the 4 boards finds each roster again, where a smaller cache
dropped each one before it came round (and every game built its roster anew)."""

from __future__ import annotations

from boardstate.modules.epic_duels import _roster

LIGHT = ("yoda", "obi-wan", "mace", "luke", "anakin", "han")
DARK = ("vader", "maul", "boba", "jango", "emperor", "dooku")
BOARDS = ("geonosis", "kamino", "throne-room", "carbon-chamber")


def every_duel():
    for board in BOARDS:
        for light in LIGHT:
            for dark in DARK:
                yield {"board": board}, ((light,), (dark,))


def test_going_round_every_duel_twice_finds_each_roster_again():
    first = [_roster.roster_of(options, cast, 4) for options, cast in every_duel()]
    assert len(first) == 144 < _roster.ROSTERS_KEPT
    again = [_roster.roster_of(options, cast, 4) for options, cast in every_duel()]
    assert all(a is b for a, b in zip(first, again))


def test_a_decks_kinds_are_its_cards_in_the_order_first_seen():
    """``distinct`` (a roster's cards): each kind once, in the order first seen, and each
    physical card as the number of the kind equal to it; held to that definition on every
    shipped deck and each of its alternatives."""
    from boardstate.modules.epic_duels._decks import deck_for

    for team in LIGHT + DARK:
        deck = deck_for(team)
        for variant in [deck, *(deck.with_alternatives([a]) for a in deck.alternatives)]:
            kinds, physical = _roster.distinct(variant)
            first_seen = []
            for card in variant.cards:
                if card not in first_seen:
                    first_seen.append(card)
            assert list(kinds) == first_seen
            assert [kinds[k] for k in physical] == list(variant.cards)
            assert len(kinds) < len(physical)  # (decks hold copies: the test means something)
