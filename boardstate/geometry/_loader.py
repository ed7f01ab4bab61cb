"""Board data files: TOML with an ASCII map, read into :class:`Board`, with errors that point at the spot.

The format is described in docs/geometry.md. Validation is by hand rather
than through cattrs because every complaint must carry a file, line and column.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from importlib import import_module
from typing import TYPE_CHECKING, Any

from .._datafile import _package_text, _parsed_builtin
from .._errors import BoardError
from ._board import Board, NamedSquare, Terrain
from ._grid import SquareGrid

if TYPE_CHECKING:
    from pathlib import Path

BLOCKABLE = ("movement", "sight")
_TOP_KEYS = {"title", "grid", "map", "named_square_terrain", "sources", "terrain", "named_squares"}
_TERRAIN_KEYS = {"symbol", "blocks", "fill", "about"}
# The patterns are compiled when a board file is first read (re keeps them): a command on a
# board kept parsed reads none (issue 29).
_TOML_POSITION = r"\s*\(at (?:line (\d+), column (\d+)|end of document)\)$"
_HEADER = r"^[ \t]*\["  # (re.MULTILINE)
_STRING_OPENERS = "|".join(re.escape(quote) for quote in ("'''", '"""', "'", '"'))
_MAP_START = rf"^[ \t]*map[ \t]*=[ \t]*({_STRING_OPENERS})"  # (re.MULTILINE)


class _Text:
    """The raw file text, to find where a key or a map cell was written."""

    def __init__(self, text: str, source: str) -> None:
        self.text, self.source = text, source

    def error(self, reason: str, line: int = 1, column: int = 1) -> BoardError:
        return BoardError(reason, path=self.source, line=line, column=column)

    def key_error(self, reason: str, key: str, table: str | None = None) -> BoardError:
        return self.error(reason, *self.key_position(key, table))

    def key_position(self, key: str, table: str | None = None) -> tuple[int, int]:
        """Line and column of ``key =`` (inside ``[table]`` if given); the table's header, or (1, 1), if not found."""
        start, end = self._section(table)
        quoted = re.escape(key)
        pattern = re.compile(rf"^[ \t]*(?:{quoted}|\"{quoted}\"|'{quoted}')[ \t]*=", re.MULTILINE)
        found = pattern.search(self.text, start, end)
        if found is None:
            return self.table_position(table)
        return self.position(found.start() + len(found.group()) - len(found.group().lstrip()))

    def table_position(self, table: str | None) -> tuple[int, int]:
        """Line and column of the ``[table]`` header; (1, 1) for the top level or if absent."""
        header = self._header(table)
        return (
            (1, 1)
            if header is None
            else self.position(header.start() + len(header.group()) - len(header.group().lstrip()))
        )

    def _header(self, table: str | None) -> re.Match[str] | None:
        if table is None:
            return None
        parts = r"[ \t]*\.[ \t]*".join(re.escape(part) for part in table.split("."))
        return re.search(rf"^[ \t]*\[[ \t]*{parts}[ \t]*\]", self.text, re.MULTILINE)

    def _section(self, table: str | None) -> tuple[int, int]:
        """Offsets of the text under ``[table]`` (the top level when None), up to the next header."""
        start = 0
        if table is not None:
            header = self._header(table)
            if header is None:
                return (0, 0)
            start = header.end()
        following = re.compile(_HEADER, re.MULTILINE).search(self.text, start)
        return start, (len(self.text) if following is None else following.start())

    def position(self, offset: int) -> tuple[int, int]:
        line = self.text.count("\n", 0, offset) + 1
        return line, offset - (self.text.rfind("\n", 0, offset) + 1) + 1

    def map_origin(self) -> tuple[int, int]:
        """Line and column where the map's first row begins in the file."""
        found = re.search(_MAP_START, self.text, re.MULTILINE)
        if found is None:
            return (1, 1)
        offset = found.end()
        if self.text.startswith("\r\n", offset):
            offset += 2
        elif self.text.startswith("\n", offset):
            offset += 1
        return self.position(offset)


def load_board(path: str | Path, board_id: str | None = None) -> Board:
    """Read a board file; its id defaults to the file name without ``.toml``."""
    from pathlib import Path

    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise BoardError(f"cannot read board file: {error}", path=str(path)) from None
    return parse_board(text, board_id or path.stem, str(path))


