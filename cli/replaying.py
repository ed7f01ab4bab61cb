"""Going through a game: ``replay`` (step through it, or one web page) and ``view`` (a
player's view, as a file).  Apart from ``looking``'s commands, so that ``show``, ``legal`` and
``log``, run far more often, do not build these two's click commands at every start (issue 29)."""

from __future__ import annotations

import sys

import click

import boardstate as bs

from ._common import OutputFile, claim_output, revision_note, seat_of, settled_line
from ._errors import BAD_INPUT, fail, one_line_errors


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--to", "to", type=int, help="Show the table after record N and stop.")
@click.option("--as", "player", help="As this player saw it (default: a spectator).")
@click.option(
    "--step/--no-step",
    default=None,
    help="Prompt between steps (default: only when input is a terminal).",
)
@click.option(
    "--html",
    "html_out",
    type=OutputFile(),
    help="Write the replay as one self-contained web page to this file (open it from disk).",
)
@click.option("--force", is_flag=True, help="With --html: replace an existing file.")
@click.option(
    "--spoilers",
    is_flag=True,
    help="With --html: the page opens with every move and the result shown "
    "(by default they show as the reader steps to them).",
)
@one_line_errors
def replay(file, to, player, step, html_out, force, spoilers):
    """Step through a game: Enter/n next, p back, j N jump, q quit.

    Without a terminal (or with --to) it prints the steps and stops.  With --html OUT it
    writes the replay as one web page instead (every position, the moves, the result; the
    arrow keys step), showing only what the player of --as may see (default: a spectator),
    and no move ahead of the one shown nor the result before the end (--spoilers: all of it).
    """
    if html_out is None and (force or spoilers):
        flag = "--force replaces" if force else "--spoilers is for"
        fail(f"usage: {flag} the --html page; add --html OUT", BAD_INPUT)
    if html_out is not None and (to is not None or step is not None):
        fail("usage: --html cannot be combined with --to or --step", BAD_INPUT)
    game = bs.load_game(file)
    seat = seat_of(game, player)
    if html_out is not None:
        _write_html(game, seat, file, html_out, force, spoilers)
        return
    states = game.states()  # (a takeback: the state before the turn)
    if revision_note(game):
        click.echo(revision_note(game))
    last = len(game.records) - 1
    if to is not None:
        if not 0 <= to <= last:
            fail(f"error: --to {to} is out of range (records 0-{last})", BAD_INPUT)
        _show_step(game, states, to, seat)
        return
    if not (sys.stdin.isatty() if step is None else step):
        for i in range(last + 1):
            _show_step(game, states, i, seat)
            click.echo("")
        return
    i = 0
    while True:
        _show_step(game, states, i, seat)
        try:
            answer = click.prompt(
                f"[{i}/{last}] n/p/j N/q", default="n", show_default=False
            ).strip()
        except click.Abort:  # end of input
            return
        if answer in ("q", "quit"):
            return
        if answer in ("p", "b", "back"):
            i = max(0, i - 1)
        elif answer.startswith("j"):
            try:
                i = min(last, max(0, int(answer[1:].strip())))
            except ValueError:
                click.echo("say j N, e.g. j 12")
        else:
            i = min(last, i + 1)


def _write_html(
    game: bs.Game, seat: int | None, file: str, out, force: bool, spoilers: bool
) -> None:
    """The replay page, written to ``out``: never over the game file read, nor over an
    existing file without ``--force``."""
    claim_output(out, force=force, reading=[file], checked_first=True)
    bs.save_replay_html(game, seat, out, spoilers=spoilers)
    click.echo(f"wrote {out}", err=True)


def _show_step(game, states, i, seat) -> None:
    rec = game.records[i]
    click.echo(f"--- record {i}: {bs.describe(game, rec, seat)}")
    click.echo(game.decider.render(game.decider.view(states[i], seat), seat))
    line = settled_line(game, states, i)
    if line:
        click.echo(line)
    if i == len(game.records) - 1:  # the end of the file: the result, or where the game stands
        click.echo(bs.standing(game))


@click.command("view")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--as", "player", required=True)
@click.option("-o", "--out", required=True, type=OutputFile())
@click.option("--force", is_flag=True, help="Replace an existing game file at the output path.")
@one_line_errors
def view_cmd(file, player, out, force):
    """Write PLAYER's view of FILE: no seed, other players' secrets sealed."""
    game = bs.load_game(file)
    bs.check_output(out, force=force, reading=[file], as_path=False)
    bs.save_game(game, out, viewer=game.seat(player))
    click.echo(f"wrote {out}: {player}'s view of {file}")
    click.echo(f"note: some records will be {game.trust.checked_in_part}")
