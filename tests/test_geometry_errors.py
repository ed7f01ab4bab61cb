"""One error family: every geometry error is a BoardstateError with a stable code, and
``boardstate board`` reports each in one line on stderr, exit 2, never a traceback."""

import ast
import builtins
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import boardstate.cli.board as board_cli
from boardstate import BoardstateError
from boardstate._errors import BoardError as CoreBoardError
from boardstate._errors import OffBoard as CoreOffBoard
from boardstate.cli import cli
from boardstate.geometry import (
    Board,
    BoardCatalog,
    BoardError,
    OffBoard,
    Piece,
    SquareGrid,
    Terrain,
    load_board,
    parse_board,
    render_text,
)
from geometry_helpers import small_board

GEOMETRY = Path(__file__).resolve().parent.parent / "boardstate" / "geometry"
BUILTIN_ERRORS = {
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
}


def test_the_geometry_names_are_the_engine_classes():
    assert BoardError is CoreBoardError and OffBoard is CoreOffBoard
    assert issubclass(BoardError, BoardstateError) and issubclass(OffBoard, BoardstateError)
    assert issubclass(OffBoard, ValueError) and not issubclass(OffBoard, KeyError)


# -- board files -------------------------------------------------------------------------------------


def test_a_board_file_error_carries_its_place_and_code():
    with pytest.raises(BoardError) as caught:
        parse_board('title = "x"\n[terrain.floor]\nsymbol = "."\n', "x", "memory")
    error = caught.value
    assert (error.code, error.path, error.line, error.column) == ("bad-board", "memory", 1, 1)
    assert (error.reason, str(error)) == ("missing key 'map'", "memory:1:1: missing key 'map'")


def test_a_reason_over_several_lines_is_reported_on_one():
    error = BoardError("first\n  second", path="f.toml", line=3, column=4)
    assert str(error) == "f.toml:3:4: first second"


def test_an_unreadable_board_file_is_a_bad_board(tmp_path):
    with pytest.raises(BoardError) as caught:
        load_board(tmp_path / "missing.toml")
    assert caught.value.code == "bad-board" and caught.value.path == str(tmp_path / "missing.toml")


def test_terrain_that_does_not_fill_the_grid_is_a_bad_board():
    floor = Terrain("floor", ".")
    with pytest.raises(
        BoardError, match=r"^<board>:1:1: board 'x': 5 terrain cells for a grid of 6$"
    ):
        Board(id="x", title="X", grid=SquareGrid(3, 2), terrain=(floor,) * 5)


# -- off-board queries -------------------------------------------------------------------------------

BOARD = small_board("...", ".#.")
OFF = (3, 0)


@pytest.mark.parametrize(
    "query",
    [
        lambda: BOARD.terrain_at(OFF),
        lambda: BOARD.mask([(0, 0), OFF]),
        lambda: BOARD.line_of_sight((0, 0), OFF),
        lambda: BOARD.line_of_sight(OFF, (0, 0)),
        lambda: BOARD.straight_line_of_sight((0, 0), OFF),
        lambda: BOARD.cells_between((0, 0), OFF),
        lambda: BOARD.reachable(OFF, 2),
        lambda: BOARD.reachable((0, 0), 2, friends=[OFF]),
        lambda: BOARD.path((0, 0), OFF),
        lambda: BOARD.empty_cells([OFF]),
        lambda: BOARD.grid.index((0, -1)),
        lambda: BOARD.grid.cell(6),
    ],
    ids=[
        "terrain_at",
        "mask",
        "sight-to",
        "sight-from",
        "straight-sight",
        "cells_between",
        "reachable",
        "reachable-friends",
        "path",
        "empty_cells",
        "grid.index",
        "grid.cell",
    ],
)
def test_an_off_board_cell_is_refused_as_off_board(query):
    with pytest.raises(OffBoard) as caught:
        query()
    assert caught.value.code == "off-board" and "off the 3x2" in caught.value.reason


