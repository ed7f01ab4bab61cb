"""``boardstate games``: a player's list of games (issue 26, item 6).

One folder holds an open game in progress, a finished one, both players' copies of a peer game,
the move files (one as text) and the invitation they made, a key, a note, an empty file, a
truncated game file and a game file cut inside its header; a subfolder holds one more game.
A hosted game is played through a judge (SQLite store, folders for mail) far enough for a
player's copy to send a request.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import boardstate as bs
from boardstate.cli import cli

DAY = 86400
# the game files of the table's folder (not its subfolder)
LISTED = {
    "open.msgpack",
    "done.msgpack",
    "alice.msgpack",
    "bob.msgpack",
    "broken.msgpack",
    "cut.msgpack",
}
KEYS = {
    "file",
    "error",
    "deadline",
    "game_id",
    "module",
    "module_name",
    "edition",
    "trust",
    "copy",
    "players",
    "you",
    "whose",
    "to_act",
    "turn",
    "waits",
    "result",
    "since",
    "age",
    "age_seconds",
}


def run(*args, keys: Path | None = None):
    env = {"BOARDSTATE_KEYS": str(keys)} if keys is not None else None
    return CliRunner().invoke(cli, [str(a) for a in args], env=env, catch_exceptions=False)


def ok(*args, keys: Path | None = None) -> str:
    result = run(*args, keys=keys)
    assert result.exit_code == 0, result.output
    return result.stdout


def listing(*args) -> dict[str, dict]:
    """``games --json``: the rows by file name, in the order listed."""
    rows = json.loads(ok("games", "--json", *args))
    return {Path(row["file"]).name: row for row in rows}


def aged(path: Path, days: float) -> float:
    mtime = time.time() - days * DAY
    os.utime(path, (mtime, mtime))
    return mtime


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("games")
    keys, g = root / "keys", root / "g"
    g.mkdir()
    for player in ("alice", "bob"):
        ok("key", "new", player, keys=keys)
    duel = ["duel-of-the-forces", "--player", "alice", "--player", "bob"]
    ok("new", *duel, "--seed", "list-1", "-o", g / "open.msgpack")
    ok("move", g / "open.msgpack", "--as", "alice", "play", "luke", "5")  # (open-0001-alice)
    ok(
        "new",
        *duel,
        "--seed",
        "list-2",
        "--option",
        "edition=parlett-original",
        "-o",
        g / "done.msgpack",
    )
    ok("move", g / "done.msgpack", "--as", "alice", "resign")
    ok("new", *duel, "--as", "alice", "-o", g / "alice.msgpack", keys=keys)
    ok(
        "join",
        g / "alice-invite.msgpack",
        "--as",
        "bob",
        "-o",
        g / "bob.msgpack",
        "--reply",
        g / "to-alice.msgpack",
        keys=keys,
    )
    ok("apply", g / "alice.msgpack", g / "to-alice.msgpack", "-o", g / "to-bob.msgpack", keys=keys)
    shutil.copy(keys / "alice.pub", g / "alice.pub")
    shutil.copy(keys / "alice.key", g / "alice.key")
    (g / "notes.txt").write_text("bob owes me a pint\n")
    ok("export", g / "open.msgpack", "--after", "0", "--text", "-o", g / "again.txt")
    (g / "empty.msgpack").write_bytes(b"")
    whole = (g / "open.msgpack").read_bytes()
    (g / "broken.msgpack").write_bytes(whole[:-7])
    (g / "cut.msgpack").write_bytes(whole[:40])
    (g / "sub").mkdir()
    shutil.copy(g / "done.msgpack", g / "sub" / "deep.msgpack")
    for name, days in [
        ("done.msgpack", 10),
        ("open.msgpack", 5),
        ("sub/deep.msgpack", 4),
        ("bob.msgpack", 3),
        ("broken.msgpack", 2),
        ("cut.msgpack", 1.5),
        ("alice.msgpack", 1),
    ]:
        aged(g / name, days)
    return g


def test_the_game_files_are_listed_and_the_rest_left_out(table):
    rows = listing(table)
    # move files (one as text), the invitation (alice's copy of its game is here), the key, the
    # note, an empty file and the subfolder are left out
    assert {"again.txt", "open-0001-alice.msgpack", "to-bob.msgpack", "alice.key"} <= {
        p.name for p in table.iterdir()
    }
    assert set(rows) == LISTED
    for row in rows.values():
        assert set(row) == KEYS


def test_each_game_says_what_it_is_whose_move_it_is_and_what_it_waits_for(table):
    rows = listing(table)
    open_game = rows["open.msgpack"]
    assert open_game["module"] == "duel-of-the-forces"
    assert open_game["module_name"] == "Duel of the Forces"
    assert open_game["edition"] == "ravensburger-2015"
    assert (open_game["trust"], open_game["copy"]) == ("open", "full")
    assert open_game["players"] == ["alice", "bob"]
    # an open game file has no viewer: seen from no seat, it names who is to act
    assert (open_game["you"], open_game["whose"], open_game["turn"]) == (None, None, "bob")
    assert open_game["to_act"] == ["bob"]
    assert open_game["waits"] == "waiting for bob to choose, sealed (alice committed)"
    assert open_game["result"] is None
    assert open_game["game_id"] == bs.load_game(table / "open.msgpack").header.game_id.hex()

    alice = rows["alice.msgpack"]
    assert (alice["trust"], alice["copy"], alice["you"]) == ("peer", "player", "alice")
    assert (alice["whose"], alice["turn"]) == ("yours", "yours")
    assert alice["waits"] == "waiting for alice, bob to choose, sealed"

    bob = rows["bob.msgpack"]  # (alice's share of the randomness has not reached bob's copy)
    assert (bob["you"], bob["whose"], bob["turn"]) == ("bob", "theirs", "theirs: alice")
    assert bob["waits"] == bs.load_game(table / "bob.msgpack").waiting_text()
    assert "alice to add their share of the randomness" in bob["waits"]


def test_a_finished_game_shows_its_result(table):
    done = listing(table)["done.msgpack"]
    assert done["edition"] == "parlett-original"
    assert (done["whose"], done["turn"], done["to_act"], done["waits"]) == (
        "nobody",
        "nobody",
        [],
        "",
    )
    assert done["result"] == "Game over (alice resigned). Scores: alice 0, bob 1. Winner: bob"


def test_a_game_file_that_cannot_be_read_is_a_row_with_its_reason(table):
    result = run("games", table)
    assert result.exit_code == 0
    rows = listing(table)
    broken, cut = rows["broken.msgpack"], rows["cut.msgpack"]
    assert broken["error"].startswith("truncated after record 0 (") and broken["error"].endswith(
        "[truncated]"
    )
    assert cut["error"] == "truncated inside the header [truncated]"
    assert broken["module"] is None and broken["players"] == [] and broken["whose"] is None
    lines = result.stdout.splitlines()
    assert f"{table / 'broken.msgpack'}  cannot be read: {broken['error']}" in lines


def test_yours_first_then_the_oldest_first(table):
    assert list(listing(table)) == [
        "alice.msgpack",  # yours
        "done.msgpack",  # 10 days
        "open.msgpack",  # 5 days
        "bob.msgpack",  # 3 days
        "broken.msgpack",  # 2 days
        "cut.msgpack",  # 1.5 days
    ]
    # --as names you in files without a viewer: bob's move in the open game is his
    rows = listing(table, "--as", "bob")
    assert list(rows)[:2] == ["open.msgpack", "alice.msgpack"]
    assert (rows["open.msgpack"]["you"], rows["open.msgpack"]["whose"]) == ("bob", "yours")
    assert rows["bob.msgpack"]["whose"] == "theirs"  # (a copy is seen from its own viewer)
    rows = listing(table, "--as", "alice")
    assert rows["open.msgpack"]["turn"] == "theirs: bob"


def test_since_when_as_a_local_time_and_an_age(table):
    done = listing(table)["done.msgpack"]
    mtime = (table / "done.msgpack").stat().st_mtime
    assert done["since"] == dt.datetime.fromtimestamp(mtime).astimezone().isoformat("T", "seconds")
    assert done["age"] == "10 days" and 10 * DAY <= done["age_seconds"] < 10 * DAY + 600
    text = ok("games", table)
    local = dt.datetime.fromtimestamp(mtime).astimezone().strftime("%Y-%m-%d %H:%M")
    assert f"    whose move: nobody; since {local} (10 days)" in text.splitlines()
    # the age in words, counted to the moment the list is made
    row = {Path(r.path).name: r for r in bs.list_games([table], now=mtime + 90)}["done.msgpack"]
    assert (row.age_seconds, row.age) == (90, "1 minute")
    for later, words in [
        (30, "under a minute"),
        (7300, "2 hours"),
        (DAY, "1 day"),
        (-50, "under a minute"),
    ]:
        row = {Path(r.path).name: r for r in bs.list_games([table], now=mtime + later)}[
            "done.msgpack"
        ]
        assert row.age == words


def test_the_text_names_the_file_the_game_and_the_players(table):
    lines = ok("games", table).splitlines()
    i = lines.index(
        f"{table / 'done.msgpack'}  duel-of-the-forces (parlett-original)  alice, bob  [open]"
    )
    assert lines[i + 2] == "    Game over (alice resigned). Scores: alice 0, bob 1. Winner: bob"
    i = lines.index(
        f"{table / 'alice.msgpack'}  duel-of-the-forces (ravensburger-2015)  alice, bob  [peer, alice's copy]"
    )
    assert lines[i + 1].startswith("    whose move: yours; since ")
    assert lines[i + 2] == "    waiting for alice, bob to choose, sealed"
    assert lines[0].startswith(str(table / "alice.msgpack"))
    i = lines.index(
        f"{table / 'open.msgpack'}  duel-of-the-forces (ravensburger-2015)  alice, bob  [open]"
    )
    assert lines[i + 1].startswith("    to act: bob; since ")


def test_subfolders_only_with_recursive_and_the_current_folder_by_default(table, monkeypatch):
    assert "deep.msgpack" not in listing(table)
    deep = listing(table, "--recursive")["deep.msgpack"]
    assert deep["file"] == str(table / "sub" / "deep.msgpack") and deep["result"].startswith(
        "Game over"
    )
    monkeypatch.chdir(table)
    rows = json.loads(ok("games", "--json"))
    assert {r["file"] for r in rows} == LISTED
    # a folder named twice (or inside another one listed recursively) lists its games once
    rows = json.loads(ok("games", "--json", "-r", ".", "sub"))
    files = [r["file"] for r in rows]
    assert files.count("sub/deep.msgpack") == 1 and len(files) == len(set(files)) == 7


def test_an_invitation_is_listed_when_no_copy_of_its_game_is(table, tmp_path):
    shutil.copy(table / "alice-invite.msgpack", tmp_path / "invite.msgpack")
    row = listing(tmp_path)["invite.msgpack"]
    assert (row["trust"], row["copy"], row["you"], row["whose"]) == (
        "peer",
        "invitation",
        None,
        None,
    )
    assert row["to_act"] == ["bob"] and row["waits"] == "waiting for bob to join"
    row = listing(tmp_path, "--as", "bob")["invite.msgpack"]
    assert (row["you"], row["whose"]) == ("bob", "yours")


def test_an_empty_folder(tmp_path):
    assert ok("games", tmp_path) == f"no game files in {tmp_path}\n"
    assert json.loads(ok("games", "--json", tmp_path)) == []


@pytest.mark.parametrize("bad", ["nowhere", "open.msgpack"])
def test_a_folder_that_does_not_exist_or_is_a_file_is_refused(table, bad):
    result = run("games", table, table / bad)
    assert result.exit_code == 2
    assert result.stdout == ""
    why = "no such folder" if bad == "nowhere" else "not a folder"
    assert result.stderr == f"boardstate: error: {table / bad}: {why} [no-folder]\n"


# ------------------------------------------------------------------ a hosted game, with a judge
def test_a_hosted_copy_waits_for_the_judge_while_its_request_is_unanswered(tmp_path):
    keys, h = tmp_path / "keys", tmp_path / "h"
    h.mkdir()
    for name in ("judge", "ann", "ben"):
        ok("key", "new", name, keys=keys)
    store = ["--store", tmp_path / "club.sqlite", "--key", "judge"]
    mail = [
        "--inbox",
        f"dir:{tmp_path / 'to-judge'}",
        "--outbox",
        f"dir:{tmp_path / 'from-judge'}",
        "--once",
    ]
    ok(
        "judge",
        "new",
        "jedi-duel",
        "--player",
        "ann=ann@club.example",
        "--player",
        "ben=ben@club.example",
        *store,
        keys=keys,
    )
    ok("judge", "run", *store, *mail, keys=keys)
    for p in ("ann", "ben"):
        (invite,) = (tmp_path / "from-judge" / f"{p}@club.example").glob("*-invite.msgpack")
        reply = tmp_path / "to-judge" / f"{p}@club.example--join.msgpack"
        ok("join", invite, "--as", p, "-o", h / f"{p}.msgpack", "--reply", reply, keys=keys)
    # a copy that has asked to join waits for the judge (the request went elsewhere)
    rows = listing(h)
    for p in ("ann", "ben"):
        assert (rows[f"{p}.msgpack"]["whose"], rows[f"{p}.msgpack"]["turn"]) == (
            "judge",
            "the judge's",
        )
        assert rows[f"{p}.msgpack"]["waits"] == f"waiting for the judge's answer to {p}'s request"
        assert (rows[f"{p}.msgpack"]["trust"], rows[f"{p}.msgpack"]["copy"]) == ("hosted", "player")
    ok("judge", "run", *store, *mail, keys=keys)
    for p in ("ann", "ben"):
        for answer in _answers(tmp_path, p):
            run("apply", h / f"{p}.msgpack", answer, keys=keys)  # (a stale one is refused)
    rows = listing(h)
    (first,) = [p for p in ("ann", "ben") if _answers(tmp_path, p)]  # (mailed: to act)
    other = "ben" if first == "ann" else "ann"
    assert rows[f"{first}.msgpack"]["whose"] == "yours"
    assert rows[f"{first}.msgpack"]["waits"].startswith(f"waiting for {first} to move: stance ")
    # (the judge mails a player when they must act: the other's copy has not heard yet)
    assert rows[f"{other}.msgpack"]["turn"] == "the judge's"
    assert list(rows)[0] == f"{first}.msgpack"
    # the move is a request for the judge, next to the copy: the copy waits for the answer
    copy = h / f"{first}.msgpack"
    legal = ok("legal", copy, "--as", first).splitlines()[0]
    ok("move", copy, "--as", first, *legal.split(), keys=keys)
    request = h / f"{first}-0003.request"
    assert request.exists()
    rows = listing(h)
    assert set(rows) == {"ann.msgpack", "ben.msgpack"}  # (the request is not a game)
    assert (rows[f"{first}.msgpack"]["whose"], rows[f"{first}.msgpack"]["turn"]) == (
        "judge",
        "the judge's",
    )
    assert rows[f"{other}.msgpack"]["whose"] == "judge"
    # the same, mailed as text
    request.unlink()
    assert listing(h)[f"{first}.msgpack"]["whose"] == "yours"
    ok("move", copy, "--as", first, *legal.split(), "--text", "-o", h / "request.txt", keys=keys)
    assert listing(h)[f"{first}.msgpack"]["whose"] == "judge"
    # answered: the judge mails the player who must act now, every record since their last
    # mail (a digest); their copy applies it, and the move is theirs
    shutil.copy(h / "request.txt", tmp_path / "to-judge" / f"{first}@club.example--move.txt")
    ok("judge", "run", *store, *mail, keys=keys)
    (digest,) = _answers(tmp_path, other)
    ok("apply", h / f"{other}.msgpack", digest, keys=keys)
    row = listing(h)[f"{other}.msgpack"]
    assert (row["whose"], row["turn"]) == ("yours", "yours")


def _answers(root: Path, player: str) -> list[Path]:
    """The move files the judge mailed ``player`` (``MODULE-GAMEID8-NAME-FIRST-LAST``), in
    the order of their records."""
    folder = root / "from-judge" / f"{player}@club.example"
    return sorted(folder.glob(f"*-{player}-[0-9][0-9][0-9][0-9]-[0-9][0-9][0-9][0-9].msgpack"))
