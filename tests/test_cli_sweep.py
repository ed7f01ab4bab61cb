"""The command line as its users meet it (a hardening sweep, docs/reliability.md, "The
command line's sweep"): each case here was an internal error, a hang, an error of several
lines or a file lost before its fix; each is one line and a non-zero exit now, with nothing
written that the user did not name."""

from __future__ import annotations

import os
import select
import shlex
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from boardstate.cli import cli

LONG = "x" * 300 + ".msgpack"  # (longer than a file name may be: ENAMETOOLONG)


def run(*args) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def refused(rc: int, err: str, *said: str, code: int = 2) -> None:
    """One line on stderr, the exit status ``code``, no internal error, and each of ``said``."""
    lines = err.strip().splitlines()
    assert rc == code and len(lines) == 1, (rc, err)
    assert "internal error" not in err and "Traceback" not in err, err
    for words in said:
        assert words in lines[0], err


def folder(path) -> dict:
    return {name: (path / name).read_bytes() for name in os.listdir(path) if name != "keys"}


@pytest.fixture
def games(tmp_path, monkeypatch):
    """An open Duel of the Forces game and a peer game's copy and invitation (keys of its
    own), in ``tmp_path``, the working folder."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOARDSTATE_KEYS", str(tmp_path / "keys"))
    monkeypatch.setenv("BOARDSTATE_LOCK_WAIT", "2")
    assert (
        run("new", "duel-of-the-forces", "--player", "ann", "--player", "ben", "-o", "g.msgpack")[0]
        == 0
    )
    for name in ("ann", "ben"):
        assert run("key", "new", name)[0] == 0
    peer = ("new", "duel-of-the-forces", "--player", "ann", "--player", "ben", "--as", "ann")
    assert run(*peer, "-o", "p.msgpack")[0] == 0
    return tmp_path


def test_an_empty_name_names_no_file_to_read_or_write(games):
    """``""`` (an unset shell variable) was pathlib's ``.``: reading it was an internal error
    (a file object made of the folder), and ``new -o ""`` said "error:  exists"."""
    before = folder(games)
    for args in (
        ("show", ""),
        ("verify", ""),
        ("move", "", "--as", "ann", "play", "luke", "5"),
        ("apply", "g.msgpack", ""),
        ("new", "duel-of-the-forces", "--player", "a", "--player", "b", "-o", ""),
        ("view", "g.msgpack", "--as", "ann", "-o", ""),
    ):
        refused(*run(*args)[::2], "'': an empty name names no file", "[no-name]")
    assert folder(games) == before


def test_a_name_with_a_newline_or_an_escape_is_shown_on_one_line(games):
    """The one error line showed a file name's newline as it is: two lines, the second one
    that looked like the error's own."""
    rc, _, err = run("show", "a\nb\x1b[2J.msgpack")
    refused(rc, err, "a\\nb\\x1b[2J.msgpack: no such file")


def test_a_command_that_locks_a_named_pipe_refuses_it_at_once(games):
    """``move``, ``apply``, ``undo`` and ``hint`` opened the file they lock blocking: on a
    named pipe they waited for a writer forever."""
    os.mkfifo("pipe.msgpack")
    for args in (
        ("move", "pipe.msgpack", "--as", "ann", "play", "luke", "5"),
        ("undo", "pipe.msgpack", "--as", "ann"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "boardstate.cli", *args],
            capture_output=True,
            text=True,
            timeout=60,
        )
        refused(done.returncode, done.stderr, "not a regular file (a device or a pipe)")


def test_a_name_too_long_is_one_line(games):
    """pathlib's ``is_file`` and ``exists`` raise ENAMETOOLONG: an internal error in ``play``,
    ``games`` and every output that checks it exists (``new -o``)."""
    refused(*run("play", LONG, "--player", "a", "--bot", "b")[::2], "no installed module")
    refused(*run("games", LONG)[::2], "cannot read (File name too long)")
    new = ("new", "duel-of-the-forces", "--player", "a", "--player", "b", "-o", LONG)
    refused(*run(*new)[::2], "cannot write (File name too long)")


