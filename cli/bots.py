"""Bots at the command line: ``hint`` (a seat's best commands as the search weighs them), and
the command a bot chooses for ``move --bot``."""

from __future__ import annotations

import click

import boardstate as bs
from boardstate.bots import LEVELS, Bot

from ._errors import one_line_errors


def bot_command(game, player: str, level: str) -> str:
    """The command a bot at ``level`` chooses for ``player`` (said on standard error)."""
    seat = game.seat(player)
    game.check_can_act(seat)
    chosen = Bot(level).choose(game, seat)
    click.echo(f"{player} ({level} bot): {chosen}", err=True)
    return chosen


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--as", "player", required=True, help="The player to advise.")
@click.option(
    "--level",
    default="normal",
    show_default=True,
    type=click.Choice([name for name in LEVELS if name != "random"]),
    help="How long the search thinks (as the bot of that level).",
)
@click.option("--top", default=5, show_default=True, type=click.IntRange(1, 50))
@one_line_errors
def hint(file, player, level, top):
    """The best commands for a player now, with their estimated chances to win.

    A search from the player's view alone (what their copy shows them): it never reads the
    others' hidden cards, even in a file that holds them.
    """
    with bs.locked(file, as_path=False):
        game = bs.load_checked(file)
    seat = game.seat(player)
    game.check_can_act(seat)
    legal = game.legal(seat)
    if len(legal) == 1:
        click.echo(f"{legal[0]}  (the only command)")
        return
    hints = Bot(level).hints(game, seat, top)
    width = max(len(h.command) for h in hints)
    for h in hints:
        click.echo(f"{h.command:<{width}}  {h.chance:>4.0%} to win  ({h.visits} tries)")
