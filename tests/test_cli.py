"""The command line as a user meets it: exit codes, one-line errors, play by email."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardstate.cli import cli

ROOT = Path(__file__).parent.parent


def run(*args, ok=(0,)):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result


def code(*args) -> int:
    try:
        return run(*args).exit_code
    except SystemExit as exc:  # our group exits itself
        return exc.code


def bs(tmp_path, *args):
    """Run the real console script, as a user does (stderr separate)."""
    proc = subprocess.run(
        [sys.executable, "-m", "boardstate.cli", *map(str, args)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    return proc.returncode, proc.stdout, proc.stderr


def new_game(tmp_path, name="game.msgpack", *extra):
    rc, out, err = bs(
        tmp_path,
        "new",
        "duel-of-the-forces",
        "--player",
        "alice",
        "--player",
        "bob",
        "--seed",
        "cli-test-2",
        "-o",
        name,
        *extra,
    )
    assert rc == 0, err
    return tmp_path / name


def test_modules_lists_editions_and_options(tmp_path):
    rc, out, _ = bs(tmp_path, "modules")
    assert rc == 0 and "duel-of-the-forces" in out and "parlett-original" in out
    rc, out, _ = bs(tmp_path, "modules", "--json")
    ids = [m["id"] for m in json.loads(out)]
    assert "duel-of-the-forces" in ids


def test_play_by_email_round_trip(tmp_path):
    game = new_game(tmp_path)
    (tmp_path / "bob.msgpack").write_bytes(game.read_bytes())
    rc, out, _ = bs(tmp_path, "legal", "game.msgpack", "--as", "alice")
    assert rc == 0 and "play luke 5" in out.split("\n")
    rc, out, err = bs(
        tmp_path, "move", "game.msgpack", "--as", "alice", "play luke 5", "--out", "m1.msgpack"
    )
    assert rc == 0, err
    m1 = (tmp_path / "m1.msgpack").read_bytes()
    assert b"play luke 5" not in m1  # the sealed bid travels as a commitment only
    rc, out, err = bs(tmp_path, "apply", "bob.msgpack", "m1.msgpack")
    assert rc == 0, err
    rc, out, _ = bs(tmp_path, "show", "bob.msgpack", "--as", "bob", "--json")
    data = json.loads(out)
    assert data["engine"]["sealed"]["committed"] == ["alice"]
    assert "luke 5" not in out
    rc, out, err = bs(
        tmp_path, "move", "bob.msgpack", "--as", "bob", "play 3", "--out", "m2.msgpack"
    )
    assert rc == 0 and "bob reveals: play han 3" in out
    rc, out, err = bs(tmp_path, "apply", "game.msgpack", "m2.msgpack", "--out", "m3.msgpack")
    assert rc == 0 and "alice reveals: play luke 5" in out and (tmp_path / "m3.msgpack").exists()
    rc, out, err = bs(tmp_path, "apply", "bob.msgpack", "m3.msgpack")
    assert rc == 0, err
    import boardstate as boardstate_lib

    alice_copy = boardstate_lib.load_game(game)
    bob_copy = boardstate_lib.load_game(tmp_path / "bob.msgpack")
    assert [r.hash for r in bob_copy.records] == [r.hash for r in alice_copy.records]
    for f in ("game.msgpack", "bob.msgpack"):
        rc, out, err = bs(tmp_path, "verify", f)
        assert rc == 0 and out.startswith("ok: 5 records"), (out, err)
    # the two copies agree on the table
    a = json.loads(bs(tmp_path, "show", "game.msgpack", "--json")[1])
    b = json.loads(bs(tmp_path, "show", "bob.msgpack", "--json")[1])
    assert a == b

    # stale: the same move file again
    rc, _, err = bs(tmp_path, "apply", "bob.msgpack", "m3.msgpack")
    assert rc == 1 and "stale" in err and err.count("\n") == 1
    # bids on the same base commute: bob's, made at the same time as alice's, merges
    (tmp_path / "fork.msgpack").write_bytes((tmp_path / "bob.msgpack").read_bytes())
    (tmp_path / "alice2.msgpack").write_bytes((tmp_path / "game.msgpack").read_bytes())
    bs(tmp_path, "move", "game.msgpack", "--as", "alice", "play 1", "--out", "a2.msgpack")
    bs(tmp_path, "move", "fork.msgpack", "--as", "bob", "play 1", "--out", "b2.msgpack")
    rc, out, err = bs(tmp_path, "apply", "game.msgpack", "b2.msgpack", "-o", "a3.msgpack")
    assert rc == 0 and "bob commits" in out, err
    # a real fork: two different bids of alice's on the same base (two copies of her game)
    bs(tmp_path, "move", "alice2.msgpack", "--as", "alice", "play 2", "-o", "x2.msgpack")
    rc, _, err = bs(tmp_path, "apply", "fork.msgpack", "x2.msgpack")
    assert rc == 0, err  # (bob's copy first hears of this one: it merges)
    rc, _, err = bs(tmp_path, "apply", "fork.msgpack", "a2.msgpack")
    assert rc == 1 and "fork" in err and "two different sealed choices" in err
    # gap: a move file whose base this copy has not reached
    bs(tmp_path, "apply", "fork.msgpack", "a2.msgpack")
    # another game
    new_game(tmp_path, "other.msgpack")
    rc, _, err = bs(tmp_path, "apply", "other.msgpack", "m1.msgpack")
    assert rc == 1 and "another game" in err


def test_export_rebuilds_a_lost_move_file(tmp_path):
    game = new_game(tmp_path)
    (tmp_path / "bob.msgpack").write_bytes(game.read_bytes())
    bs(tmp_path, "move", "game.msgpack", "--as", "alice", "play 5")  # forgot --out
    rc, out, err = bs(tmp_path, "export", "game.msgpack", "--after", "0", "-o", "m.msgpack")
    assert rc == 0 and "records 1-1" in out, err
    assert b"luke 5" not in (tmp_path / "m.msgpack").read_bytes()
    rc, out, err = bs(tmp_path, "apply", "bob.msgpack", "m.msgpack")
    assert rc == 0, err
    rc, _, err = bs(tmp_path, "export", "game.msgpack", "--after", "1", "-o", "x.msgpack")
    assert rc == 2 and "out of range" in err


def test_illegal_and_malformed_commands(tmp_path):
    new_game(tmp_path)
    rc, _, err = bs(tmp_path, "move", "game.msgpack", "--as", "alice", "play han 5")
    assert rc == 1 and "illegal" in err and err.count("\n") == 1
    rc, _, err = bs(tmp_path, "move", "game.msgpack", "--as", "alice", "fly away")
    assert rc == 2 and "cannot read 'fly away'" in err
    rc, _, err = bs(tmp_path, "move", "game.msgpack", "--as", "zed", "play 1")
    assert rc == 2 and "no player 'zed'" in err
    rc, _, err = bs(tmp_path, "move", "game.msgpack", "--as", "alice")
    assert rc == 2 and err.startswith("boardstate: usage:") and err.count("\n") == 1
    rc, _, err = bs(tmp_path, "frobnicate")
    assert rc == 2 and err.count("\n") == 1


@pytest.mark.parametrize(
    "content, words",
    [
        (b"", "empty file"),
        (b"not a game", "not a boardstate file"),
        (b"\x8f\xa6format\xaaboardstate", "truncated"),
    ],
)
def test_bad_files_one_line_exit_2(tmp_path, content, words):
    (tmp_path / "bad.msgpack").write_bytes(content)
    for command in (["show", "bad.msgpack"], ["verify", "bad.msgpack"], ["replay", "bad.msgpack"]):
        rc, out, err = bs(tmp_path, *command)
        assert rc == 2 and words in err and err.count("\n") == 1 and "Traceback" not in err


def test_missing_file_and_directory(tmp_path):
    rc, _, err = bs(tmp_path, "show", "nope.msgpack")
    assert rc == 2 and "no such file" in err
    rc, _, err = bs(tmp_path, "show", ".")
    assert rc == 2 and err.count("\n") == 1


def test_new_refuses_to_overwrite_and_bad_options(tmp_path):
    new_game(tmp_path)
    rc, _, err = bs(
        tmp_path,
        "new",
        "duel-of-the-forces",
        "--player",
        "a",
        "--player",
        "b",
        "-o",
        "game.msgpack",
    )
    assert rc == 2 and "exists" in err
    rc, _, err = bs(
        tmp_path,
        "new",
        "duel-of-the-forces",
        "--player",
        "a",
        "--player",
        "b",
        "--option",
        "edition=deluxe",
        "-o",
        "x.msgpack",
    )
    assert rc == 2 and "option edition: 'deluxe' is not one of" in err
    rc, _, err = bs(tmp_path, "new", "chess", "--player", "a", "--player", "b", "-o", "y.msgpack")
    assert rc == 2 and "no installed module 'chess'" in err


def test_replay_steps_and_jumps(tmp_path):
    new_game(tmp_path)
    bs(tmp_path, "move", "game.msgpack", "--as", "alice", "play 5")
    bs(tmp_path, "move", "game.msgpack", "--as", "bob", "play 2")
    rc, out, _ = bs(tmp_path, "replay", "game.msgpack")
    assert rc == 0 and out.count("--- record") == 5
    rc, out, _ = bs(tmp_path, "replay", "game.msgpack", "--to", "1", "--as", "bob")
    assert rc == 0 and "alice commits a sealed choice\n" in out and "luke 5" not in out
    rc, _, err = bs(tmp_path, "replay", "game.msgpack", "--to", "99")
    assert rc == 2 and "out of range" in err


def test_replay_prompt_forward_back_jump(tmp_path):
    new_game(tmp_path)
    bs(tmp_path, "move", "game.msgpack", "--as", "alice", "play 5")
    bs(tmp_path, "move", "game.msgpack", "--as", "bob", "play 2")
    proc = subprocess.run(
        [sys.executable, "-m", "boardstate.cli", "replay", "game.msgpack", "--step"],
        input="n\nn\np\nj 4\nj x\nq\n",
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    shown = re.findall(r"--- record (\d+)", proc.stdout)
    assert shown == ["0", "1", "2", "1", "4", "4"]
    assert "say j N" in proc.stdout


def test_verify_explains_the_first_illegal_record(tmp_path):
    from boardstate import Game, get_module, save_game
    from boardstate.testing import Kind, make_secret, reveal

    game = Game.new(get_module("duel-of-the-forces"), ["alice", "bob"], {}, seed=b"v")
    game.append(game.make(Kind.COMMIT, 0, "", make_secret("play r2", bytes(16), 1).sealed(), ()))
    game.play(1, "play 2")
    # alice reveals R2-D2 — legal unless Darth Vader is up; forge a card she does not hold
    forged = make_secret("play r2", bytes(16), 1)
    game.append(game.make(Kind.REVEAL, 0, "", reveal(forged), ()))
    save_game(game, tmp_path / "forged.msgpack")
    rc, out, err = bs(tmp_path, "verify", "forged.msgpack")
    assert rc == 1 and "record 4 by alice" in err
    rc, out, _ = bs(tmp_path, "verify", "forged.msgpack", "--json")
    data = json.loads(out)
    assert rc == 1 and data["failure"]["record"] == 4 and data["failure"]["actor"] == "alice"


def test_view_file_has_no_seed_and_verifies(tmp_path):
    new_game(tmp_path)
    bs(tmp_path, "move", "game.msgpack", "--as", "alice", "play 5")
    rc, out, _ = bs(tmp_path, "view", "game.msgpack", "--as", "bob", "-o", "bob-view.msgpack")
    assert rc == 0
    data = (tmp_path / "bob-view.msgpack").read_bytes()
    assert b"cli-test" not in data
    rc, out, _ = bs(tmp_path, "verify", "bob-view.msgpack")
    assert rc == 0 and "hash chain only" in out


def test_hot_seat_never_writes_an_unrevealed_bid(tmp_path):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "boardstate.cli",
            "play",
            "duel-of-the-forces",
            "--player",
            "ann",
            "--player",
            "ben",
            "--seed",
            "hs",
            "-o",
            "g.msgpack",
        ],
        input="play 5\nquit\n",
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    data = (tmp_path / "g.msgpack").read_bytes()
    assert b"play luke 5" not in data
    rc, out, _ = bs(tmp_path, "show", "g.msgpack", "--json")
    assert json.loads(out)["engine"]["sealed"]["committed"] == []  # the round is chosen again
    rc, out, err = bs(tmp_path, "move", "g.msgpack", "--as", "ann", "play 4")
    assert rc == 0, err


def test_interactive_play_against_the_bot(tmp_path):
    commands = (
        "\n".join(
            ["legal", "play 9", "play 8"] + ["play r2"] * 3 + [f"play {i}" for i in range(1, 9)] * 6
        )
        + "\nquit\n"
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "boardstate.cli",
            "play",
            "duel-of-the-forces",
            "--player",
            "me",
            "--player",
            "robot",
            "--bot",
            "robot",
            "--seed",
            "p",
            "-o",
            "g.msgpack",
        ],
        input=commands,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert "not allowed" in proc.stdout and "play luke 8" in proc.stdout
    rc, out, _ = bs(tmp_path, "verify", "g.msgpack")
    assert rc == 0


# ---------------------------------------------------------------------------------- mail usability
def test_move_takes_unquoted_words_and_always_writes_a_move_file_with_a_sorting_name(tmp_path):
    new_game(tmp_path)
    rc, out, err = bs(tmp_path, "move", "game.msgpack", "--as", "alice", "play", "luke", "5")
    assert rc == 0, err
    assert (tmp_path / "game-0001-alice.msgpack").exists() and "game-0001-alice" in out
    # the default name is never written over: a second move file needs a name of its own
    (tmp_path / "game-0002-bob.msgpack").write_bytes(b"mine")
    rc, _, err = bs(tmp_path, "move", "game.msgpack", "--as", "bob", "play", "han", "3")
    assert rc == 2 and "game-0002-bob.msgpack exists" in err and err.count("\n") == 1
    assert (tmp_path / "game-0002-bob.msgpack").read_bytes() == b"mine"


def test_several_commands_in_one_call_stand_or_fall_together(tmp_path):
    new_game(tmp_path)
    before = (tmp_path / "game.msgpack").read_bytes()
    rc, _, err = bs(tmp_path, "move", "game.msgpack", "--as", "alice", "play luke 5; play luke 6")
    assert rc == 1 and "command 2 of 2, so none was made" in err
    assert (tmp_path / "game.msgpack").read_bytes() == before
    rc, _, err = bs(tmp_path, "move", "game.msgpack", "--as", "alice", "play luke 5;")
    assert rc == 2 and "an empty command" in err


def test_dash_reads_a_move_file_from_stdin_and_writes_one_to_stdout(tmp_path):
    new_game(tmp_path)
    (tmp_path / "bob.msgpack").write_bytes((tmp_path / "game.msgpack").read_bytes())
    cmd = [sys.executable, "-m", "boardstate.cli"]
    made = subprocess.run(
        cmd + ["move", "game.msgpack", "--as", "alice", "play luke 5", "-o", "-"],
        cwd=tmp_path,
        capture_output=True,
    )
    assert made.returncode == 0, made.stderr
    import boardstate as boardstate_lib

    assert boardstate_lib.parse_raw(made.stdout, "stdout").header.kind == "move"
    assert b"record 1: alice commits" in made.stderr  # (the words go to stderr)
    applied = subprocess.run(
        cmd + ["apply", "bob.msgpack", "-"], cwd=tmp_path, input=made.stdout, capture_output=True
    )
    assert applied.returncode == 0, applied.stderr
    assert b"alice commits a sealed choice" in applied.stdout


def test_log_prints_the_game_as_text_with_tags_moves_what_they_settled_and_the_result():
    sample = "replays/duel-of-the-forces-ravensburger-2015-2p.msgpack"
    out = run("log", str(ROOT / sample)).output
    lines = out.splitlines()
    assert lines[0] == '[Game "Duel of the Forces"]' and '[Players "ann, ben"]' in lines
    assert "1. ann commits a sealed choice" in lines
    assert any(line.startswith("   Round 1, ") for line in lines)  # what the duel settled
    assert lines[-1].startswith("Game over (")


def test_replay_ends_on_the_result_and_says_so():
    out = run("replay", str(ROOT / "replays/jedi-duel-2p.msgpack"), "--no-step").output
    assert out.rstrip().splitlines()[-1].startswith("Game over (")


def test_undo_takes_back_only_what_no_move_file_has_carried(tmp_path):
    new_game(tmp_path)
    rc, _, err = bs(tmp_path, "undo", "game.msgpack", "--as", "alice")
    assert rc == 1 and "has gone to the other players" in err and err.count("\n") == 1
    bs(tmp_path, "move", "game.msgpack", "--as", "alice", "play luke 5", "-o", "m1.msgpack")
    rc, _, err = bs(tmp_path, "undo", "game.msgpack", "--as", "alice")
    assert rc == 1 and "record 1" in err  # mailed in m1.msgpack: it stands
    # a move whose move file is not written yet (a file of its own, made and dropped)
    import boardstate as boardstate_lib

    game = boardstate_lib.load_game(tmp_path / "game.msgpack")
    game.play(1, "play han 3")  # (this full copy then reveals both bids: bob's, then alice's)
    boardstate_lib.save_game(game, tmp_path / "game.msgpack")
    rc, out, err = bs(tmp_path, "undo", "game.msgpack", "--as", "alice")
    assert rc == 0 and "undone: record 4: alice reveals" in out, err
    rc, _, err = bs(tmp_path, "undo", "game.msgpack", "--as", "alice")
    assert rc == 1 and "is not alice's" in err
    rc, out, err = bs(tmp_path, "undo", "game.msgpack", "--as", "bob")
    assert rc == 0 and out.count("undone: record") == 2, err
    assert boardstate_lib.load_game(tmp_path / "game.msgpack").seq == 2


def test_a_one_record_move_file_is_a_few_hundred_bytes(tmp_path):
    new_game(tmp_path)
    game = (tmp_path / "game.msgpack").stat().st_size
    bs(tmp_path, "move", "game.msgpack", "--as", "alice", "play luke 5", "-o", "m.msgpack")
    size = (tmp_path / "m.msgpack").stat().st_size
    assert size < 400 < game  # (the header names the game by id: no card list, no players)


def test_armored_text_survives_a_mail_body_and_a_damaged_line_is_one_line_error(tmp_path):
    new_game(tmp_path)
    (tmp_path / "bob.msgpack").write_bytes((tmp_path / "game.msgpack").read_bytes())
    rc, out, _ = bs(tmp_path, "move", "game.msgpack", "--as", "alice", "play luke 5", "--text")
    armored = (tmp_path / "game-0001-alice.txt").read_text()
    assert armored.startswith("-----BEGIN BOARDSTATE MOVE-----\nGame: duel-of-the-forces")
    assert "alice commits a sealed choice" in armored.splitlines()[1]
    quoted = "Hi Bob,\n\n" + "".join(f"> {line}\n" for line in armored.splitlines()) + "Ann\n"
    (tmp_path / "mail.txt").write_text(quoted)
    rc, out, err = bs(tmp_path, "inspect", "mail.txt", "bob.msgpack")
    assert rc == 0 and "applies cleanly" in out and "alice commits a sealed choice" in out, err
    damaged = armored.replace(armored.splitlines()[2], armored.splitlines()[2][:-4] + "AAAA")
    (tmp_path / "bad.txt").write_text(damaged)
    rc, _, err = bs(tmp_path, "apply", "bob.msgpack", "bad.txt")
    assert rc == 2 and "does not match" in err and err.count("\n") == 1
    rc, out, err = bs(tmp_path, "apply", "bob.msgpack", "mail.txt")
    assert rc == 0 and "alice commits a sealed choice" in out, err


def test_inspect_without_the_game_shows_seats_and_kinds(tmp_path):
    new_game(tmp_path)
    bs(tmp_path, "move", "game.msgpack", "--as", "alice", "play luke 5", "-o", "m.msgpack")
    rc, out, err = bs(tmp_path, "inspect", "m.msgpack")
    assert rc == 0 and "record 1: seat 0, sealed choice" in out, err
    rc, _, err = bs(tmp_path, "inspect", "game.msgpack")
    assert rc == 2 and "not a move file" in err


def test_play_resumes_a_stopped_game_from_its_file_and_undo_takes_back_a_move(tmp_path):
    game = tmp_path / "hs.msgpack"
    first = CliRunner().invoke(
        cli,
        [
            "play",
            "duel-of-the-forces",
            "--player",
            "ann",
            "--player",
            "bot",
            "--bot",
            "bot",
            "--seed",
            "z",
            "-o",
            str(game),
        ],
        input="play luke 5\nquit\n",
    )
    assert first.exit_code == 0 and "ann commits a sealed choice" in first.output
    assert "(sealed: not shown)> " in first.output  # typed without echo:
    assert "not shown)> play luke 5" not in first.output
    records = bs_lib().load_game(game).seq
    resumed = CliRunner().invoke(
        cli, ["play", str(game), "--bot", "bot"], input="undo\nplay luke 4\nquit\n"
    )
    assert resumed.exit_code == 0 and "undone:" in resumed.output, resumed.output
    assert "ann reveals: play luke 4" in resumed.output
    again = bs_lib().load_game(game)
    assert again.records[1].actor == 0 and again.records[1].sealed.value == "play luke 4"
    assert records > 1


def test_hot_seat_asks_to_pass_the_terminal_between_two_humans(tmp_path):
    result = CliRunner().invoke(
        cli,
        ["play", "duel-of-the-forces", "--player", "ann", "--player", "ben", "--seed", "z"],
        input="play luke 5\n\nplay han 3\nquit\n",
    )
    assert result.exit_code == 0
    assert "Pass the terminal to ben. ben, press Enter when ready" in result.output


def bs_lib():
    import boardstate

    return boardstate
