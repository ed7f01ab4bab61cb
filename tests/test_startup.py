"""Start-up (issue 29): a command that draws no board imports neither shapely nor numpy, nor
the shared deck's group arithmetic on a game in another mode, nor ``importlib.metadata`` for a
game this distribution ships, nor the engine's parts a command on an open game does not use
(loaded on first use); the integer line table that spares shapely is the table shapely makes,
on every board, and a shipped game found directly is the one its entry point names."""

from __future__ import annotations

import ast
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import boardstate as bs
from boardstate._registry import _shipped, installed_modules
from boardstate.geometry import BoardCatalog, SquareGrid
from boardstate.geometry._lines import build_line_table, walk_line_table
from boardstate.modules import epic_duels
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
    "cairosvg",
    "pkgutil",
    "tempfile",
    "shutil",
    "json",
    "base64",
    "binascii",
    "pickle",
)
"""Never imported by a command on an open game of a shipped module that draws nothing (cattrs:
once the game's built-in data files were parsed, as making the game here did: ``_datacache``;
``pickle``: the cache reads with the C pickler it wraps)."""

GAMES = ("duel_of_the_forces", "epic_duels", "jedi_duel")

UNUSED = (
    "boardstate._audit",
    "boardstate._deadline",
    "boardstate._determinize",
    "boardstate._gamelist",
    "boardstate._html",
    "boardstate._hosted",
    "boardstate._mailed",
    "boardstate._migrate",
    "boardstate._peer",
    "boardstate._pictures",
    "boardstate._seating",
    "boardstate._simulate",
    "boardstate.batch",
    "boardstate.keys",
    "boardstate.trust._signed",
    "boardstate.trust.hosted",
    "boardstate.trust.peer",
    "boardstate.trust.shared_deck",
)
"""The façade's and the trust plugs' modules that a command on an open game does not use: each
is imported when a name of it is first asked for (``_peer`` and ``_hosted``: by a signed
game's plug; ``_deadline``: by a hosted game's header; ``keys``: by a signed game, the cache
folder is ``_folders``'s; ``_determinize``: by a bot)."""

PARSING = ("boardstate.modules.epic_duels._deck_files", "boardstate.modules.epic_duels._templates")
"""Epic Duels' deck file and templates: their classes are for parsing a deck file (or varying a
deck), never made by a command whose data files are kept parsed."""

DRAWING = (
    "xml",
    "tomllib",
    "boardstate.rules._drawing",
    "boardstate.geometry._render",
    "boardstate.geometry._style",
    "boardstate.geometry._text",
    *(f"boardstate.modules.{game}.{part}" for game in GAMES for part in ("_render", "_svg")),
    "boardstate.modules.epic_duels._hand_svg",
)
"""The pictures' code, loaded when a command shows a table (``show``), never by ``legal``,
``log``, ``verify`` or ``move``; ``tomllib``: the data files and boards were kept parsed."""

SVG = (
    "xml",
    "boardstate.geometry._render",
    "boardstate.geometry._style",
    *(f"boardstate.modules.{game}._svg" for game in GAMES),
    "boardstate.modules.epic_duels._hand_svg",
)
"""The SVG pictures' code (``xml.etree``, the styles), never loaded by a text ``show``."""

RUN_COMMANDS = """
import ast, sys
from boardstate.cli import cli
seen = []
for phase in ast.literal_eval(sys.argv[1]):
    for argv in phase:
        try:
            cli.main(argv, prog_name="boardstate")
        except SystemExit as stop:
            assert not stop.code, (argv, stop.code)
    seen.append(sorted(sys.modules))
from boardstate.modules.epic_duels import _space
print(repr({"modules": seen, "sight tables": _space._tables.cache_info().currsize}))
"""
"""Runs the commands in one process (which imports no ``json`` itself: nor may they)."""


@pytest.fixture(scope="module", autouse=True)
def _bytecode_written():
    """The programs below count a start's collections as installed, its bytecode written: a
    source edited since its bytecode was (a checkout being worked in) or never written
    (``PYTHONDONTWRITEBYTECODE``) is compiled by each of them, which collects of its own."""
    import compileall
    import importlib

    for package in ("boardstate", "boardstate.cli", "boardstate.modules"):
        folder = Path(importlib.import_module(package).__file__).parent
        compileall.compile_dir(folder, quiet=1)


