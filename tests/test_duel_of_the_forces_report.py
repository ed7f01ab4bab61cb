"""Duel of the Forces: the one line that tells a player by mail what the last decision settled
(who bid what, who wins which villain and why, scores now), the same in show, replay and at the
end of the game, and built from public facts only."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from test_duel_of_the_forces import RULES, act, bid, table

import boardstate as bs
from boardstate.cli import cli
from boardstate.modules.duel_of_the_forces import KEEP, LOOK_CMD, MODULE, TAKE_CMD, give
from boardstate.modules.duel_of_the_forces._state import R2
from boardstate.testing import random_game


def test_nothing_to_report_before_the_first_duel():
    assert RULES.report(table(["Greedo", "Boba Fett"])) is None


def test_a_duel_won_on_force():
    s, _ = bid(table(["Boba Fett", "Greedo"]), 6, 3)
    assert RULES.report(s) == (
        "Round 1, Boba Fett (8): ann Luke 6, ben Han 3. ann wins Boba Fett (8) with Luke 6 "
        "(highest force) and discards it. Scores: ann 8, ben 0."
    )


def test_a_duel_won_on_icons():
    # "Gibt es mehrere Jedi/Rebellen-Karten mit gleichem Zahlenwert, entscheidet die Anzahl der
    # Rebellen-Symbole": the line names both counts.
    s, _ = bid(table(["Boba Fett", "Greedo"]), 1, 1)
    assert "ann wins Boba Fett (8) with Luke 1 (same force, more icons: Luke 4 against Han 3)" in (
        RULES.report(s)
    )


def test_a_vader_duel_and_the_winners_choice():
    s, _ = bid(table([("Darth Vader", -4), "Greedo"], n=3), 2, 7, 5)
    assert RULES.report(s) == (
        "Round 1, Darth Vader (-4): ann Luke 2, ben Han 7, cat Leia 5. ben takes Darth Vader "
        "(-4) with Han 7 (highest force). ann discards Luke 2. cat discards Leia 5. ben may keep "
        "Han 7, the card that won Darth Vader (keep or discard). Scores: ann 0, ben -4, cat 0."
    )
    s, _ = act(s, 1, KEEP)
    assert RULES.report(s) == (
        "ben keeps Han 7, the card that won Darth Vader. Scores: ann 0, ben -4, cat 0."
    )


def test_r2_d2_from_the_bid_to_the_gift():
    s, _ = bid(table(["Greedo", "Jabba the Hutt", "Boba Fett"]), R2, 3)
    assert RULES.report(s) == (
        "Round 1, Greedo (2): ann R2-D2, ben Han 3. ben wins Greedo (2) with Han 3 (the only "
        "force card; ann sat out with R2-D2) and discards it. ann may look at the next stock "
        "card with R2-D2 (look or pass). Scores: ann 0, ben 2."
    )
    s, _ = act(s, 0, LOOK_CMD)
    assert RULES.report(s) == (
        "ann's R2-D2 turns up Jabba the Hutt (9): keep it or give it. Scores: ann 0, ben 2."
    )
    s, _ = act(s, 0, give(1))
    assert RULES.report(s) == (
        "ann gives Jabba the Hutt (9) from R2-D2 to ben and keeps R2-D2. Scores: ann 0, ben 11."
    )


def test_parlett_r2_d2_decides_before_the_duel_it_made_wait():
    stock = ["Greedo", "Jabba the Hutt", "Boba Fett"]
    s, _ = bid(table(stock, edition="parlett-english"), R2, 3)
    assert "ann's R2-D2 acts before this duel (Parlett)" in RULES.report(s)
    s, _ = act(s, 0, LOOK_CMD)
    s, _ = act(s, 0, KEEP)
    assert RULES.report(s) == (
        "ann keeps Jabba the Hutt (9) from R2-D2 and discards R2-D2. Bids: ann R2-D2, ben Han 3. "
        "ben wins Greedo (2) with Han 3 (the only force card; ann sat out with R2-D2) and "
        "discards it. Scores: ann 9, ben 2."
    )


def test_several_r2_d2s_and_nobody_competing():
    s, _ = bid(table(["Greedo", "Jabba the Hutt"]), R2, R2)
    assert RULES.report(s) == (
        "Round 1, Greedo (2): ann R2-D2, ben R2-D2. ann and ben played R2-D2 together: nobody "
        "looks, R2-D2 goes back to hand. Nobody bid a force card: Greedo (2) stays up. "
        "Scores: ann 0, ben 0."
    )


def test_the_end_of_the_game():
    stock = ["Greedo", ("Darth Vader", -4), "Jabba the Hutt", "Boba Fett", "Count Dooku"]
    s, _ = bid(table(stock, hands=[(R2, 5, 6), (4,)]), R2, 4)
    assert "Only ann holds cards and may take 3 from the stock (take or pass)" in RULES.report(s)
    s, _ = act(s, 0, TAKE_CMD)
    assert RULES.report(s) == (
        "ann takes from the stock: Darth Vader (-4), Jabba the Hutt (9), Boba Fett (8). Game "
        "over: only ann has cards left and takes 3 from the stock. Scores: ann 13, ben 2."
    )


@pytest.mark.parametrize("edition", ["ravensburger-2015", "parlett-english", "parlett-original"])
def test_the_line_holds_only_public_facts(edition):
    """Every player's view, which holds no other player's secret nor the stock, gives the same
    line as the whole table."""

    def check(game):
        state = game.state
        line = RULES.report(state)
        for seat in (None, *range(len(game.players))):
            assert RULES.report(RULES.view(state, seat)) == line

    for seed in range(4):
        game = random_game(MODULE, seed, options={"edition": edition}, check_each=check)
        assert "Game over: " in RULES.report(game.state)


def test_show_replay_and_the_last_move_print_the_line(tmp_path):
    """``show`` prints the line of the last decision; ``replay`` prints each line at the record
    that settled it; the move that ends the game prints its line, then the outcome."""
    game = bs.Game.new(MODULE, ["ann", "ben"], {}, seed=b"report", created="2026-01-01")
    before = tmp_path / "before.msgpack"
    lines = []
    while True:
        seat = game.to_act()[0]
        command = game.legal(seat)[-1]
        before.write_bytes(bs.encode_game(game))  # the game before the command
        game.play(seat, command)
        line = RULES.report(game.state)
        if line and line not in lines:
            lines.append(line)
        if game.outcome() is not None:
            break
    path = tmp_path / "game.msgpack"
    path.write_bytes(bs.encode_game(game))
    runner = CliRunner()
    shown = runner.invoke(cli, ["show", str(path)])
    assert shown.exit_code == 0 and lines[-1] in shown.output.splitlines()
    replay = runner.invoke(cli, ["replay", str(path), "--no-step"], input="")
    assert replay.exit_code == 0
    printed = [line for line in replay.output.splitlines() if line in lines]
    assert printed == lines  # each line once, in order
    last = runner.invoke(cli, ["move", str(before), command, "--as", game.players[seat]])
    assert last.exit_code == 0, last.output
    out = last.output.splitlines()
    assert out[-2] == lines[-1] and out[-1].startswith("Game over (")