@pytest.mark.parametrize("rounds", ["9" * 5000, "\u0665", "10"])
def test_a_number_option_of_the_example_module_is_one_ascii_digit(games, rounds):
    """5000 digits were an internal error (int() refuses to read them), and '٥' (an
    Arabic-Indic five) was taken for 5."""
    new = ("new", "rock-paper-scissors", "--player", "a", "--player", "b", "-o", "r.msgpack")
    refused(*run(*new, "--option", f"rounds={rounds}")[::2], "[bad-option]")
    assert not os.path.exists("r.msgpack")


def test_an_epic_duels_square_of_5000_digits_is_not_a_square(games):
    """The row was read with int(): 5000 digits were an internal error."""
    new = ("new", "epic-duels", "--player", "ann", "--player", "ben", "--seed", "s1")
    assert run(*new, "-o", "e.msgpack")[0] == 0
    rc, out, _ = run("legal", "e.msgpack", "--as", "ann")
    place = next(line for line in out.splitlines() if line.startswith("place "))
    before = folder(games)
    row = "9" * 5000
    refused(
        *run("move", "e.msgpack", "--as", "ann", *place.split()[:2], f"i{row}")[::2], "[bad-square]"
    )
    assert folder(games) == before


def test_an_invitation_is_nobodys_copy(games):
    """``move`` on an invitation was an internal error (its viewer is none), and ``undo`` took
    its maker's join out of it."""
    before = folder(games)
    for args in (
        ("move", "p-invite.msgpack", "--as", "ann", "play", "luke", "5"),
        ("undo", "p-invite.msgpack", "--as", "ann"),
    ):
        refused(*run(*args)[::2], "p-invite.msgpack is an invitation, nobody's copy")
    refused(*run("undo", "p.msgpack", "--as", "ben")[::2], "p.msgpack is ann's copy, not ben's")
    assert folder(games) == before


def test_two_outputs_of_one_command_are_never_one_file(games):
    """``new --invite`` naming the copy wrote the player's own copy as the invitation to mail;
    ``join --reply`` was written over the invitation it read, over a game file without
    --force, or over the copy it made."""
    before = folder(games)
    peer = ("new", "duel-of-the-forces", "--player", "ann", "--player", "ben", "--as", "ann")
    refused(
        *run(*peer, "-o", "n.msgpack", "--invite", "./n.msgpack")[::2],
        "two outputs would be one file",
    )
    join = ("join", "p-invite.msgpack", "--as", "ben", "-o", "b.msgpack", "--reply")
    refused(*run(*join, "p-invite.msgpack")[::2], "the file the command reads")
    refused(*run(*join, "g.msgpack")[::2], "g.msgpack is a game file; not replacing it")
    refused(*run(*join, "b.msgpack")[::2], "b.msgpack: two outputs would be one file")
    assert folder(games) == before
    assert run(*join, "reply.msgpack")[0] == 0  # (a name of its own: joined)


def test_selfplay_refuses_a_set_up_the_game_refuses_before_playing(games):
    """Seven players of a 2-4 player game (or a wrong option) made each game "not end", exit
    3 and "please report it", with nothing on stderr."""
    sp = ("selfplay", "duel-of-the-forces", "-n", "2", "--seed", "s", "-o", "runs")
    refused(*run(*sp, "--players", "7")[::2], "takes 2–4 players, got 7")
    refused(*run(*sp, "--option", "edition=x")[::2], "option edition: 'x'")
    assert not os.path.exists("runs")


def _a_judged_game() -> None:
    """A judge's key and a store (s.sqlite) holding one Jedi Duel game."""
    assert run("key", "new", "judge")[0] == 0
    made = ("judge", "new", "jedi-duel", "--player", "ann=a@x.example")
    made += ("--player", "ben=b@x.example", "--store", "s.sqlite", "--key", "judge")
    assert run(*made)[0] == 0


