"""Drawings (SVG, text) and the ``boardstate board`` command."""

import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

import boardstate as bs
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
    tokens = [g.find(f"{SVG}*[@class='token']") for g in drawn]
    # sides apart without colour too: by default the second side by name (light) is a square
    assert [t.tag for t in tokens] == [f"{SVG}rect", f"{SVG}circle"]
    square = tokens[0]
    assert float(square.get("x")) + float(square.get("width")) / 2 == 20 + 8 * 40 + 20
    assert tokens[1].get("cx") == str(20 + 3 * 40 + 20)
    assert tokens[0].get("fill") != tokens[1].get("fill")
    assert root.get("width") == str(10 * 40 + 40)


def test_a_piece_may_be_smaller_carry_a_track_and_a_name_for_its_words():
    pieces = {
        at(3, 8): Piece("OWK", "light", "16/18", name="obi-wan", track=(16, 18)),
        at(3, 3): Piece("SBD1", "dark", name="sbd1", scale=0.75, track=(0, 3)),
    }
    root = ET.fromstring(render_svg(GEONOSIS, pieces, shapes={"light": "circle", "dark": "circle"}))
    groups = {
        g.find(f"{SVG}title").text: g for g in root.findall(f".//{SVG}g[@class='pieces']/{SVG}g")
    }
    main, minor = groups["obi-wan (light) at (8, 3): 16/18"], groups["sbd1 (dark) at (3, 3)"]
    assert main.find(f"{SVG}text[@class='label']").text == "OWK"
    assert "obi-wan (light) at (8, 3): 16/18" in root.find(f"{SVG}desc").text
    r_main = float(main.find(f"{SVG}*[@class='token']").get("r"))
    r_minor = float(minor.find(f"{SVG}*[@class='token']").get("r"))
    assert r_minor == pytest.approx(r_main * 0.75, abs=0.01)
    track = main.find(f"{SVG}g[@class='track']")
    whole, left = track.find(f"{SVG}rect"), track.find(f"{SVG}rect[@class='left']")
    assert float(left.get("width")) == pytest.approx(float(whole.get("width")) * 16 / 18, abs=0.01)
    empty = minor.find(f"{SVG}g[@class='track']")
    assert empty is not None and empty.find(f"{SVG}rect[@class='left']") is None
    with pytest.raises(ValueError):
        Piece("X", scale=0)


def test_named_squares_can_be_left_out():
    drawn = ET.fromstring(render_svg(GEONOSIS))
    names = [t.text for t in drawn.findall(f".//{SVG}g[@class='named-squares']/{SVG}text")]
    assert "obi-wan" in names and "Named squares:" in drawn.find(f"{SVG}desc").text
    bare = ET.fromstring(render_svg(GEONOSIS, named=False))
    assert not bare.findall(f".//{SVG}g[@class='named-squares']/{SVG}text")
    assert "Named squares" not in bare.find(f"{SVG}desc").text


@pytest.mark.parametrize("scene", list(BOARDS))
def test_every_scene_renders(scene):
    assert ET.fromstring(render_svg(BOARDS[scene])).find(f"{SVG}title").text == BOARDS[scene].title
    assert render_text(BOARDS[scene]).splitlines()[0] == BOARDS[scene].title


# -- reading the drawing without colour ---------------------------------------------------------


def _patterns(root) -> dict[str, str | None]:
    """Terrain name -> the design of its fill pattern (the ``<pattern>``'s class), None: plain."""
    designs = {p.get("id"): p.get("class") for p in root.iter(f"{SVG}pattern")}
    found = {}
    for rect in root.findall(f".//{SVG}g[@class='cells']/{SVG}rect"):
        name = rect.get("class").split(" ", 1)[1]
        fill = rect.get("fill")
        design = designs[fill[5:-1]] if fill.startswith("url(#") else None
        assert found.setdefault(name, design) == design  # every cell of a kind alike
    return found


@pytest.mark.parametrize("scene", list(BOARDS))
def test_every_terrain_kind_of_a_board_has_its_own_pattern(scene):
    found = _patterns(ET.fromstring(render_svg(BOARDS[scene])))
    assert set(found) == {t.name for t in BOARDS[scene].terrain}
    assert len(set(found.values())) == len(found), found  # no two kinds alike in greyscale
    assert found["floor"] is None and found["obstacle"] == "pattern-crosshatch"


def test_mist_and_water_never_look_alike():
    """Throne Room mist and Kamino water both block movement only, and their boards' colours are
    near in lightness: their patterns differ (dots, waves) wherever they are drawn."""
    mist = _patterns(ET.fromstring(render_svg(BOARDS["throne-room"])))["mist"]
    water = _patterns(ET.fromstring(render_svg(BOARDS["kamino"])))["water"]
    assert (mist, water) == ("pattern-dots", "pattern-waves")
    assert render_svg(BOARDS["kamino"]) == render_svg(BOARDS["kamino"])  # deterministic


