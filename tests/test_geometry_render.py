"""Drawings (SVG, text) and the ``boardstate board`` command."""

import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from boardstate.cli import cli
from boardstate.geometry import Piece, parse_board, render_svg, render_text
from boardstate.modules.epic_duels.boards import BOARDS
from geometry_helpers import at

SVG = "{http://www.w3.org/2000/svg}"
GEONOSIS = BOARDS["geonosis"]

GEONOSIS_TEXT = """\
Geonosis Arena
    0 1 2 3 4 5 6 7 8 9
  0 . . . . . . L . . H
  1 . . . . . # # # A .
  2 J . . . . . W # . .
  3 . . E 1 . . . . 2 .
  4 V B . M . . . . . Y
  5 . . . . . . . . . #
  6 # # # # D . # # # #
"""


def test_text_rendering_shows_map_pieces_and_legend():
    pieces = {at(3, 8): Piece("obi-wan", "light"), at(3, 3): Piece("sbd-1", "dark")}
    text = render_text(GEONOSIS, pieces)
    assert text.startswith(GEONOSIS_TEXT)
    assert "  #  obstacle: blocks movement and sight\n" in text
    assert "  O  obi-wan at (8, 3)\n" in text
    assert text.endswith("  1  sbd-1 (dark) at (3, 3)\n  2  obi-wan (light) at (8, 3)\n")


def test_text_piece_marks_avoid_the_maps_own_symbols():
    board = parse_board(
        'map = "1."\ntitle = "T"\n[terrain.rubble]\nsymbol = "1"\n[terrain.floor]\nsymbol = "."\n',
        "t",
    )
    text = render_text(board, {(1, 0): Piece("x")})
    assert text.splitlines()[2] == "  0 1 2"
    assert text.endswith("  2  x at (1, 0)\n")


def test_svg_is_well_formed_with_one_square_per_cell():
    root = ET.fromstring(render_svg(GEONOSIS))
    assert root.tag == f"{SVG}svg"
    squares = root.findall(f".//{SVG}g[@class='cells']/{SVG}rect")
    assert len(squares) == 70
    classes = [square.get("class") for square in squares]
    assert classes.count("terrain obstacle") == 13
    assert squares[5 + 10].get("class") == "terrain obstacle"  # (col 5, row 1), the fallen pillar
    assert squares[0].get("fill") == "#e9d9b6"
    labels = [t.text for t in root.findall(f".//{SVG}g[@class='named-squares']/{SVG}text")]
    assert sorted(labels) == sorted(GEONOSIS.named_squares)


def test_svg_draws_pieces_with_escaped_labels_and_side_colours():
    pieces = {at(3, 8): Piece("<Obi & Wan>", "light"), at(3, 3): Piece("droid", "dark")}
    svg = render_svg(GEONOSIS, pieces, cell_size=40)
    assert "&lt;Obi &amp; Wan&gt;" in svg
    root = ET.fromstring(svg)
    drawn = root.findall(f".//{SVG}g[@class='pieces']/{SVG}g")
    assert [g.find(f"{SVG}text").text for g in drawn] == ["<Obi & Wan>", "droid"]
    circles = [g.find(f"{SVG}circle") for g in drawn]
    assert circles[0].get("cx") == str(20 + 8 * 40 + 20)
    assert circles[0].get("fill") != circles[1].get("fill")
    assert root.get("width") == str(10 * 40 + 40)


@pytest.mark.parametrize("scene", list(BOARDS))
def test_every_scene_renders(scene):
    assert ET.fromstring(render_svg(BOARDS[scene])).find(f"{SVG}title").text == BOARDS[scene].title
    assert render_text(BOARDS[scene]).splitlines()[0] == BOARDS[scene].title


# -- the command ------------------------------------------------------------------------------------


def run(*args):
    """``boardstate board ARGS`` as the installed command runs it (the group turns usage errors into one line)."""
    return CliRunner().invoke(cli, ["board", *args])


def test_board_without_scene_lists_the_scenes():
    result = run("epic-duels")
    assert result.exit_code == 0
    assert result.output.splitlines() == [
        "geonosis        Geonosis Arena",
        "kamino          Kamino Platform",
        "throne-room     Emperor's Throne Room",
        "carbon-chamber  Carbon-Freezing Chamber",
    ]


def test_board_prints_text_by_default():
    result = run("epic-duels", "kamino")
    assert result.exit_code == 0
    assert result.output == render_text(BOARDS["kamino"])


def test_board_writes_svg_chosen_by_file_suffix(tmp_path):
    target = tmp_path / "throne.svg"
    result = run("epic-duels", "throne-room", "-o", str(target))
    assert result.exit_code == 0
    assert target.read_text(encoding="utf-8") == render_svg(BOARDS["throne-room"])


def test_board_format_option_wins_over_the_suffix(tmp_path):
    target = tmp_path / "board.txt"
    assert run("epic-duels", "geonosis", "--format", "svg", "-o", str(target)).exit_code == 0
    assert target.read_text(encoding="utf-8").startswith("<svg")
    result = run("epic-duels", "geonosis", "--format", "svg")
    assert result.exit_code == 0 and result.output.startswith("<svg")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("chess",), "error: no boards for module 'chess' (installed: "),
        (
            ("epic-duels", "hoth"),
            "error: module 'epic-duels' has no board 'hoth' (known: geonosis, kamino, throne-room, carbon-chamber)",
        ),
        (
            ("epic-duels", "kamino", "-o", "board.png"),
            "error: cannot tell the format of 'board.png'",
        ),
        (("epic-duels", "kamino", "--format", "pdf"), "usage: Invalid value for '--format'"),
    ],
)
def test_board_usage_errors_exit_2_with_one_line(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert len(result.output.splitlines()) == 1 and result.output.startswith("boardstate: ")


def test_board_unwritable_output_is_a_one_line_error(tmp_path):
    result = run("epic-duels", "kamino", "-o", str(tmp_path / "missing" / "board.svg"))
    assert result.exit_code == 2
    assert result.output.startswith("boardstate: error: ") and ": cannot write (" in result.output
    assert result.output.rstrip().endswith("[unwritable]")
    assert len(result.output.splitlines()) == 1
