"""Which commands cost a mail there and back in the peer mode (``Game.round_trips``).

A card drawn in the middle of one's own turn waits for the other player's share of the
randomness before the drawer can go on (docs/trust.md, "What no share can ride on"); a draw
with the last action rides on the other's next mail.  ``legal`` says which commands are the
first kind, so a player can do the rest of their turn first.  The answer is checked here against
what the peer copies then actually do, never against a rule restated in the test.
"""

from __future__ import annotations

import json
import random

import test_peer
from click.testing import CliRunner
from test_peer import Table

import boardstate as bs
from boardstate._fileformat import encode_game, parse_raw
from boardstate._referee import verify
from boardstate.cli import cli

EPIC = bs.get_module("epic-duels")


def epic_table(seed: int) -> Table:
    saved = test_peer.MODULE
    test_peer.MODULE = EPIC
    try:
        t = Table(2, secrets=[bytes([seed, s]) * 16 for s in (1, 2)], rng_seed=seed)
    finally:
        test_peer.MODULE = saved
    t.settle()
    return t


def after_alone(t: Table, seat: int, command: str) -> tuple[bs.Game, bool, tuple]:
    """Play ``command`` on a copy of ``seat``'s game and deliver nothing: ``(that copy, whether
    it waits for the other's link, who acts once the other's copy has dealt it)``."""
    games = [verify(parse_raw(encode_game(c), "copy")).game for c in t.copies]
    for game, key in zip(games, t.keys):
        game.signer = key.sign
    mover = games[seat]
    mover.play(seat, command)
    waits = mover.due() == "link"
    lone = Table.__new__(Table)
    lone.copies, lone.rng = games, random.Random(0)
    lone.mail(seat, 1 - seat)
    lone.mail(1 - seat, seat)
    return mover, waits, mover.to_act()


def test_a_draw_with_an_action_left_waits_for_the_other_and_a_last_draw_does_not():
    seen = {"round trip": 0, "rides": 0}
    for seed in range(3):
        t = epic_table(seed)
        pick = random.Random(seed)
        for _ in range(150):
            game = t.copies[0]
            if game.outcome() is not None or seen["round trip"] >= 3 and seen["rides"] >= 3:
                break
            (seat,) = game.to_act()
            legal = t.copies[seat].legal(seat)
            trips = t.copies[seat].round_trips(seat)
            assert set(trips) <= set(legal)
            for command in legal:
                if not command.startswith("draw"):
                    continue
                _, waits, acting = after_alone(t, seat, command)
                if command in trips:
                    assert waits and acting == (seat,), command
                    seen["round trip"] += 1
                elif waits:  # (randomness, but the other acts next: it rides on their mail)
                    assert seat not in acting, command
                    seen["rides"] += 1
            t.copies[seat].play(seat, pick.choice(legal))
            t.settle()
    assert seen["round trip"] >= 3 and seen["rides"] >= 3, seen


def test_an_open_game_has_no_round_trips():
    game = bs.Game.new(EPIC, ["alice", "bob"], {}, b"s" * 32, "2026-01-01T00:00:00+00:00")
    pick = random.Random(1)
    for _ in range(60):
        (seat,) = game.to_act()
        assert game.round_trips(seat) == []
        game.play(seat, pick.choice(game.legal(seat)))


def test_legal_says_which_commands_wait_on_standard_error(tmp_path):
    t = epic_table(0)
    pick = random.Random(0)
    while True:
        (seat,) = t.copies[0].to_act()
        if t.copies[seat].round_trips(seat):
            break
        t.copies[seat].play(seat, pick.choice(t.copies[seat].legal(seat)))
        t.settle()
    game = t.copies[seat]
    name = test_peer.NAMES[seat]
    path = tmp_path / f"{name}.msgpack"
    bs.save_game(game, path, viewer=seat)
    out = CliRunner().invoke(cli, ["legal", str(path), "--as", name], catch_exceptions=False)
    assert out.exit_code == 0
    assert out.stdout.splitlines() == game.legal(seat)  # (the list stays commands only)
    assert "you wait for" in out.stderr and f"'{game.round_trips(seat)[0]}'" in out.stderr
    data = json.loads(CliRunner().invoke(cli, ["legal", str(path), "--as", name, "--json"]).stdout)
    assert data["round_trips"] == game.round_trips(seat) != []


def test_draw_2s_cards_stay_unknown_to_the_drawer_until_the_other_players_link():
    """Threat model: choose the second action knowing the first card (Epic Duels' ``draw 2``,
    both draws in one record).  The drawer's copy cannot compute either card before the other
    player's link (``NeedsInput``), and no choice of the drawer's comes between the two."""
    from test_threat_model import attempt

    t = epic_table(1)
    pick = random.Random(1)
    while True:
        (seat,) = t.copies[0].to_act()
        game = t.copies[seat]
        if "draw 2" in game.legal(seat):
            break
        game.play(seat, pick.choice([c for c in game.legal(seat) if not c.startswith("draw")]))
        t.settle()
    held = len(game.state.hands[seat])
    game.play(seat, "draw 2")
    assert game.due() == "link" and game.waiting_for() == (1 - seat,)
    assert attempt(game)[0] == "links"  # (everything the drawer's copy holds: no card yet)
    assert len(game.state.hands[seat]) == held
    t.mail(seat, 1 - seat)
    t.mail(1 - seat, seat)
    assert len(game.state.hands[seat]) == held + 2 and seat not in game.to_act()