def test_a_judge_folder_that_is_a_file_is_one_line(games):
    """``judge run --inbox dir:FILE`` (or the outbox, or a Maildir) was an internal error:
    the folder transport's mkdir raised FileExistsError."""
    _a_judged_game()
    judge = ("judge", "run", "--store", "s.sqlite", "--key", "judge", "--once")
    before = (games / "g.msgpack").read_bytes()
    for boxes in (
        ("--inbox", "dir:g.msgpack", "--outbox", "dir:out"),
        ("--inbox", "maildir:g.msgpack", "--outbox", "dir:out"),
        ("--inbox", "dir:in", "--outbox", "dir:g.msgpack"),
    ):
        refused(*run(*judge, *boxes)[::2], "g.msgpack: cannot use it as a folder", "[transport]")
    assert (games / "g.msgpack").read_bytes() == before


@pytest.mark.parametrize("poll", ["-1", "nan", "inf"])
def test_judge_run_polls_a_number_of_seconds(games, poll):
    """A negative --poll was an internal error once the first pass was done (time.sleep
    refuses it), and NaN too; infinity overflowed it."""
    _a_judged_game()
    judge = ("judge", "run", "--store", "s.sqlite", "--key", "judge", "--inbox", "dir:in")
    rc, _, err = run(*judge, "--outbox", "dir:out", "--poll", poll)
    refused(rc, err, "Invalid value for '--poll'", "is not a number of seconds from 0 to 86400")


@pytest.mark.parametrize("wait", ["soon", "-1", "nan"])
def test_a_lock_wait_that_is_no_number_of_seconds_is_one_line(games, monkeypatch, wait):
    """``BOARDSTATE_LOCK_WAIT=soon`` was an internal error in every command that locks the
    game (float()'s ValueError); NaN waited forever for a writer that held the lock."""
    monkeypatch.setenv("BOARDSTATE_LOCK_WAIT", wait)
    before = folder(games)
    rc, _, err = run("move", "g.msgpack", "--as", "ann", "play", "luke", "5")
    refused(
        rc, err, f"BOARDSTATE_LOCK_WAIT={wait!r} is not a number of seconds", "[bad-environment]"
    )
    assert folder(games) == before


def test_export_to_standard_output_writes_the_move_file_alone(games):
    """``export -o -`` wrote "wrote -: records ..." into the move file on standard output: the
    other player's ``apply -`` refused it as corrupt."""
    (games / "h.msgpack").write_bytes((games / "g.msgpack").read_bytes())
    assert run("move", "g.msgpack", "--as", "ann", "play", "luke", "5", "-o", "m.msgpack")[0] == 0
    result = CliRunner().invoke(cli, ["export", "g.msgpack", "--after", "0", "-o", "-"])
    assert result.exit_code == 0 and result.stderr == "wrote -: records 1-1 (1)\n"
    applied = CliRunner().invoke(cli, ["apply", "h.msgpack", "-"], input=result.stdout_bytes)
    assert applied.exit_code == 0 and "record 1: ann commits" in applied.stdout, applied.stderr


def test_play_resumed_under_another_name_never_replaces_a_file(games):
    """``play GAME -o OTHER`` wrote the game over OTHER whatever it was (another game, any
    file), without --force: -o of play always wants a new name."""
    assert run("new", "jedi-duel", "--player", "a", "--player", "b", "-o", "other.msgpack")[0] == 0
    before = folder(games)
    for other in ("other.msgpack", "./g.msgpack"):
        result = CliRunner().invoke(cli, ["play", "g.msgpack", "-o", other], input="quit\n")
        refused(result.exit_code, result.stderr, f"{other} exists; not overwriting it")
    assert folder(games) == before


