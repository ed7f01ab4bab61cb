"""``games``: a player's list of games, the game files in some folders (``boardstate.list_games``)
as text or ``--json``."""

from __future__ import annotations

import json

import click

import boardstate as bs

from ._errors import one_line_errors


def _lines(row: bs.ListedGame) -> list[str]:
    """A game in three lines: the file, what it is and who plays; whose move and since when;
    what it waits for, or how it ended.  A file that cannot be read: one line, with why."""
    if row.error is not None:
        return [f"{row.path}  cannot be read: {row.error}"]
    what = row.module + (f" ({row.edition})" if row.edition else "")
    copy = {
        "player": f"{row.trust}, {row.you}'s copy",
        "view": f"{row.you}'s view",
        "invitation": f"{row.trust}, an invitation",
        "full": row.trust,
    }[row.copy]
    turn = f"whose move: {row.turn}" if row.whose is not None else f"to act: {row.turn}"
    return [
        f"{row.path}  {what}  {', '.join(row.players)}  [{copy}]",
        f"    {turn}; since {row.since} ({row.age})"
        + (f"; time runs out {row.deadline}" if row.deadline else ""),
        f"    {row.result if row.result is not None else row.waits}",
    ]


@click.command()
@click.argument("folders", nargs=-1, metavar="[DIR]...")
@click.option("--recursive", "-r", is_flag=True, help="Look in the folders' subfolders too.")
@click.option(
    "--as",
    "player",
    help="You, in games whose file has no viewer (open games, invitations): their move is yours.",
)
@click.option("--json", "as_json", is_flag=True, help="A list of objects with stable keys.")
@one_line_errors
def games(folders, recursive, player, as_json):
    """List the game files in the folders (default: this one): whose move, since when, what
    each waits for, how it ended.  Your moves first, then the oldest first.

    Move files, requests, keys and other files are left out; a game file that cannot be read
    is listed with the reason.  A hosted copy waits for the judge while a request it made on
    its last record lies in one of the folders.
    """
    rows = bs.list_games(folders or ["."], recursive=recursive, player=player)
    if as_json:
        click.echo(json.dumps([row.to_json() for row in rows], indent=2))
        return
    if not rows:
        click.echo(f"no game files in {', '.join(folders or ['.'])}")
    for row in rows:
        for line in _lines(row):
            click.echo(line)
