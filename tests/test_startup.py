"""Start-up (issue 29): a command that draws no board imports neither shapely nor numpy, nor
the shared deck's group arithmetic on a game in another mode, nor ``importlib.metadata`` for a
game this distribution ships, nor the engine's parts a command on an open game does not use
(loaded on first use); the integer line table that spares shapely is the table shapely makes,
on every board, and a shipped game found directly is the one its entry point names."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

import boardstate as bs
from boardstate._registry import _shipped, installed_modules
from boardstate.geometry import SquareGrid
from boardstate.geometry._lines import build_line_table, walk_line_table
from boardstate.modules.epic_duels.boards import BOARDS

HEAVY = (
    "shapely",
    "numpy",
    "rbcl",
    "importlib.metadata",
    "importlib.resources",
    "zipfile",
    "cattrs",
    "tarfile",
)
"""Never imported by a command on an open game of a shipped module that draws nothing (cattrs:
once the game's built-in data files were parsed, as making the game here did: ``_datacache``)."""

UNUSED = (
    "boardstate._audit",
    "boardstate._gamelist",
    "boardstate._html",
    "boardstate._mailed",
    "boardstate._migrate",
    "boardstate._pictures",
    "boardstate._seating",
    "boardstate._simulate",
    "boardstate.batch",
    "boardstate.trust._signed",
    "boardstate.trust.hosted",
    "boardstate.trust.peer",
    "boardstate.trust.shared_deck",
)
"""The façade's and the trust plugs' modules that a command on an open game does not use: each
is imported when a name of it is first asked for."""

RUN_COMMANDS = """
import json, sys
from boardstate.cli import cli
for argv in json.loads(sys.argv[1]):
    try:
        cli.main(argv, prog_name="boardstate")
    except SystemExit as stop:
        assert not stop.code, (argv, stop.code)
from boardstate.modules.epic_duels import _space
heavy = %r
print(json.dumps(sorted(sys.modules)))
print(json.dumps({"modules": sorted(m for m in sys.modules if m.startswith(heavy)),
                  "sight tables": _space._tables.cache_info().currsize}))
"""


@pytest.mark.parametrize("scene", sorted(BOARDS))
def test_the_walked_line_table_is_shapelys(scene):
    board = BOARDS[scene]
    assert type(board.grid) is SquareGrid
    assert board.line_table == build_line_table(board.grid) == walk_line_table(board.grid)


def _epic_game_at_an_attack(tmp_path):
    """An Epic Duels game where the seat to act may attack: listing its commands asks which
    enemies each character sees, so the line table is wanted."""
    module = bs.get_module("epic-duels")
    game = bs.Game.new(module, ["ann", "ben"], {}, seed=b"startup", created="2026-01-01")
    pick = random.Random(29)
    while True:
        seat = game.to_act()[0]
        legal = game.legal(seat)
        if any(c.startswith("attack") for c in legal) and game.seq > 40:
            break
        game.play(seat, pick.choice(legal))
    bs.save_game(game, tmp_path / "epic.msgpack")
    return game.players[seat], next(c for c in legal if c.startswith("attack"))


@pytest.mark.slow
def test_commands_that_draw_no_board_import_no_geometry_library(tmp_path):
    player, attack = _epic_game_at_an_attack(tmp_path)
    epic = str(tmp_path / "epic.msgpack")
    commands = [
        ["legal", epic, "--as", player],
        ["show", epic],
        ["log", epic],
        ["verify", epic],
        ["move", epic, "--as", player, attack, "-o", str(tmp_path / "to-other.msgpack")],
    ]
    warm = [sys.executable, "-m", "boardstate.cli", "legal", epic, "--as", player]
    subprocess.run(warm, check=True, capture_output=True)  # (its data files parsed and kept)
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            RUN_COMMANDS % (tuple(h + p for h in HEAVY for p in ("", ".")),),
            json.dumps(commands),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["sight tables"] == 1  # (the commands did ask for lines of sight)
    assert found["modules"] == []
    unused = json.loads(done.stdout.splitlines()[-2])
    assert sorted(set(unused) & set(UNUSED)) == []


def test_every_public_name_is_there_when_asked_for():
    """The names loaded on first use are the façade's names all the same: each of ``__all__``
    (and ``dir``) resolves, to the object of the module that defines it."""
    from boardstate import _audit, _mailed
    from boardstate.trust import PLUGS, HostedTrust, PeerTrust, SharedDeckTrust

    assert set(bs.__all__) <= set(dir(bs))
    assert all(getattr(bs, name) is not None for name in bs.__all__)
    assert bs.audit is _audit.audit and bs.read_mailed is _mailed.read_mailed
    assert (PLUGS["hosted"], PLUGS["peer"]) == (HostedTrust, PeerTrust)
    assert PLUGS["shared-deck"] is SharedDeckTrust
    assert sorted(PLUGS) == ["hosted", "open", "peer", "shared-deck"]
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        bs.no_such_name  # noqa: B018


@pytest.mark.parametrize(
    "package",
    [f"boardstate.modules.{m}" for m in ("duel_of_the_forces", "epic_duels", "jedi_duel")],
)
def test_a_shipped_data_file_reads_as_importlib_resources_reads_it(package):
    """The data files are read through the package's loader (``importlib.resources`` brings
    ``zipfile`` to every command): the same text, line ends and all."""
    from importlib.resources import files

    from boardstate._datafile import _package_text

    root = files(package)
    names = sorted(str(p.relative_to(root)) for p in root.rglob("*.toml"))  # type: ignore[attr-defined]
    assert names
    for name in names:
        assert _package_text(package, name) == root.joinpath(name).read_text(encoding="utf-8")


@pytest.mark.parametrize("module_id", sorted(installed_modules()))
def test_a_shipped_game_found_directly_is_the_one_its_entry_point_names(module_id):
    shipped = _shipped(module_id)
    if module_id in ("duel-of-the-forces", "epic-duels", "jedi-duel"):
        assert shipped is installed_modules()[module_id]
    else:  # (a plugin of another distribution: found by its entry point only)
        assert shipped is None


@pytest.mark.parametrize("module_id", ["no-such-game", "../epic-duels", "Epic-Duels", "__init__"])
def test_anything_else_is_no_shipped_game(module_id):
    assert _shipped(module_id) is None
    with pytest.raises(bs.OptionError, match="no installed module"):
        bs.get_module(module_id)
