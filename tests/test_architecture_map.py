"""docs/architecture.md's layers table is the one statement of the layers; this keeps it true.

Every ``.py`` file of ``boardstate/`` and ``cli/`` is placed in exactly one row of the table, and
no module imports a module of a row above its own (its own row is fine).

How the rooms column names modules (the page's own writing): ``_game`` is
``boardstate._game``; a folder (``trust/``, ``judge/``, ``cli/``) is that package, and the
names after it in the cell are its files (``cli/`` is the top-level ``cli``, any other folder
one of ``boardstate``'s); a folder with no names after it (``geometry/``) is all its files; a
full name (``boardstate.testing``) is that module, and the names after it are its files too. A
module written out by name is placed where it is written, even where a folder would take it in
(``boardstate.rules`` is a façade; the files of ``rules/`` are the module seam).

The imports are every ``import`` statement ``ast`` finds, at the top of a file or inside a
function, those under ``if TYPE_CHECKING:`` included (a reader follows them too); each counts as
the module it names (``from . import _mental`` is ``boardstate._mental``). Not counted: a
module's own packages (Python imports them before it), a package run because one of its files
is imported, and modules imported by a string (``import_module``, a package's names imported on
first use).
"""

from __future__ import annotations

import ast
import functools
import os
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
MAP = REPO / "docs" / "architecture.md"
ROOTS = ("boardstate", "cli")
HEADING = "## Layers, bottom to top"
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@functools.cache
def engine_files() -> dict[str, str]:
    """Module name -> path (relative to the repository) of every file under the roots; a
    folder linked in (a clone's ``boardstate/modules``) is not walked."""
    files = {}
    for root in ROOTS:
        for folder, dirs, names in os.walk(REPO / root):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in names:
                if name.endswith(".py"):
                    path = Path(folder, name).relative_to(REPO)
                    parts = list(path.with_suffix("").parts)
                    if parts[-1] == "__init__":
                        parts.pop()
                    files[".".join(parts)] = path.as_posix()
    return files