@pytest.mark.parametrize("scene", sorted(BOARDS))
def test_the_walked_line_table_is_shapelys(scene):
    board = BOARDS[scene]
    assert type(board.grid) is SquareGrid
    assert board.line_table == build_line_table(board.grid) == walk_line_table(board.grid)


@pytest.mark.parametrize("scene", sorted(BOARDS))
def test_a_board_kept_parsed_is_the_board_its_file_reads(scene):
    """The boards are kept parsed (``BoardCatalog.in_package``), as read from their files."""
    folder = Path(epic_duels.__file__).parent
    kept = BoardCatalog.in_package("boardstate.modules.epic_duels", tuple(BOARDS))
    assert kept[scene] == BoardCatalog.in_folder(folder, tuple(BOARDS))[scene] == BOARDS[scene]


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


def _card_game(tmp_path, module_id):
    """A game of ``module_id`` half-way through, and the seat to act's name and a command."""
    module = bs.get_module(module_id)
    game = bs.Game.new(module, ["ann", "ben"], {}, seed=b"startup", created="2026-01-01")
    pick = random.Random(29)
    for _ in range(30):
        seat = game.to_act()[0]
        game.play(seat, pick.choice(game.legal(seat)))
    seat = game.to_act()[0]
    bs.save_game(game, tmp_path / f"{module_id}.msgpack")
    return game.players[seat], pick.choice(game.legal(seat))


def _quiet_commands(path, player, command, out):
    return [
        ["legal", path, "--as", player],
        ["log", path],
        ["verify", path],
        ["move", path, "--as", player, command, "-o", out],
    ]


