"""The name ``move`` gives its move file without ``-o`` (and a hosted game's request): the one
``pathlib`` gave (``Path(FILE).with_name(Path(FILE).stem + "-NNNN-PLAYER.msgpack")``), made
with strings since issue 29 so that the command imports no ``pathlib`` (3 ms)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import boardstate as bs
from boardstate.cli import cli
from boardstate.cli._common import beside

NAMES = {
    "game.msgpack": "game-0001-ann.msgpack",
    "./game.msgpack": "game-0001-ann.msgpack",
    "a//b/./game.msgpack": "a/b/game-0001-ann.msgpack",
    "games/my.game.v2.msgpack": "games/my.game.v2-0001-ann.msgpack",
    "/srv/games/g.msgpack": "/srv/games/g-0001-ann.msgpack",
    "//g.msgpack": "//g-0001-ann.msgpack",
    "///g.msgpack": "/g-0001-ann.msgpack",
    "../g": "../g-0001-ann.msgpack",
    "x/../g.tar.gz": "x/../g.tar-0001-ann.msgpack",
    "g.msgpack/": "g-0001-ann.msgpack",
    ".hidden": ".hidden-0001-ann.msgpack",
    "dir/.a.b": "dir/.a-0001-ann.msgpack",
    "a.": "a.-0001-ann.msgpack",
    "..x": ".-0001-ann.msgpack",
    "a/..": "a/..-0001-ann.msgpack",
}
"""A game file's name -> its first move file's, as ``pathlib`` named it (Python 3.11)."""


@pytest.mark.parametrize("file", sorted(NAMES))
def test_a_move_files_default_name_is_the_one_pathlib_gave(file):
    tail = "-0001-ann.msgpack"
    assert beside(file, tail) == NAMES[file]  # (the names stay these on every Python)
    if sys.version_info < (3, 14):  # (3.14's pathlib takes other stems of names with dots)
        assert beside(file, tail) == str(Path(file).with_name(Path(file).stem + tail))


@pytest.mark.parametrize("file", [".", "/", "//", ""])
def test_a_file_with_no_name_is_refused_as_pathlib_refused_it(file):
    with pytest.raises(ValueError, match="has an empty name"):
        beside(file, "-0001-ann.msgpack")


def test_a_name_with_a_slash_from_before_the_name_grammar_is_refused_as_pathlib_refused_it():
    with pytest.raises(ValueError, match=r"^Invalid name 'g-0001-a/b.msgpack'$"):
        beside("games/g.msgpack", "-0001-a/b.msgpack")


def _first_move(tmp_path, file: str, *extra) -> tuple[int, str, str]:
    """``move FILE`` without ``-o`` from ``tmp_path`` on a new game saved at ``file``."""
    game = bs.Game.new(
        bs.get_module("duel-of-the-forces"), ["ann", "ben"], {}, seed=b"names", created="2026-01-01"
    )
    where = tmp_path / file if not os.path.isabs(file) else Path(file)
    where.parent.mkdir(parents=True, exist_ok=True)
    bs.save_game(game, where)
    seat = game.to_act()[0]
    command = game.legal(seat)[0]
    result = CliRunner().invoke(
        cli, ["move", file, "--as", game.players[seat], *command.split(), *extra]
    )
    return result.exit_code, result.stdout, result.stderr, game.players[seat]


@pytest.mark.parametrize(
    "file, written",
    [
        ("games/my.game.v2.msgpack", "games/my.game.v2-{seq}-{who}.msgpack"),
        ("./games//.hidden", "games/.hidden-{seq}-{who}.msgpack"),
        ("ABS/g.msgpack", "ABS/g-{seq}-{who}.msgpack"),
    ],
)
def test_move_without_o_writes_its_move_file_where_it_always_did(
    tmp_path, monkeypatch, file, written
):
    monkeypatch.chdir(tmp_path)
    file = file.replace("ABS", str(tmp_path / "abs"))
    rc, out, err, who = _first_move(tmp_path, file)
    name = written.replace("ABS", str(tmp_path / "abs")).format(seq="0001", who=who)
    assert rc == 0, err
    assert f"wrote {name} (" in out and (tmp_path / name).is_file()


def test_move_without_o_never_writes_over_a_move_file_of_that_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for who in ("ann", "ben"):  # (whoever acts first)
        (tmp_path / f"g.v1-0001-{who}.txt").write_text("mine")
    rc, out, err, who = _first_move(tmp_path, "g.v1.msgpack", "--text")
    assert rc == 2 and err == (
        f"boardstate: error: g.v1-0001-{who}.txt exists (a move file from before?): "
        "name another with -o/--out\n"
    )
    assert (tmp_path / f"g.v1-0001-{who}.txt").read_text() == "mine"