def test_an_unknown_square_name_is_off_board_not_a_key_error():
    board = parse_board(
        'map = "A."\ntitle = "T"\nnamed_square_terrain = "floor"\n'
        '[terrain.floor]\nsymbol = "."\n[named_squares]\nA = "altar"\n',
        "t",
    )
    with pytest.raises(
        OffBoard, match=r"^board 't' has no square named 'throne' \(known: altar\) \[off-board\]$"
    ):
        board.square("throne")


def test_enterable_answers_rather_than_raises_off_the_board():
    assert not BOARD.enterable(OFF) and not BOARD.enterable((-1, 0))


def test_a_catalog_is_still_a_mapping_an_absent_id_is_a_key_error(tmp_path):
    with pytest.raises(KeyError):
        BoardCatalog.in_folder(tmp_path, ())["absent"]


# -- drawings ----------------------------------------------------------------------------------------


def test_more_pieces_than_text_marks_is_a_typed_error():
    board = small_board("." * 70)
    pieces = {(col, 0): Piece(str(col)) for col in range(70)}
    with pytest.raises(BoardstateError) as caught:
        render_text(board, pieces)
    assert caught.value.code == "too-many-pieces" and "at most" in caught.value.reason


def test_the_geometry_code_raises_no_bare_builtin_exception():
    """A built-in may only be re-raised (``raise``) or stay a Mapping's KeyError, or a module's
    ``__getattr__``'s AttributeError (the protocol: names loaded on first use); everything else
    is typed."""
    bare = []
    for source in sorted(GEOMETRY.glob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        protocol = {
            id(raised)
            for f in tree.body
            if isinstance(f, ast.FunctionDef) and f.name == "__getattr__"
            for raised in ast.walk(f)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and node.exc is not None and id(node) not in protocol:
                raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                if isinstance(raised, ast.Name) and raised.id in BUILTIN_ERRORS:
                    bare.append(f"{source.name}:{node.lineno}: {raised.id}")
    assert bare == []


# -- the command -------------------------------------------------------------------------------------


class _BoardsEntryPoint:
    """Stands in for an installed ``boardstate.boards`` entry point."""

    def __init__(self, load):
        self.load = load


@pytest.fixture
def broken_game(tmp_path, monkeypatch):
    """A module 'broken-game' whose only board file is not TOML; 'loud' fails to import; 'odd' is no mapping."""
    (tmp_path / "ruins.toml").write_text("map = [\n", encoding="utf-8")
    sets = {
        "broken-game": _BoardsEntryPoint(lambda: BoardCatalog.in_folder(tmp_path, ("ruins",))),
        "loud": _BoardsEntryPoint(lambda: 1 / 0),
        "odd": _BoardsEntryPoint(lambda: ["ruins"]),
    }
    monkeypatch.setattr(board_cli, "_board_sets", lambda: sets)
    return tmp_path / "ruins.toml"


def one_line_error(*args):
    result = CliRunner().invoke(cli, ["board", *args])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert len(result.output.splitlines()) == 1 and result.output.startswith("boardstate: error: ")
    return result.output


@pytest.mark.parametrize("args", [("broken-game", "ruins"), ("broken-game",)], ids=["draw", "list"])
def test_a_bad_board_file_is_one_line_with_its_place(broken_game, args):
    assert one_line_error(*args).startswith(f"boardstate: error: {broken_game}:2:1: invalid TOML")


@pytest.mark.parametrize("module", ["loud", "odd"])
def test_a_broken_boards_package_is_one_line(broken_game, module):
    assert one_line_error(module).rstrip().endswith("[broken-module]")


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("chess",), "unknown-module"),
        (("epic-duels", "hoth"), "unknown-board"),
    ],
)
def test_unknown_module_or_scene_is_one_line_on_stderr_exit_2(tmp_path, args, code):
    """Run as a user does, so stdout and stderr are seen apart."""
    proc = subprocess.run(
        [sys.executable, "-m", "boardstate.cli", "board", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("boardstate: error: ")
    assert proc.stderr.rstrip().endswith(f"[{code}]") and "Traceback" not in proc.stderr
