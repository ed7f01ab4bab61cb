"""``boardstate board``: list the boards of an installed module, or draw one as SVG or text.

Modules offer their boards through the entry-point group ``boardstate.boards``
(a mapping board id -> Board), so a game shipped as its own package shows up
here without changes to boardstate.

Errors are BoardstateErrors, reported like every other command's (one line, exit 2): naming a
module or board that is not there is an OptionError, bad usage, as ``get_module`` has it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import click

from boardstate import BoardstateError, OptionError, atomic_write, check_output

from ._common import OutputFile
from ._errors import one_line_errors

if TYPE_CHECKING:
    import importlib.metadata

    from boardstate.geometry import Board

BOARDS_GROUP = "boardstate.boards"
_FORMAT_BY_SUFFIX = {".svg": "svg", ".txt": "text"}


def _board_sets() -> dict[str, importlib.metadata.EntryPoint]:
    import importlib.metadata

    return {entry.name: entry for entry in importlib.metadata.entry_points(group=BOARDS_GROUP)}


def _load_boards(module: str) -> Mapping[str, Board]:
    sets = _board_sets()
    if module not in sets:
        installed = ", ".join(sorted(sets)) or "none"
        raise OptionError(
            f"no boards for module {module!r} (installed: {installed})", code="unknown-module"
        )
    try:
        boards = sets[module].load()
    except BoardstateError:
        raise  # already says what is wrong (a board file read eagerly, say)
    except Exception as error:  # a broken third-party package must not print a traceback
        reason = f"cannot load the boards of {module!r}: {type(error).__name__}: {error}"
        raise BoardstateError(reason, code="broken-module") from None
    if not isinstance(boards, Mapping):
        reason = f"the boards entry point of {module!r} is not a mapping of board id -> Board"
        raise BoardstateError(reason, code="broken-module")
    return boards


def _scene(boards: Mapping[str, Board], module: str, scene: str) -> Board:
    if scene not in boards:
        known = ", ".join(boards) or "none"
        raise OptionError(
            f"module {module!r} has no board {scene!r} (known: {known})", code="unknown-board"
        )
    return boards[scene]


def _format_for(output: Path | None, chosen: str | None) -> str:
    if chosen:
        return chosen
    if output is None:
        return "text"
    found = _FORMAT_BY_SUFFIX.get(output.suffix.lower())
    if found is None:
        raise OptionError(
            f"cannot tell the format of {str(output)!r} from its name: give --format svg|text or a .svg/.txt file"
        )
    return found


def _scene_list(boards: Mapping[str, Board]) -> str:
    width = max((len(board_id) for board_id in boards), default=0)
    return "".join(f"{board_id:<{width}}  {board.title}\n" for board_id, board in boards.items())


@click.command("board")
@click.argument("module")
@click.argument("scene", required=False)
@click.option(
    "-o",
    "--output",
    type=OutputFile(path_type=Path),
    help="Write the drawing to this file (.svg or .txt) instead of standard output.",
)
@click.option(
    "--format",
    "chosen_format",
    type=click.Choice(["svg", "text"]),
    help="Drawing format; by default taken from the output file's suffix, else text.",
)
@click.option("--force", is_flag=True, help="Replace an existing game file at the output path.")
@one_line_errors
def board(
    module: str, scene: str | None, output: Path | None, chosen_format: str | None, force: bool
) -> None:
    """Draw SCENE, a board of the installed MODULE; without SCENE, list its boards."""
    boards = _load_boards(module)
    if scene is None:
        click.echo(_scene_list(boards), nl=False)
        return
    chosen = _scene(boards, module, scene)
    drawing_format = _format_for(output, chosen_format)
    from boardstate.geometry import render_svg, render_text

    drawing = render_svg(chosen) if drawing_format == "svg" else render_text(chosen)
    if output is None:
        click.echo(drawing, nl=False)
        return
    check_output(output, force=force)
    atomic_write(output, drawing.encode("utf-8"))
    click.echo(f"wrote {output}", err=True)