def test_play_refuses_a_copy_without_the_seed_before_any_prompt(games):
    """A view, a peer or hosted player's copy or an invitation holds no seed: ``play`` prompted
    its seats (another player's too) and failed only at the first command typed."""
    ann = ("view", "g.msgpack", "--as", "ann", "-o", "ann-view.msgpack")
    assert run(*ann)[0] == 0
    before = folder(games)
    for copy in ("ann-view.msgpack", "p.msgpack", "p-invite.msgpack"):
        result = CliRunner().invoke(cli, ["play", copy], input="quit\n")
        refused(result.exit_code, result.stderr, f"{copy} holds no seed")
        assert result.stdout == ""
    assert folder(games) == before


@pytest.mark.parametrize(
    "args",
    [
        ("new", "rock-paper-scissors", "--player", "a", "--player", "b", "-o", "-"),
        ("view", "g.msgpack", "--as", "ann", "-o", "-"),
        ("show", "g.msgpack", "--svg", "-o", "-"),
        ("replay", "g.msgpack", "--html", "-"),
        ("board", "epic-duels", "kamino", "-o", "-"),
    ],
)
def test_dash_is_no_file_where_a_command_does_not_write_standard_output(games, args):
    """``-`` is standard output for move, apply and export; elsewhere it was written as a file
    named ``-`` (exit 0, nothing on standard output)."""
    before = folder(games)
    refused(*run(*args)[::2], "'-' is standard output, which this command does not write")
    assert folder(games) == before


@pytest.mark.parametrize(
    "args",
    [
        ("selfplay", "rock-paper-scissors", "-n", "1", "--seed", "s", "-o", "/proc/no/games"),
        ("selfplay", "rock-paper-scissors", "-n", "1", "--seed", "s", "--archive", "/proc/no.tar"),
        ("verify", "g.msgpack", "p.msgpack", "--manifest", "/proc/no.jsonl"),
    ],
)
def test_a_run_whose_folder_or_manifest_cannot_be_written_is_one_line(games, args):
    """A folder, archive or manifest that cannot be made (a read-only folder; here /proc, for
    root too) was an internal error (PermissionError, FileNotFoundError)."""
    before = folder(games)
    refused(*run(*args)[::2], "cannot write", "/proc/no")
    assert folder(games) == before