def test_patterns_stay_apart_when_there_are_more_kinds_than_designs():
    symbols = "abcdefghijklmn"
    board = parse_board(
        f'map = "{symbols}"\ntitle = "T"\n'
        + "".join(f'[terrain.k{c}]\nsymbol = "{c}"\nblocks = ["movement"]\n' for c in symbols),
        "t",
    )
    root = ET.fromstring(render_svg(board))
    found = _patterns(root)
    assert "pattern-hatch" in found.values() and "pattern-symbol" in found.values()
    marked = [p for p in root.iter(f"{SVG}pattern") if p.get("class") == "pattern-symbol"]
    shown = [p.find(f"{SVG}text").text for p in marked]
    assert len(marked) > 1 and len(set(shown)) == len(shown)  # each its own map symbol
    others = [d for d in found.values() if d != "pattern-symbol"]
    assert len(set(others)) == len(others)


def test_patterns_and_shapes_can_be_chosen_and_are_checked():
    root = ET.fromstring(
        render_svg(
            GEONOSIS,
            {at(3, 8): Piece("a", "x")},
            patterns={"floor": "grid"},
            fills={"obstacle": "#000000"},
            shapes={"x": "hexagon"},
        )
    )
    assert _patterns(root) == {"floor": "pattern-grid", "obstacle": "pattern-crosshatch"}
    obstacle = root.find(f".//{SVG}pattern[@id='terrain-obstacle']")
    assert obstacle.find(f"{SVG}rect").get("fill") == "#000000"
    assert obstacle.find(f"{SVG}path").get("stroke") == "#f2f2f2"  # light marks on black
    assert root.find(f".//{SVG}g[@class='pieces']/{SVG}g/{SVG}polygon").get("class") == "token"
    for bad in ({"patterns": {"floor": "tartan"}}, {"shapes": {"x": "blob"}}):
        with pytest.raises(bs.BoardstateError) as error:
            render_svg(GEONOSIS, {at(3, 8): Piece("a", "x")}, **bad)
        assert error.value.code == "bad-option"


def test_svg_says_what_it_shows_in_words():
    pieces = {
        at(3, 8): Piece("obi-wan", "light", "16/18", ring="held"),
        at(3, 3): Piece("x", "dark"),
    }
    root = ET.fromstring(render_svg(GEONOSIS, pieces, labels="chess"))
    assert root.get("role") == "img"
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert title.text == "Geonosis Arena"
    assert root.get("aria-labelledby").split() == [title.get("id"), desc.get("id")]
    assert desc.text.startswith("Geonosis Arena: 10 columns by 7 rows, columns a to j")
    assert "floor, open, plain, 57 squares" in desc.text
    assert "obstacle, blocks movement and sight, cross-hatched, 13 squares" in desc.text
    assert "Pieces: x (dark) at d4; obi-wan (light) at i4: 16/18, held." in desc.text
    titles = [
        g.find(f"{SVG}title").text for g in root.findall(f".//{SVG}g[@class='pieces']/{SVG}g")
    ]
    assert titles == ["obi-wan (light) at i4: 16/18, held", "x (dark) at d4"]
    assert len(root.findall(f".//{SVG}circle[@class='held']")) == 1
    assert "No pieces." in ET.fromstring(render_svg(GEONOSIS)).find(f"{SVG}desc").text


@pytest.mark.parametrize("scene", list(BOARDS))
def test_legend_names_every_terrain_kind_next_to_its_swatch(scene):
    board = BOARDS[scene]
    root = ET.fromstring(render_svg(board, {at(3, 8): Piece("a", "light")}))
    legend = root.find(f"{SVG}g[@class='legend']")
    texts = [t.text for t in legend.findall(f"{SVG}text[@class='terrain-legend']")]
    kinds = list(dict.fromkeys(t.name for t in board.terrain))
    assert [t.split(":")[0] for t in texts] == kinds
    cells = {r.get("class"): r.get("fill") for r in root.iter(f"{SVG}rect") if r.get("class")}
    for swatch in legend.findall(f"{SVG}rect"):
        assert swatch.get("fill") == cells["terrain " + swatch.get("class").split()[1]]
    assert "pieces: light" in [t.text for t in legend.iter(f"{SVG}text")]
    assert int(root.get("height")) > int(
        ET.fromstring(render_svg(board, legend=False)).get("height")
    )
    assert ET.fromstring(render_svg(board, legend=False)).find(f"{SVG}g[@class='legend']") is None


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
