"""Records every game gets from the engine: notes, resignation, draw offer and acceptance."""

from __future__ import annotations

import pytest

import boardstate as bs
from boardstate.testing import CREATED, Kind, append_forged, encode_records

DOTF = bs.installed_modules()["duel-of-the-forces"]
JEDI = bs.installed_modules()["jedi-duel"]


def new(module=DOTF, players=("ann", "ben")):
    return bs.Game.new(module, list(players), {}, seed=b"talk", created=CREATED)


def verified(game) -> bs.Verdict:
    return bs.verify(bs.parse_raw(bs.encode_game(game), "talk"))


def test_a_note_is_kept_in_the_log_and_changes_nothing():
    game = new()
    before = game.state
    (record,) = game.play(1, "note   good luck, Ann ")
    assert record.command == "note good luck, Ann" and record.kind == Kind.MOVE
    assert game.state is before and game.to_act() == (0, 1)
    assert verified(game).ok
    with pytest.raises(bs.IllegalCommand, match="1 to 500 characters"):
        game.play(0, "note")


def test_resigning_ends_the_game_at_once_out_of_turn_and_the_others_win():
    game = new(JEDI, ("ann", "ben", "cat"))
    seat = next(s for s in range(3) if s not in game.to_act())  # not this player's turn
    game.play(seat, "resign")
    outcome = game.outcome()
    assert outcome.winners == tuple(s for s in range(3) if s != seat)
    assert outcome.reason == f"{game.players[seat]} resigned" and game.to_act() == ()
    verdict = verified(game)
    assert verdict.ok and verdict.outcome == outcome
    with pytest.raises(bs.IllegalCommand, match="the game is over"):
        game.play(0, "note too late")


def test_a_draw_needs_every_other_player_to_accept():
    game = new(JEDI, ("ann", "ben", "cat"))
    with pytest.raises(bs.IllegalCommand, match="no draw is offered"):
        game.play(1, "accept draw")
    game.play(0, "offer draw")
    game.play(1, "accept draw")
    assert game.outcome() is None
    game.play(2, "Accept  Draw")
    assert game.outcome().reason == "a draw, agreed" and game.outcome().winners == (0, 1, 2)
    assert verified(game).ok


def test_a_move_of_the_game_withdraws_its_players_offer():
    game = new()
    game.play(0, "offer draw")
    game.play(0, "play luke 5")  # ann plays on: her offer no longer stands
    with pytest.raises(bs.IllegalCommand, match="no draw is offered"):
        game.play(1, "accept draw")
    game.play(1, "offer draw")
    game.play(1, "withdraw draw")
    with pytest.raises(bs.IllegalCommand, match="no draw is offered"):
        game.play(0, "accept draw")


def test_verify_refuses_a_forged_acceptance_and_a_resignation_after_the_end():
    game = new()
    forged = append_forged(game, Kind.MOVE, 1, command="accept draw")
    verdict = bs.verify(bs.parse_raw(encode_records(game.header, forged), "forged"))
    assert not verdict.ok and verdict.failure.code == "no-offer"
    game = new()
    game.play(0, "resign")
    forged = append_forged(game, Kind.MOVE, 1, command="resign")
    verdict = bs.verify(bs.parse_raw(encode_records(game.header, forged), "forged"))
    assert not verdict.ok and verdict.failure.code in ("game-over", "corrupt")
