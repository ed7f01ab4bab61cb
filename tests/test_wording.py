"""Wording (issue 24, item 10): a refusal names no "record -1" (a failure of no one record,
``VerificationFailed.seq`` -1, names none), and an audit without one player's copy does not
say it had every copy."""

from __future__ import annotations

from click.testing import CliRunner
from test_threat_model import DRAW, table

import boardstate as bs
from boardstate._registry import registered
from boardstate.cli import cli
from boardstate.testing import CREATED, encode_records, forge

DOTF = bs.get_module("duel-of-the-forces")


def run(*args) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def test_a_failure_of_no_one_record_names_no_record():
    assert str(bs.VerificationFailed("the file is odd", code="x")) == "the file is odd [x]"
    assert str(bs.VerificationFailed("bad", code="x", seq=0, actor="ann", command="c")) == (
        "record 0 by ann 'c': bad [x]"
    )


def test_a_game_file_that_does_not_verify_is_refused_without_record_minus_one(tmp_path):
    """``move`` on a received file with a forged deal (before: 'record -1: ... does not
    verify')."""
    game = bs.Game.new(DOTF, ["alice", "bob"], {}, seed=b"deal", created=CREATED)
    setup = game.records[0]
    drawn = setup.events[0]
    forged = forge(game, 0, events=(type(drawn)((drawn.card + 1) % 34),) + setup.events[1:])
    path = tmp_path / "received.msgpack"
    path.write_bytes(encode_records(game.header, forged))
    rc, _, err = run("move", path, "play 3", "--as", "alice")
    assert rc == 1 and len(err.strip().splitlines()) == 1, err
    assert "record -1" not in err and "does not verify" in err and "record 0:" in err


def test_an_audit_without_a_players_copy_says_which_copies_it_had(tmp_path):
    """Three players, two copies given: 'with the copies given' and carol's cards named as
    not audited (before: 'with every copy given')."""
    with registered(DRAW):
        t = table(3, module=DRAW, rng_seed=6)
        t.play_out()
        files = []
        for seat in (0, 1):
            path = tmp_path / f"copy-{seat}.msgpack"
            path.write_bytes(bs.encode_game(t.copies[seat], viewer=seat))
            files.append(path)
        rc, out, err = run("verify", files[0], "--with", files[1])
    assert rc == 0, err
    assert "every copy given" not in out and "with the copies given" in out, out
    assert "not audited: the cards of carol" in out, out