def parse_board(text: str, board_id: str, source: str = "<board>") -> Board:
    """Parse the text of a board file into a :class:`Board`, or raise :class:`BoardError`."""
    import tomllib  # (a board read from its file: a command that asks for none does not load it)

    raw = _Text(text, source)
    try:
        data = tomllib.loads(text)
    except (ValueError, RecursionError) as error:  # (TOMLDecodeError, and what tomllib lets
        # out: an integer of 5000 digits, arrays nested thousands deep)
        reason = str(error) or type(error).__name__
        where = re.search(_TOML_POSITION, reason)
        if where and where.group(1):
            line, column = int(where.group(1)), int(where.group(2))
        else:
            line, column = raw.position(len(text))
        raise raw.error(
            f"invalid TOML: {re.sub(_TOML_POSITION, '', reason)}", line, column
        ) from None
    for key in data:
        if key not in _TOP_KEYS:
            raise raw.key_error(f"unknown key {key!r} (known: {', '.join(sorted(_TOP_KEYS))})", key)
    title = _string(raw, data, "title", required=True)
    grid_kind = _string(raw, data, "grid") or "square"
    if grid_kind != "square":
        raise raw.key_error(f"unsupported grid {grid_kind!r} (known: square)", "grid")
    _string(raw, data, "sources")
    terrains = _terrains(raw, data.get("terrain"))
    by_symbol = {t.symbol: t for t in terrains}
    letters = _named_letters(raw, data.get("named_squares", {}), by_symbol)
    named_on = _named_terrain(raw, data, terrains, letters)
    rows = _map_rows(raw, data)
    grid = SquareGrid(width=len(rows[0]), height=len(rows))
    cells, named = _read_map(raw, rows, by_symbol, letters, named_on)
    return Board(id=board_id, title=title, grid=grid, terrain=cells, named=named, source=source)


def _string(
    raw: _Text,
    table: Mapping[str, Any],
    key: str,
    *,
    required: bool = False,
    section: str | None = None,
) -> str:
    value = table.get(key)
    if value is None:
        if required:
            where = f" in [{section}]" if section else ""
            raise raw.error(f"missing key {key!r}{where}", *raw.table_position(section))
        return ""
    if not isinstance(value, str):
        raise raw.key_error(f"{key!r} must be a string, not {type(value).__name__}", key, section)
    return value


def _terrains(raw: _Text, table: Any) -> tuple[Terrain, ...]:
    if not isinstance(table, dict) or not table:
        raise raw.key_error(
            "missing [terrain.NAME] tables: at least one terrain is needed", "terrain"
        )
    terrains: list[Terrain] = []
    seen: dict[str, str] = {}
    for name, spec in table.items():
        section = f"terrain.{name}"
        if not isinstance(spec, dict):
            raise raw.key_error(f"terrain {name!r} must be a table", name, "terrain")
        for key in spec:
            if key not in _TERRAIN_KEYS:
                raise raw.key_error(
                    f"unknown key {key!r} in [{section}] (known: {', '.join(sorted(_TERRAIN_KEYS))})",
                    key,
                    section,
                )
        symbol = _string(raw, spec, "symbol", required=True, section=section)
        if len(symbol) != 1 or symbol.isspace():
            raise raw.key_error(
                f"terrain symbol must be one visible character, not {symbol!r}", "symbol", section
            )
        if symbol in seen:
            raise raw.key_error(
                f"symbol {symbol!r} is used by both terrains {seen[symbol]!r} and {name!r}",
                "symbol",
                section,
            )
        seen[symbol] = name
        blocks = spec.get("blocks", [])
        if not isinstance(blocks, list) or any(b not in BLOCKABLE for b in blocks):
            raise raw.key_error(
                f"'blocks' must be a list drawn from {list(BLOCKABLE)}, not {blocks!r}",
                "blocks",
                section,
            )
        terrains.append(
            Terrain(
                name=name,
                symbol=symbol,
                blocks_movement="movement" in blocks,
                blocks_sight="sight" in blocks,
                fill=_string(raw, spec, "fill", section=section),
                about=_string(raw, spec, "about", section=section),
            )
        )
    return tuple(terrains)


def _named_letters(raw: _Text, table: Any, by_symbol: Mapping[str, Terrain]) -> dict[str, str]:
    if not isinstance(table, dict):
        raise raw.key_error("'named_squares' must be a table of LETTER = \"name\"", "named_squares")
    names: dict[str, str] = {}
    for letter, name in table.items():
        if len(letter) != 1 or letter.isspace():
            raise raw.key_error(
                f"a named square's map symbol must be one visible character, not {letter!r}",
                letter,
                "named_squares",
            )
        if letter in by_symbol:
            raise raw.key_error(
                f"symbol {letter!r} is both terrain {by_symbol[letter].name!r} and a named square",
                letter,
                "named_squares",
            )
        if not isinstance(name, str) or not name:
            raise raw.key_error(
                f"named square {letter!r} needs a non-empty name string", letter, "named_squares"
            )
        if name in names.values():
            raise raw.key_error(
                f"square name {name!r} is given to two symbols", letter, "named_squares"
            )
        names[letter] = name
    return names