def table_rows(page: str) -> list[tuple[str, list[str]]]:
    """The layers table's rows, bottom first: (layer, the names in backticks of its rooms)."""
    rows, in_section = [], False
    for line in page.splitlines():
        if line.startswith("## "):
            in_section = line.strip() == HEADING
        elif in_section and line.startswith("|") and not line.startswith("|---"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            rows.append((cells[0], re.findall(r"`([^`]+)`", cells[1])))
    return rows[1:]  # (the header row)


def placements(rows, files) -> tuple[dict[str, int], list[str]]:
    """Each module's row, and a line for each name that is no module, each module written in
    two rows and each file in none."""
    written, taken_in, problems = {}, {}, []

    def place(where, module, row):
        if module in where and where[module] != row:
            problems.append(
                f"docs/architecture.md: {module} is in two rows, "
                f"{rows[where[module]][0]!r} and {rows[row][0]!r}"
            )
        where.setdefault(module, row)

    def take_in(folder, row):
        for module in files:
            if module.startswith(f"{folder}."):
                place(taken_in, module, row)

    for row, (layer, names) in enumerate(rows):
        prefix, bare_folder = "boardstate", None  # (a folder no name has followed yet)
        for name in names:
            if name.endswith("/") and IDENTIFIER.fullmatch(name[:-1]):
                if bare_folder:
                    take_in(bare_folder, row)
                prefix = bare_folder = (
                    name[:-1] if name[:-1] in ROOTS else f"boardstate.{name[:-1]}"
                )
                place(taken_in, prefix, row)
                continue
            full = name.split(".")[0] in ROOTS and all(map(IDENTIFIER.fullmatch, name.split(".")))
            module = name if full else f"{prefix}.{name}" if IDENTIFIER.fullmatch(name) else None
            if module not in files:
                problems.append(f"docs/architecture.md: `{name}` (row {layer!r}) names no module")
                continue
            if full:
                prefix = module
            else:
                bare_folder = None
            place(written, module, row)
        if bare_folder:
            take_in(bare_folder, row)
    where = taken_in | written
    problems += [
        f"{path}: placed in no row of docs/architecture.md's layers table"
        for module, path in sorted(files.items())
        if module not in where
    ]
    return where, problems


@functools.cache
def imports_of(module: str, path: str, source: str) -> list[tuple[int, str]]:
    """(line, module) for each engine module ``source`` imports, its own packages left out."""
    files = engine_files()
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source, path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                known = (".".join(parts[:n]) for n in range(len(parts), 0, -1))
                found.append((node.lineno, next((n for n in known if n in files), "")))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            for alias in node.names:
                target = f"{base}.{alias.name}"
                found.append((node.lineno, target if target in files else base))
    own = {".".join(module.split(".")[:n]) for n in range(1, module.count(".") + 2)}
    return [(line, name) for line, name in found if name in files and name not in own]


def upward_imports(rows, where, sources, files) -> list[str]:
    """A line for each import of a module placed in a row above the importer's."""
    problems = []
    for module, source in sorted(sources.items()):
        path = files[module]
        for line, target in imports_of(module, path, source):
            if where.get(target, -1) > where.get(module, len(rows)):
                problems.append(
                    f"{path}:{line}: imports {target} ({rows[where[target]][0]}), "
                    f"a row above its own ({rows[where[module]][0]})"
                )
    return problems


@functools.cache
def engine_sources() -> dict[str, str]:
    return {module: (REPO / path).read_text() for module, path in engine_files().items()}


def problems_of(page: str, sources: dict[str, str] | None = None) -> list[str]:
    rows, files = table_rows(page), engine_files()
    assert rows, f"docs/architecture.md has no table under {HEADING!r}"
    where, problems = placements(rows, files)
    return problems + upward_imports(rows, where, sources or engine_sources(), files)


def test_every_file_is_placed_once_and_imports_only_downwards():
    problems = problems_of(MAP.read_text())
    assert not problems, "\n".join(problems)


# The check can fail: the page or a file changed one way, the line it must give.


def first_room(page: str) -> tuple[str, str]:
    """The first row's first name, and the line it is written on."""
    names = table_rows(page)[0][1]
    line = next(
        line for line in page.splitlines() if line.startswith("|") and f"`{names[0]}`" in line
    )
    return names[0], line


def test_a_name_taken_off_the_page_leaves_its_file_unplaced():
    page = MAP.read_text()
    name, line = first_room(page)
    mutated = page.replace(line, line.replace(f"`{name}`", "", 1))
    path = engine_files()[f"boardstate.{name}"]
    assert problems_of(mutated) == [
        f"{path}: placed in no row of docs/architecture.md's layers table"
    ]


@pytest.mark.parametrize("wrong", ["`_no_such_room`", "`bots/_no_such_room`", "`boardstate.nope`"])
def test_a_name_of_no_file_is_refused(wrong):
    page = MAP.read_text()
    name, line = first_room(page)
    mutated = page.replace(line, line.replace(f"`{name}`", f"`{name}`, {wrong}", 1))
    assert problems_of(mutated) == [
        f"docs/architecture.md: {wrong} (row {table_rows(page)[0][0]!r}) names no module"
    ]


def test_a_module_written_in_two_rows_is_refused():
    page = MAP.read_text()
    name, line = first_room(page)
    rows = table_rows(page)
    second = next(ln for ln in page.splitlines() if ln.startswith(f"| {rows[1][0]} |"))
    cells = second.split("|")
    cells[2] = f" `{name}`,{cells[2]}"
    mutated = page.replace(second, "|".join(cells))
    assert problems_of(mutated) == [
        f"docs/architecture.md: boardstate.{name} is in two rows, {rows[0][0]!r} and {rows[1][0]!r}"
    ]


@pytest.mark.parametrize(
    ("statement", "line_in_it"),
    [
        ("import {absolute}\n", 0),
        ("import {absolute}._not_a_file as nothing\n", 0),
        ("def later():\n    from {package} import {leaf}\n", 1),
        ("from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from . import {leaf}\n", 3),
    ],
    ids=["import", "import-a-missing-submodule", "from-import-in-a-function", "type-checking"],
)
def test_an_import_from_a_higher_row_is_refused(statement, line_in_it):
    """A room of the lowest row given an import of the highest room of ``boardstate`` itself."""
    page = MAP.read_text()
    rows, files = table_rows(page), engine_files()
    where, _ = placements(rows, files)
    bottom = next(m for m, row in where.items() if row == 0 and m.count(".") == 1)
    top = max(
        (m for m in where if m.count(".") == 1 and m.startswith("boardstate.")), key=where.get
    )
    package, _, leaf = top.rpartition(".")
    sources = dict(engine_sources())
    before = sources[bottom].rstrip("\n") + "\n"
    sources[bottom] = before + statement.format(absolute=top, package=package, leaf=leaf)
    line = before.count("\n") + 1 + line_in_it
    assert problems_of(page, sources) == [
        f"{files[bottom]}:{line}: imports {top} ({rows[where[top]][0]}), "
        f"a row above its own ({rows[0][0]})"
    ]


def test_an_import_from_the_same_row_is_fine():
    page = MAP.read_text()
    rows, files = table_rows(page), engine_files()
    where, _ = placements(rows, files)
    first, second = [m for m, row in sorted(where.items()) if row == 0 and m.count(".") == 1][:2]
    sources = dict(engine_sources())
    sources[first] += f"\nfrom . import {second.rpartition('.')[2]}\n"
    assert problems_of(page, sources) == []
