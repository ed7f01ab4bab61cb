"""``boardstate board``: list the boards of an installed module, or draw one as SVG or text.

Modules offer their boards through the entry-point group ``boardstate.boards``
(a mapping board id -> Board), so a game shipped as its own package shows up
here without changes to boardstate.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Mapping
from pathlib import Path

import click

from boardstate.geometry import Board, BoardError, render_svg, render_text

BOARDS_GROUP = "boardstate.boards"
_FORMAT_BY_SUFFIX = {".svg": "svg", ".txt": "text"}


def _board_sets() -> dict[str, importlib.metadata.EntryPoint]:
    return {entry.name: entry for entry in importlib.metadata.entry_points(group=BOARDS_GROUP)}


def _load_boards(module: str) -> Mapping[str, Board]:
    sets = _board_sets()
    if module not in sets:
        installed = ", ".join(sorted(sets)) or "none"
        raise click.UsageError(f"no boards for module {module!r} (installed: {installed})")
    try:
        boards = sets[module].load()
    except Exception as error:  # a broken third-party package must not print a traceback
        raise click.ClickException(f"cannot load the boards of {module!r}: {type(error).__name__}: {error}") from None
    if not isinstance(boards, Mapping):
        raise click.ClickException(f"the boards entry point of {module!r} is not a mapping of board id -> Board")
    return boards


def _format_for(output: Path | None, chosen: str | None) -> str:
    if chosen:
        return chosen
    if output is None:
        return "text"
    try:
        return _FORMAT_BY_SUFFIX[output.suffix.lower()]
    except KeyError:
        raise click.UsageError(
            f"cannot tell the format of {str(output)!r} from its name: give --format svg|text or a .svg/.txt file"
        ) from None


def _scene_list(boards: Mapping[str, Board]) -> str:
    width = max((len(board_id) for board_id in boards), default=0)
    return "".join(f"{board_id:<{width}}  {board.title}\n" for board_id, board in boards.items())


@click.command("board")
@click.argument("module")
@click.argument("scene", required=False)
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
    help="Write the drawing to this file (.svg or .txt) instead of standard output.",
)
@click.option(
    "--format", "chosen_format", type=click.Choice(["svg", "text"]),
    help="Drawing format; by default taken from the output file's suffix, else text.",
)
def board(module: str, scene: str | None, output: Path | None, chosen_format: str | None) -> None:
    """Draw SCENE, a board of the installed MODULE; without SCENE, list its boards."""
    boards = _load_boards(module)
    try:
        if scene is None:
            click.echo(_scene_list(boards), nl=False)
            return
        if scene not in boards:
            known = ", ".join(boards) or "none"
            raise click.UsageError(f"module {module!r} has no board {scene!r} (known: {known})")
        drawing_format = _format_for(output, chosen_format)
        chosen = boards[scene]
        drawing = render_svg(chosen) if drawing_format == "svg" else render_text(chosen)
    except BoardError as error:
        raise click.ClickException(str(error)) from None
    if output is None:
        click.echo(drawing, nl=False)
        return
    try:
        output.write_text(drawing, encoding="utf-8")
    except OSError as error:
        raise click.ClickException(f"cannot write {str(output)!r}: {error.strerror or error}") from None
    click.echo(f"wrote {output}", err=True)