def _named_terrain(
    raw: _Text, data: Mapping[str, Any], terrains: tuple[Terrain, ...], letters: Mapping[str, str]
) -> Terrain | None:
    name = _string(raw, data, "named_square_terrain")
    if not name:
        if letters:
            raise raw.key_error(
                "'named_square_terrain' is required when there are named squares", "named_squares"
            )
        return None
    for terrain in terrains:
        if terrain.name == name:
            return terrain
    known = ", ".join(t.name for t in terrains)
    raise raw.key_error(
        f"named_square_terrain {name!r} is not a terrain (known: {known})", "named_square_terrain"
    )


def _map_rows(raw: _Text, data: Mapping[str, Any]) -> list[str]:
    text = _string(raw, data, "map", required=True)
    rows = text.replace("\r\n", "\n").split("\n")
    if rows and rows[-1] == "":
        rows.pop()
    line, column = raw.map_origin()
    if not rows or not rows[0]:
        raise raw.error("the map is empty", line, column)
    width = len(rows[0])
    for number, row in enumerate(rows):
        if len(row) != width:
            start = column if number == 0 else 1
            raise raw.error(
                f"map row {number} has {len(row)} cells, but row 0 has {width}",
                line + number,
                start + min(len(row), width),
            )
    return rows


def _read_map(
    raw: _Text,
    rows: list[str],
    by_symbol: Mapping[str, Terrain],
    letters: Mapping[str, str],
    named_on: Terrain | None,
) -> tuple[tuple[Terrain, ...], tuple[NamedSquare, ...]]:
    line, column = raw.map_origin()
    known = " ".join([*by_symbol, *letters])
    cells: list[Terrain] = []
    named: dict[str, NamedSquare] = {}
    for row_number, row in enumerate(rows):
        for col_number, symbol in enumerate(row):
            here = (line + row_number, (column if row_number == 0 else 1) + col_number)
            if symbol in by_symbol:
                cells.append(by_symbol[symbol])
            elif symbol in letters and named_on is not None:
                name = letters[symbol]
                if name in named:
                    raise raw.error(
                        f"named square {symbol!r} ({name}) appears twice on the map", *here
                    )
                named[name] = NamedSquare(name, (col_number, row_number), symbol)
                cells.append(named_on)
            else:
                raise raw.error(f"unknown terrain symbol {symbol!r} (known: {known})", *here)
    for letter, name in letters.items():
        if name not in named:
            raise raw.key_error(
                f"named square {letter!r} ({name}) is not on the map", letter, "named_squares"
            )
    return tuple(cells), tuple(named.values())


class BoardCatalog(Mapping[str, Board]):
    """Boards of one module by id, each file read on first access and then kept."""

    def __init__(self, files: Mapping[str, str | Path], package: str | None = None) -> None:
        self._files = dict(files)
        self._package = package
        self._loaded: dict[str, Board] = {}

    @classmethod
    def in_folder(cls, folder: str | Path, board_ids: tuple[str, ...]) -> BoardCatalog:
        """Boards stored as ``<folder>/<id>.toml``, listed in the given order."""
        from pathlib import Path

        return cls({board_id: Path(folder) / f"{board_id}.toml" for board_id in board_ids})

    @classmethod
    def in_package(cls, package: str, board_ids: tuple[str, ...]) -> BoardCatalog:
        """Boards shipped as ``<id>.toml`` data files of ``package`` (a module's own), listed in
        the given order: read through the package's loader and kept parsed between commands,
        as a module's other built-in data files are (``_datacache``: no TOML parse, and no
        ``tomllib``, on a command whose board was read before).  Their paths are strings:
        no ``pathlib`` on a command's start (issue 29)."""
        folder = os.path.dirname(import_module(package).__file__)  # type: ignore[arg-type]
        files = {board_id: os.path.join(folder, f"{board_id}.toml") for board_id in board_ids}
        return cls(files, package)

    def __getitem__(self, board_id: str) -> Board:
        if board_id not in self._loaded:
            if self._package is None:
                self._loaded[board_id] = load_board(self._files[board_id], board_id)
            else:
                path = self._files[board_id]
                text = _package_text(self._package, os.path.basename(path))
                board = _parsed_builtin(_board_file, text, str(path), self._package)
                self._loaded[board_id] = board
        return self._loaded[board_id]

    def __contains__(self, board_id: object) -> bool:
        """Without this, Mapping would read the file to answer."""
        return board_id in self._files

    def __iter__(self) -> Iterator[str]:
        return iter(self._files)

    def __len__(self) -> int:
        return len(self._files)

    def __repr__(self) -> str:
        return f"BoardCatalog({list(self._files)})"


def _board_file(text: str, source: str) -> Board:
    """A board data file shipped in a package, at ``source``, as ``load_board`` reads it; on a
    square grid with its line table made (the integer walk, a few ms), so that it is kept with
    the board and a command asking for sight does not make it again."""
    board = parse_board(text, os.path.splitext(os.path.basename(source))[0], source)
    if type(board.grid) is SquareGrid:
        board.line_table  # noqa: B018 (a cached property: made now, kept in the board's __dict__)
    return board
