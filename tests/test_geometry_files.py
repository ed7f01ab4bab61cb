"""Board data files: the format round-trips, and every mistake is reported as file:line:column."""

from pathlib import Path

import pytest

from boardstate import BoardstateError
from boardstate.geometry import BoardCatalog, BoardError, load_board, parse_board
from boardstate.modules.epic_duels import boards as epic_boards

GOOD = """\
# a comment
map = '''
..A
.#~
'''
title = "Tiny"
named_square_terrain = "floor"

[terrain.floor]
symbol = "."

[terrain.wall]
symbol = "#"
blocks = ["movement", "sight"]

[terrain.pool]
symbol = "~"
blocks = ["movement"]
fill = "#0000ff"

[named_squares]
A = "altar"
"""


def write(tmp_path: Path, text: str, name: str = "tiny.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_of(tmp_path: Path, text: str) -> BoardError:
    path = write(tmp_path, text)
    with pytest.raises(BoardError) as caught:
        load_board(path)
    error = caught.value
    assert "\n" not in str(error)
    assert (
        isinstance(error, BoardstateError)
        and isinstance(error, ValueError)
        and error.code == "bad-board"
    )
    assert error.path == str(path)
    assert str(error).startswith(f"{path}:{error.line}:{error.column}: ")
    return error


def test_a_good_file_loads_with_its_id_from_the_file_name(tmp_path):
    board = load_board(write(tmp_path, GOOD))
    assert (board.id, board.title, board.width, board.height) == ("tiny", "Tiny", 3, 2)
    assert board.square("altar") == (2, 0)
    assert [board.terrain_at((c, 1)).name for c in range(3)] == ["floor", "wall", "pool"]
    assert board.terrain_at((2, 1)).fill == "#0000ff"
    assert board.terrain_at((2, 0)).name == "floor"
    assert board.named[0].symbol == "A"


def test_unknown_map_symbol_points_at_its_line_and_column(tmp_path):
    error = error_of(tmp_path, GOOD.replace(".#~", ".#Q"))
    assert (error.line, error.column) == (4, 3)
    assert error.reason == "unknown terrain symbol 'Q' (known: . # ~ A)"


def test_unknown_symbol_in_a_real_board_file(tmp_path):
    text = (Path(epic_boards.__file__).parent / "kamino.toml").read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    map_line = next(n for n, line in enumerate(lines) if line.startswith("map = '''")) + 1
    row = lines[map_line + 3]
    assert row == "..J#.OY.A.\n"
    lines[map_line + 3] = "..J#.OYQA.\n"
    error = error_of(tmp_path, "".join(lines))
    assert (error.line, error.column) == (map_line + 4, 8)
    assert "unknown terrain symbol 'Q'" in error.reason


def test_map_starting_on_the_key_line_counts_columns_from_there(tmp_path):
    error = error_of(tmp_path, GOOD.replace("map = '''\n..A", "map = '''..Q"))
    assert (error.line, error.column) == (2, 12)


def test_ragged_map_row(tmp_path):
    error = error_of(tmp_path, GOOD.replace(".#~\n", ".#\n"))
    assert (error.line, error.column) == (4, 3)
    assert error.reason == "map row 1 has 2 cells, but row 0 has 3"


def test_toml_syntax_error_keeps_tomls_position(tmp_path):
    error = error_of(tmp_path, GOOD.replace('title = "Tiny"', "title = Tiny"))
    assert (error.line, error.column) == (6, 9)
    assert error.reason.startswith("invalid TOML: ")


def test_unclosed_map_string_is_reported_at_the_end(tmp_path):
    error = error_of(tmp_path, "map = '''\n..\n")
    assert error.reason.startswith("invalid TOML")


def test_missing_title(tmp_path):
    error = error_of(tmp_path, GOOD.replace('title = "Tiny"\n', ""))
    assert error.reason == "missing key 'title'"


def test_misspelt_key_is_named_where_it_stands(tmp_path):
    error = error_of(tmp_path, GOOD.replace('blocks = ["movement"]', 'block = ["movement"]'))
    assert (error.line, error.column) == (18, 1)
    assert error.reason.startswith("unknown key 'block' in [terrain.pool]")


def test_unknown_blocked_thing(tmp_path):
    error = error_of(
        tmp_path, GOOD.replace('blocks = ["movement"]', 'blocks = ["movement", "flying"]')
    )
    assert (error.line, error.column) == (18, 1)
    assert "'blocks' must be a list drawn from ['movement', 'sight']" in error.reason


def test_terrain_symbol_used_twice(tmp_path):
    error = error_of(tmp_path, GOOD.replace('symbol = "~"', 'symbol = "#"'))
    assert (error.line, error.column) == (17, 1)
    assert error.reason == "symbol '#' is used by both terrains 'wall' and 'pool'"


def test_terrain_symbol_must_be_one_character(tmp_path):
    error = error_of(tmp_path, GOOD.replace('symbol = "~"', 'symbol = "~~"'))
    assert error.line == 17


def test_named_square_missing_from_the_map(tmp_path):
    error = error_of(tmp_path, GOOD + 'B = "bridge"\n')
    assert (error.line, error.column) == (23, 1)
    assert error.reason == "named square 'B' (bridge) is not on the map"


def test_named_square_twice_on_the_map(tmp_path):
    error = error_of(tmp_path, GOOD.replace(".#~", "A#~"))
    assert (error.line, error.column) == (4, 1)
    assert error.reason == "named square 'A' (altar) appears twice on the map"


def test_named_square_letter_that_is_also_terrain(tmp_path):
    error = error_of(tmp_path, GOOD.replace('A = "altar"', 'A = "altar"\n"#" = "hole"'))
    assert error.reason == "symbol '#' is both terrain 'wall' and a named square"
    assert error.line == 23


def test_named_square_terrain_must_exist(tmp_path):
    error = error_of(
        tmp_path, GOOD.replace('named_square_terrain = "floor"', 'named_square_terrain = "flor"')
    )
    assert (error.line, error.column) == (7, 1)
    assert error.reason == "named_square_terrain 'flor' is not a terrain (known: floor, wall, pool)"


def test_unsupported_grid(tmp_path):
    error = error_of(tmp_path, GOOD.replace('title = "Tiny"', 'title = "Tiny"\ngrid = "hex"'))
    assert error.reason == "unsupported grid 'hex' (known: square)"
    assert error.line == 7


def test_empty_map(tmp_path):
    error = error_of(tmp_path, GOOD.replace("..A\n.#~\n", ""))
    assert error.reason == "the map is empty"


def test_unreadable_file_is_a_board_error(tmp_path):
    with pytest.raises(BoardError, match=r"missing\.toml:1:1: cannot read board file"):
        load_board(tmp_path / "missing.toml")


def test_parse_board_names_its_source():
    with pytest.raises(BoardError, match=r"^memory:1:1: missing key 'map'$"):
        parse_board('title = "x"\n[terrain.floor]\nsymbol = "."\n', "x", "memory")


def test_catalog_reads_each_file_once_and_only_when_asked(tmp_path):
    write(tmp_path, GOOD, "tiny.toml")
    write(tmp_path, "not toml at all [", "broken.toml")
    catalog = BoardCatalog.in_folder(tmp_path, ("tiny", "broken"))
    assert list(catalog) == ["tiny", "broken"] and len(catalog) == 2
    assert catalog["tiny"] is catalog["tiny"]
    assert "broken" in catalog and "absent" not in catalog  # membership reads no file
    with pytest.raises(BoardError, match=r"broken\.toml:1:"):
        catalog["broken"]
    with pytest.raises(KeyError):
        catalog["absent"]


def test_one_line_map_string_is_located_too(tmp_path):
    error = error_of(tmp_path, 'map = "..Q"\ntitle = "x"\n[terrain.floor]\nsymbol = "."\n')
    assert (error.line, error.column) == (1, 10)