@pytest.mark.slow
def test_commands_import_only_what_they_use(tmp_path):
    """``legal``, ``log``, ``verify`` and ``move`` on a game of each shipped module, then
    ``show`` and ``show --svg`` (an Epic Duels game where a character may attack: listing its
    commands asks which enemies each character sees, so the line table is built): no geometry
    library, no signed-mode plug, no parser of a kept data file; no picture code before ``show``,
    no SVG code before ``show --svg``."""
    player, attack = _epic_game_at_an_attack(tmp_path)
    epic = str(tmp_path / "epic.msgpack")
    quiet = _quiet_commands(epic, player, attack, str(tmp_path / "to-other.msgpack"))
    texts, pictures = [["show", epic]], [["show", epic, "--svg", "-o", str(tmp_path / "epic.svg")]]
    for module_id in ("duel-of-the-forces", "jedi-duel"):
        path = str(tmp_path / f"{module_id}.msgpack")
        player, command = _card_game(tmp_path, module_id)
        quiet += _quiet_commands(path, player, command, str(tmp_path / f"{module_id}-move.msgpack"))
        texts.append(["show", path])
        pictures.append(["show", path, "--svg", "-o", str(tmp_path / f"{module_id}.svg")])
    warm = [sys.executable, "-m", "boardstate.cli", "legal", epic, "--as", player]
    subprocess.run(warm, check=True, capture_output=True)  # (its data files parsed and kept)
    for module_id in ("duel-of-the-forces", "jedi-duel"):  # (their built-in files too, which
        # tell a game of them from one to check; this process parsed them for the cache folder
        # the tests were collected with: conftest.py)
        log = str(tmp_path / f"{module_id}.msgpack")
        subprocess.run(
            [sys.executable, "-m", "boardstate.cli", "log", log], check=True, capture_output=True
        )
    done = subprocess.run(
        [sys.executable, "-c", RUN_COMMANDS, json.dumps([quiet, texts, pictures])],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    found = ast.literal_eval(done.stdout.splitlines()[-1])
    assert found["sight tables"] == 1  # (the commands did ask for lines of sight)
    after_quiet, after_texts, after_shows = (set(m) for m in found["modules"])
    heavy = tuple(h + p for h in HEAVY for p in ("", "."))
    assert sorted(m for m in after_shows if m.startswith(heavy)) == []
    assert sorted(after_shows & set(UNUSED)) == []
    assert sorted(after_shows & set(PARSING)) == []
    assert "boardstate.cli.batch" not in after_shows  # (verify's options: cli/_runs)
    drawing = tuple(h + p for h in DRAWING for p in ("", "."))
    assert sorted(m for m in after_quiet if m.startswith(drawing)) == []
    svg = tuple(h + p for h in SVG for p in ("", "."))
    assert sorted(m for m in after_texts if m.startswith(svg)) == []  # (a text show)
    assert "boardstate.geometry._text" in after_texts
    assert {"boardstate.rules._drawing", "boardstate.geometry._render"} <= after_shows


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


FACADES = ("boardstate", "boardstate.rules", "boardstate.geometry", "boardstate.trust")

FIRST_USE = {
    "boardstate": {"verify": "_referee", "Referee": "_referee", "BOT_LEVELS": "_deadline"},
    "boardstate.rules": {
        "determinize": "boardstate._determinize",
        "label": "_drawing",
        "kept": "boardstate._datacache",
    },
}
"""Names each façade imports when first asked for, and the module that defines them."""

STAR_IMPORTS = """
import importlib, sys
for package, lazy in FIRST_USE.items():
    found = {}
    exec(f"from {package} import *", found)
    for name, where in lazy.items():
        module = importlib.import_module(where if "." in where else f"{package}.{where}")
        assert found[name] is getattr(module, name), (package, name)
for package in FACADES:
    found = {}
    exec(f"from {package} import *", found)
    names = sys.modules[package].__all__
    print(package, len(names), sorted(set(names) - set(found)))
"""


def test_a_star_import_of_each_facade_gives_every_name_of_its_all():
    """``from boardstate.rules import *`` (and of each façade) in a new process gives each name
    of its ``__all__``, the names loaded on first use the defining module's very objects."""
    given = f"FIRST_USE = {FIRST_USE!r}\nFACADES = {FACADES!r}\n"
    done = subprocess.run(
        [sys.executable, "-c", given + STAR_IMPORTS], capture_output=True, text=True
    )
    lines = [line.split(" ", 2) for line in done.stdout.splitlines()]
    assert [(p, missing) for p, _n, missing in lines] == [(p, "[]") for p in FACADES], done.stderr
    assert all(int(count) > 5 for _p, count, _missing in lines)


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


def test_patterns_only_a_board_file_a_deadline_or_an_armored_move_needs_wait_for_them():
    """Importing the command line and the shipped games compiles none of them (``re`` compiles
    and keeps them at their first use): a command on a board kept parsed reads no board file;
    ``apply`` of a move file reads no mail's header."""
    script = (
        "import re, sys\n"
        "asked, compile = [], re.compile\n"
        "re.compile = lambda pattern, flags=0: asked.append(pattern) or compile(pattern, flags)\n"
        "import boardstate as bs\n"
        "import boardstate.cli\n"
        "for game in ('duel-of-the-forces', 'epic-duels', 'jedi-duel'):\n"
        "    bs.get_module(game)\n"
        "from boardstate import _armor, _deadline, _mailed\n"
        "from boardstate.geometry import _loader\n"
        "lazy = {_armor._QUOTED, _deadline._DURATION, _loader._HEADER, _loader._MAP_START,\n"
        "        _loader._TOML_POSITION, _mailed._FIELD}\n"
        "lazy = {getattr(pattern, 'pattern', pattern) for pattern in lazy}\n"
        "print(len(lazy), sorted(lazy.intersection(asked)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.split(maxsplit=1) == ["6", "[]\n"], done.stderr


@pytest.mark.parametrize("collecting", [True, False])
def test_the_collector_is_as_it_was_once_the_engine_and_a_game_are_imported(collecting):
    """The cyclic collector is paused while the engine and a game are imported (_gcpause),
    then runs again, or stays off if the program had turned it off."""
    script = (
        "import gc\n"
        f"gc.enable() if {collecting} else gc.disable()\n"
        "import boardstate as bs\n"
        "after_engine = gc.isenabled()\n"
        "bs.get_module('jedi-duel')\n"
        "print(after_engine, gc.isenabled())\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.split() == [str(collecting)] * 2, done.stderr


def test_the_command_line_is_imported_without_collections():
    """attrs and typing are imported inside the engine's pause, and what the command line
    imports is frozen once made (the process keeps it to its end): importing it starts no
    collection (the old code ran about 30, walking the imports again and again)."""
    script = (
        "import gc\n"
        "starts = []\n"
        "gc.callbacks.append(lambda phase, info: phase == 'start' and starts.append(phase))\n"
        "import boardstate.cli\n"
        "print(len(starts), gc.get_freeze_count() > 0, gc.isenabled())\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    starts, frozen, collecting = done.stdout.split()
    assert (starts, frozen, collecting) == ("0", "True", "True"), done.stderr


def test_importing_the_engine_and_a_game_walks_nothing_and_keeps_nothing():
    """What the imports make is put with the old objects, not walked by a collection the
    pause put off (the old code's first run after each pause walked it all, 2-3 ms); nothing
    is frozen for a program that freezes nothing, and a cycle left before is still freed by a
    full collection."""
    script = (
        "import gc, weakref\n"
        "class Cycle: pass\n"
        "cycle = Cycle(); cycle.me = cycle; gone = weakref.ref(cycle); del cycle\n"
        "starts = []\n"
        "gc.callbacks.append(lambda phase, info: phase == 'start' and starts.append(phase))\n"
        "import boardstate as bs\n"
        "bs.get_module('epic-duels')\n"
        "print(len(starts), gc.get_freeze_count(), gone() is not None, gc.collect() > 0, gone())\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.split() == ["0", "0", "True", "True", "None"], done.stderr


def test_a_lookup_that_imports_nothing_freezes_nothing():
    """In a program that froze its objects (the command line, a judge), a pause that imports
    no module puts nothing away: a file naming an unknown game, looked up again and again,
    never freezes the garbage alive then (the old code froze it for good each time)."""
    script = (
        "import gc, weakref\n"
        "import boardstate.cli\n"
        "import boardstate as bs\n"
        "def look():\n"
        "    try:\n"
        "        bs.get_module('no-such-game')\n"
        "    except bs.OptionError:\n"
        "        pass\n"
        "look()\n"  # (the first lookup reads the installed games: those imports are kept)
        "class Cycle: pass\n"
        "cycle = Cycle(); cycle.me = cycle; gone = weakref.ref(cycle); del cycle\n"
        "frozen = gc.get_freeze_count()\n"
        "look(); look()\n"
        "print(gc.get_freeze_count() == frozen, gc.collect() > 0, gone() is None)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.split() == ["True", "True", "True"], done.stderr


def test_an_engine_that_fails_to_import_leaves_the_collector_on():
    """A program that tries boardstate and goes on without it keeps its collector."""
    script = (
        "import gc, sys\n"
        "sys.modules['boardstate._words'] = None  # (an import that fails midway)\n"
        "try:\n"
        "    import boardstate\n"
        "except ImportError:\n"
        "    print(gc.isenabled())\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.split() == ["True"], done.stderr


def test_a_pause_of_the_collector_ends_on_an_error():
    import gc

    from boardstate._gcpause import paused

    with pytest.raises(ImportError), paused():
        assert not gc.isenabled()
        raise ImportError("a game that does not import")
    assert gc.isenabled()


NOT_ON_A_READ = ("pathlib", "urllib.parse", "ipaddress")
"""Imported by no command that only reads (``pathlib`` brings the other two: 3 ms a start)."""

RUN_RECORDING = """
import ast, sys
gone = ast.literal_eval(sys.argv[2])
for name in [m for m in sys.modules if m.split(".")[0] in {g.split(".")[0] for g in gone}]:
    del sys.modules[name]  # (an editable install's finder imported them at start)
asked = []

class Recorder:
    def find_spec(self, name, path=None, target=None):
        asked.append(name)

sys.meta_path.insert(0, Recorder())
from boardstate.cli import cli
for argv in ast.literal_eval(sys.argv[1]):
    try:
        cli.main(argv, prog_name="boardstate")
    except SystemExit as stop:
        assert not stop.code, (argv, stop.code)
print("\\nasked:", repr(sorted(set(asked) & set(gone))))
"""
"""Runs the commands in one process and names which of ``gone`` they imported."""


def _imported(commands: list, gone: tuple, folder) -> list[str]:
    """Which of ``gone`` the ``commands`` imported, run in one process (``RUN_RECORDING``)."""
    done = subprocess.run(
        [sys.executable, "-c", RUN_RECORDING, json.dumps(commands), repr(gone)],
        capture_output=True,
        text=True,
        cwd=folder,
    )
    assert done.returncode == 0, done.stderr
    return ast.literal_eval(done.stdout.rsplit("\nasked:", 1)[1])


def _a_game_of_each_module(tmp_path) -> dict[str, tuple[str, str, str]]:
    """Module id -> a game of it half-way through (Epic Duels' where a character may attack):
    its file, the seat to act's name and a command it may give."""
    player, attack = _epic_game_at_an_attack(tmp_path)
    games = {"epic-duels": (str(tmp_path / "epic.msgpack"), player, attack)}
    for module_id in ("duel-of-the-forces", "jedi-duel"):
        player, command = _card_game(tmp_path, module_id)
        games[module_id] = (str(tmp_path / f"{module_id}.msgpack"), player, command)
    return games


@pytest.mark.slow
def test_a_command_that_only_reads_imports_no_pathlib(tmp_path):
    """``legal``, ``show``, ``log``, ``verify``, ``inspect`` and ``show --svg`` on a game of
    each shipped module: the cache folder, the file's name and the boards' files are strings
    (a ``move`` or ``apply`` writes, and ``locked`` gives a ``Path``)."""
    games = _a_game_of_each_module(tmp_path)
    commands = []
    for module_id, (path, player, command) in games.items():
        moves = str(tmp_path / f"{module_id}-move.msgpack")
        subprocess.run(
            [sys.executable, "-m", "boardstate.cli", "move", path, "--as", player, command]
            + ["-o", moves],
            check=True,
            capture_output=True,
        )  # (the move file for inspect; the saved game and the data files kept)
        commands += [
            ["legal", path, "--as", player],
            ["show", path],
            ["log", path],
            ["verify", path],
            ["inspect", moves],
            ["show", path, "--svg"],
        ]
    assert _imported(commands, NOT_ON_A_READ, tmp_path) == []


@pytest.mark.slow
def test_move_and_apply_import_no_pathlib(tmp_path):
    """``move`` with its move file named and without (its default name made with strings),
    and ``apply``, on copies of a game of each shipped module: the lock and the output's check
    give strings to the command line (``locked`` and ``check_output`` with ``as_path=False``;
    their ``Path`` brought ``pathlib``, 3 ms)."""
    games = _a_game_of_each_module(tmp_path)
    commands = []
    for module_id, (path, player, command) in games.items():
        copy, plain, moves = (
            str(tmp_path / f"{module_id}-copy.msgpack"),
            str(tmp_path / f"{module_id}-plain.msgpack"),
            str(tmp_path / f"{module_id}-move"),
        )
        shutil.copy(path, copy)
        shutil.copy(path, plain)
        commands += [
            ["move", path, "--as", player, command, "-o", moves],
            ["apply", copy, moves],
            ["move", plain, "--as", player, command],
        ]
    assert _imported(commands, NOT_ON_A_READ, tmp_path) == []


@pytest.mark.slow
def test_a_command_that_runs_no_rules_again_imports_no_referee(tmp_path):
    """``legal``, ``show``, ``log`` and ``show --svg`` on an open game of each shipped module read
    the game back without its rules: neither the referee's module nor the checked copies'
    (``verify``, ``move`` and ``apply`` import them when they ask)."""
    player, _attack = _epic_game_at_an_attack(tmp_path)
    paths = {str(tmp_path / "epic.msgpack"): player}
    for module_id in ("duel-of-the-forces", "jedi-duel"):
        paths[str(tmp_path / f"{module_id}.msgpack")] = _card_game(tmp_path, module_id)[0]
    commands = [
        argv
        for path, player in paths.items()
        for argv in (
            ["legal", path, "--as", player],
            ["show", path],
            ["log", path],
            ["show", path, "--svg"],
        )
    ]
    warm = [sys.executable, "-m", "boardstate.cli", *commands[0]]
    subprocess.run(warm, check=True, capture_output=True)  # (its data files parsed and kept)
    assert _imported(commands, ("boardstate._referee", "boardstate._checked"), tmp_path) == []


@pytest.mark.parametrize(
    "name",
    [
        "game.msgpack",
        "./game.msgpack",
        "a//b/./c/",
        "/",
        "//",
        "///x//",
        "//x/y",
        ".",
        "./",
        "a/../b",
        "../x",
        "x/.",
        ".hidden",
        "a/./.",
        "/./a",
    ],
)
def test_a_files_name_is_the_name_pathlib_gives_it(name):
    """Messages name a file as ``str(Path(name))`` did, without ``pathlib``."""
    from boardstate._fileformat import path_name

    assert path_name(name) == str(Path(name))
    assert path_name(Path(name)) == str(Path(name))


def test_an_empty_name_is_no_name():
    """pathlib's ``.`` for ``''`` (an unset shell variable) read and wrote the folder: an empty
    name names no file (tests/test_cli_sweep.py, every command)."""
    from boardstate._fileformat import path_name

    with pytest.raises(bs.GameFileError, match="an empty name names no file"):
        path_name("")


@pytest.mark.parametrize("scene", sorted(BOARDS))
def test_the_rules_tables_of_a_board_are_its_geometry(scene, tmp_path, monkeypatch):
    """Epic Duels' tables (``_space.board_tables``: the squares touching each square, the
    squares a straight shot crosses) answer as the board does, pair by pair; and the tables
    kept between commands (``_space._tables``) are the tables made, read back."""
    from boardstate.modules.epic_duels._space import _tables, board_tables

    board = BOARDS[scene]
    near, shots = board_tables(scene)
    monkeypatch.setenv("BOARDSTATE_CACHE", str(tmp_path))
    _tables.cache_clear()
    _tables(scene)  # (kept now: one file in this test's folder; the board was read above)
    assert len(list((tmp_path / "data").iterdir())) == 1
    _tables.cache_clear()
    assert _tables(scene) == (near, shots)  # (read back)
    _tables.cache_clear()
    for i, a in enumerate(board.cells):
        assert near[i] == board.mask(board.neighbours(a, diagonal=True))
        for j, b in enumerate(board.cells):
            straight = i != j and board.is_straight_line(a, b, diagonal=True)
            assert shots[i][j] == (board.line_table.between[i][j] if straight else -1)


END_OF_COMMAND = """
import atexit, sys, threading, time
atexit.register(lambda: print("exit handler ran", file=sys.stderr))
if sys.argv[1] == "thread":
    threading.Thread(target=lambda: (time.sleep(0.2), print("thread finished"))).start()
sys.argv = ["boardstate", *sys.argv[2:]]
from boardstate.cli.app import main
main()
"""


@pytest.mark.parametrize("thread", ["thread", "alone"])
def test_a_command_ends_as_sys_exit_would_without_the_teardown(tmp_path, thread):
    """The command line's ``main`` ends the process itself (``app._end``, without the
    interpreter's teardown): the exit handlers run once, every line is written and the exit
    status is the command's (0, and 2 for a usage error); another thread still running is
    waited for, as ever."""
    for argv, status in ((["--version"], 0), (["show"], 2)):
        done = subprocess.run(
            [sys.executable, "-c", END_OF_COMMAND, thread, *argv],
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )
        assert done.returncode == status, done.stderr
        assert done.stderr.endswith("exit handler ran\n") and done.stderr.count("handler") == 1
        assert ("thread finished" in done.stdout) == (thread == "thread")
        assert ("version" in done.stdout) == (status == 0)


def test_a_module_id_is_told_as_its_pattern_tells_it():
    """``_registry._is_an_id`` (no pattern compiled at every start) says what
    ``[a-z][a-z0-9]*(-[a-z0-9]+)*`` says, on every string of up to five of these characters."""
    import itertools
    import re

    from boardstate._registry import _is_an_id

    for length in range(6):
        for chars in itertools.product("az09-A_é\n ", repeat=length):
            text = "".join(chars)
            assert _is_an_id(text) == bool(re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", text))
