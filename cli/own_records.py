"""A game's own records: ``undo`` (take back one's last records no other copy holds) and
``export`` (records again, as a move file).  Apart from ``moves``' commands, so that ``move``,
``apply`` and ``inspect``, run far more often, do not build these two's click commands at every
start (issue 29)."""

from __future__ import annotations

import click

import boardstate as bs

from ._common import echo_after, own_seat
from ._errors import BAD_INPUT, RULES_REJECTED, fail, one_line_errors


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--as", "player", required=True, help="The player taking the move back.")
@one_line_errors
def undo(file, player):
    """Take back your last move(s) that no other copy holds yet: your own trailing records
    that no move file has carried (the file keeps count of what was mailed or received)."""
    with bs.locked(file, as_path=False):
        game = bs.load_checked(file)
        seat = own_seat(game, file, player)
        count = game.undoable(seat)
        if count == 0:
            fail(f"error: {_why_no_undo(game, seat)}", RULES_REJECTED)
        dropped = game.records[game.seq - count :]
        game.truncate(game.seq - count)
        bs.save_game(game, file)
    for rec in dropped:
        click.echo(f"undone: record {rec.seq}: {bs.describe(game, rec, seat)}")
    echo_after(game, seat)


def _why_no_undo(game: bs.Game, seat: int) -> str:
    last = game.records[-1]
    shared = game.header.shared
    if shared is None:
        return (
            "nothing is undone: this file does not record which records were mailed (it was "
            "made before files kept count)"
        )
    if last.seq <= shared:
        return (
            f"nothing to undo: record {last.seq} ({bs.describe(game, last, seat)}) has gone to "
            "the other players (in a move file, or it came from them)"
        )
    return (
        f"nothing to undo: the last record ({bs.describe(game, last, seat)}) is not "
        f"{game.players[seat]}'s"
    )


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--after",
    "after",
    type=int,
    required=True,
    help="The last record the other players already have.",
)
@click.option("-o", "--out", required=True, type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Replace an existing game file at the output path.")
@click.option("--text", is_flag=True, help="Write the move file as text to paste into a mail.")
@one_line_errors
def export(file, after, out, force, text):
    """Write the records after record N as a move file (to send again, or to a late player)."""
    game = bs.load_game(file)
    last = game.last_seq
    if not -1 <= after < last:
        fail(
            f"error: --after {after} is out of range (records 0-{last}; the last has nothing "
            f"after it)",
            BAD_INPUT,
        )
    bs.check_output(out, force=force, reading=[file], as_path=False)
    count = bs.save_moves(game, after, out, text=text)
    # (with -o -, the move file is standard output: what is said goes to standard error)
    click.echo(f"wrote {out}: records {after + 1}-{last} ({count})", err=out == "-")
