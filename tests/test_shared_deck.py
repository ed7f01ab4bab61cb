"""The shared-deck mode (issue 31): Jedi Duel by mail with no dealer.  Games played to the end
on every player's copy, what each copy can and cannot read, and the game's refusals."""

from __future__ import annotations

import pytest
from shared_deck_table import JEDI, Table, fast_proofs

import boardstate as bs
from boardstate import UNKNOWN, _mental
from boardstate._audit import audit
from boardstate._fileformat import encode_game, parse_raw
from boardstate._referee import verify
from boardstate._words import records_said


@pytest.fixture(autouse=True)
def _fast(monkeypatch):
    fast_proofs(monkeypatch)


@pytest.mark.parametrize("players", [2, 3])
def test_jedi_duel_plays_to_the_end_and_every_copy_agrees(players):
    table = Table(players, seed=players)
    table.play_out()
    heads = {c.head_hash for c in table.copies}
    assert len(heads) == 1
    outcomes = {repr(c.outcome()) for c in table.copies}
    assert len(outcomes) == 1 and table.copies[0].outcome() is not None
    for seat, game in enumerate(table.copies):  # (each copy reads back as it was)
        again = verify(parse_raw(encode_game(game), f"copy {seat}"))
        assert again.ok, again


def test_no_copy_reads_another_players_hand_or_the_deck(monkeypatch):
    table = Table(2, seed=5)
    for _ in range(12):
        table.act()
    for seat, game in enumerate(table.copies):
        state = game.state
        for other, hand in enumerate(state.hands):
            for card in hand:  # (one's own: read once claimed; a card just drawn is not yet)
                unclaimed = card.commitment in game.trust.unclaimed
                assert (card.value is UNKNOWN) == (other != seat or unclaimed), (seat, other)
        assert all(card.value is UNKNOWN for card in state.deck)
        assert game.header.seed is None
    # The deck's own records in words, as 'log' and 'apply' say them: each kind by its name.
    lines = records_said(table.copies[0], table.copies[0].records, 0, protocol=True)
    for words in (
        "ann shuffles the deck (54 cards), with its proof",
        "ben shuffles the deck (54 cards), with its proof",
        "gives decryption shares of",
        "reads and claims",
    ):
        assert any(words in line for line in lines), (words, lines)
    grouped = "\n".join(records_said(table.copies[0], table.copies[0].records, 0))
    assert "shuffles of the deck: ann, ben" in grouped and "decryption shares: " in grouped
    assert "arrange" not in grouped, grouped
    # A copy read checked proves the other player's shuffle and makes its own again.
    proven = []
    check = _mental.check_shuffle
    monkeypatch.setattr(_mental, "check_shuffle", lambda *a: proven.append(a[4][3]) or check(*a))
    for seat, game in enumerate(table.copies):
        proven.clear()
        assert verify(parse_raw(encode_game(game), f"copy {seat}")).ok
        assert proven == [1 - seat], proven


def test_more_than_three_players_are_refused_naming_the_judge():
    for n in (4, 5, 6):
        with pytest.raises(bs.OptionError) as info:
            bs.Game.new(JEDI, ["a", "b", "c", "d", "e", "f"][:n], {}, trust="shared-deck", seat=0)
        text = str(info.value)
        assert "judge" in text and "\n" not in text


def test_the_game_waits_only_for_what_the_player_to_act_needs():
    """Whom the game waits for, in words: a player's share of the cards another must read."""
    table = Table(2, seed=7)
    waits = set()
    for _ in range(30):
        for game in table.copies:
            text = game.waiting_text()
            if text:
                waits.add(text.split(" to ")[0])
        table.act()
    assert table.copies[0].outcome() is not None or table.copies[0].to_act()


def test_the_audit_makes_a_hand_shown_by_another_player_from_their_claims():
    """Ben shows Ann his hand (Force Sense's 'show'): his copy commits to each claimed card's
    value anew.  The audit, made on Ann's copy with every secret published, makes Ben's records
    as his copy did, so it must hold his claimed cards opened (sealed, it had no value to commit
    to: 'can not serialize _Unknown'), and it re-derives every record, none in part."""
    table = Table(2, seed=2)
    shown = []

    def sense_show_or_swap(legal):
        if "show" in legal and table.copies[0].to_act() == (1,):
            shown.append("show")
            return "show"
        picks = [c for c in legal if c.startswith(("sense", "swap"))]
        return (picks or legal)[0]

    while not shown:
        table.act(sense_show_or_swap)
    table.copies[0].play(0, "resign")
    table.settle()
    copies = [parse_raw(encode_game(c), f"copy {i}") for i, c in enumerate(table.copies)]
    verdict = audit(copies)
    assert verdict.ok and verdict.partly == 0, verdict.line()