def test_verify_and_games_name_a_folder_they_cannot_list(games, monkeypatch):
    """``verify DIR`` walked past a subfolder it could not list (no permission): its games
    went unchecked, and the run said every file verified (exit 0); ``games -r`` left it out
    of the list without a word.  (The folder is made unlistable here by os.scandir, as no
    permission is not one for root.)"""
    os.makedirs("club/closed")
    os.makedirs("club/open")
    for where in ("club/closed", "club/open"):
        (games / where / "g.msgpack").write_bytes((games / "g.msgpack").read_bytes())
    listed = os.scandir

    def scandir(path="."):
        if os.fspath(path).endswith("closed"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return listed(path)

    monkeypatch.setattr(os, "scandir", scandir)
    rc, out, _ = run("verify", "club")
    assert rc == 2 and "UNREADABLE: club/closed" in out and "1 ok, 1 unreadable" in out, out
    rc, out, _ = run("games", "-r", "club")
    assert rc == 0 and "club/closed  cannot be read" in out and "club/open/g.msgpack" in out, out


def test_play_from_a_pipe_prompts_for_a_sealed_choice_without_warnings(games):
    """A sealed choice read from standard input that is not a terminal went through getpass,
    which printed Python's GetPassWarning (its source line included) on every prompt."""
    done = subprocess.run(
        [sys.executable, "-m", "boardstate.cli", "play", "rock-paper-scissors"]
        + ["--player", "a", "--player", "b", "--bot", "b", "-o", "r.msgpack"],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "a (sealed: not shown)> stopped" in done.stdout


@pytest.mark.parametrize("bot", ["zed", ":easy"])
def test_play_names_a_bot_that_is_no_player(games, bot):
    """``--bot zed`` said "--bot  is not a player of the game": a name without a level was
    read as the level, and the name as empty."""
    args = ("play", "rock-paper-scissors", "--player", "a", "--player", "b", "--bot", bot)
    name = bot.partition(":")[0]
    refused(*run(*args)[::2], f"--bot {bot}: {name!r} is not a player of the game (players: a, b)")


@pytest.mark.parametrize(
    "command, said",
    [
        ("show g.msgpack >&-", "standard output: cannot write (standard output is closed)"),
        ("move g.msgpack --as ann play luke 5 -o - >&-", "standard output: cannot write"),
        ("apply g.msgpack - <&-", "<stdin>: empty file"),
    ],
)
def test_a_standard_stream_the_process_was_started_without_is_one_line(games, command, said):
    """Started with standard output or input closed (``>&-``, ``<&-``), Python has no
    sys.stdout or sys.stdin: every command was an internal error (AttributeError); the move
    file written to a closed output went nowhere, and the game is not changed."""
    before = folder(games)
    done = subprocess.run(
        f"exec {shlex.quote(sys.executable)} -m boardstate.cli {command}",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    refused(done.returncode, done.stderr, said)
    assert folder(games) == before


SHIPPED_DECK = os.path.join(
    os.path.dirname(__file__), "..", "modules", "duel_of_the_forces", "cards.toml"
)


@pytest.mark.parametrize(
    "points, said",
    [
        ("9" * 5000, "not valid TOML (Exceeds the limit"),  # (tomllib's ValueError)
        ("[" * 3000 + "]" * 3000, "not valid TOML (maximum recursion depth exceeded)"),
        ("10.5", "villain[0].points: must be a whole number, got 10.5"),
        ("true", "villain[0].points: must be a whole number, got True"),
    ],
)
def test_a_deck_file_says_what_is_wrong_with_a_number(games, points, said):
    """A data file's integer of 5000 digits or arrays nested 3000 deep were internal errors
    (what tomllib raises besides TOMLDecodeError), and Duel of the Forces took ``points =
    10.5`` for 10 and ``true`` for 1: the game played other cards than its file says."""
    with open(SHIPPED_DECK, encoding="utf-8") as f:
        text = f.read().replace("points = 10", f"points = {points}", 1)
    (games / "deck.toml").write_text(text, encoding="utf-8")
    new = ("new", "duel-of-the-forces", "--player", "a", "--player", "b", "-o", "d.msgpack")
    refused(*run(*new, "--option", "deck=deck.toml")[::2], said, "[bad-deck]")
    assert not os.path.exists("d.msgpack")


def _read_until(stream, text: str, seconds: float = 60) -> str:
    """What ``stream`` (a child's unbuffered stdout) says up to ``text`` (a prompt waits for input
    without a newline)."""
    said, ends = b"", time.monotonic() + seconds
    while text.encode() not in said:
        ready, _, _ = select.select([stream], [], [], max(0.0, ends - time.monotonic()))
        chunk = os.read(stream.fileno(), 4096) if ready else b""
        assert chunk, f"no {text!r} in {said!r}"
        said += chunk
    return said.decode()


def test_play_never_saves_over_a_record_another_command_added(games):
    """``move`` into the file ``play`` was playing (a hot-seat game also played by mail, a
    second terminal): play's next save wrote its own game over the file, and the move was
    lost.  Now the save checks the file is the one play read or wrote, under its lock."""
    child = subprocess.Popen(
        [sys.executable, "-u", "-m", "boardstate.cli", "play", "g.msgpack"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        _read_until(child.stdout, "  ben  Han Solo")  # (the table: play read and saved the file)
        assert (
            run("move", "g.msgpack", "--as", "ben", "play", "han", "3", "-o", "m.msgpack")[0] == 0
        )
        _, err = child.communicate(b"play luke 5\n\nquit\n", timeout=60)
    finally:
        child.kill()
    refused(child.returncode, err.decode(), "g.msgpack was changed by another command")
    rc, out, _ = run("show", "g.msgpack")
    assert rc == 0 and "Sealed choices: ben committed" in out, out


@pytest.mark.parametrize(
    "args",
    [
        ("new", "duel-of-the-forces", "--player", "a", "--player", "b", "-o", "o.msgpack"),
        ("selfplay", "duel-of-the-forces", "-n", "1", "--seed", "s", "-o", "runs"),
        ("judge", "new", "duel-of-the-forces", "--player", "a=a@x.example", "--player", "b=b@x")
        + ("--key", "ann", "--store", "s.sqlite"),
    ],
)
def test_an_option_given_twice_is_refused(games, args):
    """``--option edition=parlett-original --option edition=ravensburger-2015`` made a
    Ravensburger game without a word (the last one won); judge new read options its own way."""
    before = folder(games)
    twice = ("--option", "edition=parlett-original", "--option", "edition=ravensburger-2015")
    refused(*run(*args, *twice)[::2], "option 'edition' is given twice", "[bad-option]")
    assert folder(games) == before


@pytest.mark.parametrize(
    "make, said",
    [
        (lambda path: os.mkdir(path), "not a regular file, so not a public key"),
        (lambda path: path.write_bytes(b"\xff\xfe"), "not a public key (not text)"),
        (lambda path: path.write_bytes(b"0" * 5000), "over 4096 bytes, not a public key"),
    ],
    ids=["folder", "not-text", "too-large"],
)
def test_key_show_of_a_file_that_is_no_key_is_one_line(games, make, said):
    """A folder or a file not UTF-8 named ``NAME.pub`` was an internal error (IsADirectoryError,
    UnicodeDecodeError), and a key file was read whole whatever its size."""
    make(games / "keys" / "zed.pub")
    refused(*run("key", "show", "zed")[::2], said, "[bad-key]")


def test_a_named_pipe_among_the_keys_is_never_waited_for(games):
    """A peer copy's move looks for its player's key among the keys folder's ``*.pub`` and
    then reads ``NAME.key``: a named pipe there (or a .pub not UTF-8) hung every move, waiting
    for a writer (or was an internal error)."""
    assert run("join", "p-invite.msgpack", "--as", "ben", "-o", "b.msgpack", "--reply", "r")[0] == 0
    assert run("apply", "p.msgpack", "r", "-o", "r2")[0] == 0  # (the deal: ann may act)
    (games / "q.msgpack").write_bytes((games / "p.msgpack").read_bytes())
    os.mkfifo(games / "keys" / "aaa.pub")
    (games / "keys" / "abb.pub").write_bytes(b"\xff")
    move = [sys.executable, "-m", "boardstate.cli", "move", "--as", "ann"]
    played = ["play", "luke", "5", "-o", "m.msgpack"]
    how = {"capture_output": True, "text": True, "timeout": 60}
    done = subprocess.run([*move, "p.msgpack", *played], **how)
    assert done.returncode == 0, done.stderr
    os.remove(games / "keys" / "ann.key")
    os.mkfifo(games / "keys" / "ann.key")
    done = subprocess.run([*move, "q.msgpack", *played[:3], "-o", "n.msgpack"], **how)
    refused(done.returncode, done.stderr, "ann.key: not a regular file, so not a private key")


@pytest.mark.parametrize(
    "args",
    [
        ("verify", "runs", "--resume", "runs/manifest.jsonl"),
        ("selfplay", "rock-paper-scissors", "-n", "2", "--seed", "s", "-o", "runs")
        + ("--resume", "runs/manifest.jsonl"),
    ],
)
def test_a_manifest_that_is_a_named_pipe_is_refused_at_once(games, args):
    """``--resume`` of a named pipe waited for a writer for ever (and of /dev/zero read for
    ever): a manifest is read only from a regular file."""
    assert run("selfplay", "rock-paper-scissors", "-n", "1", "--seed", "s", "-o", "runs")[0] == 0
    os.remove("runs/manifest.jsonl")
    os.mkfifo("runs/manifest.jsonl")
    done = subprocess.run(
        [sys.executable, "-m", "boardstate.cli", *args], capture_output=True, text=True, timeout=60
    )
    refused(
        done.returncode, done.stderr, "runs/manifest.jsonl: not a regular file, so not a manifest"
    )
