"""``boardstate play``: a game at the terminal, hot seat or against the random bot."""

from __future__ import annotations

import random
from pathlib import Path

import click

import boardstate as bs

from ._errors import BAD_INPUT, fail, one_line_errors


@click.command()
@click.argument("module")
@click.option("--player", "players", multiple=True, required=True, help="A player (seat order).")
@click.option("--bot", "bots", multiple=True, help="A player the random bot plays for.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE")
@click.option("--seed", help="Seed text (default: random).")
@click.option("-o", "--out", type=click.Path(dir_okay=False), help="Save the game here as it goes.")
@one_line_errors
def play(module, players, bots, options, seed, out):
    """Play at the terminal: each human types commands at their prompt.

    Type 'legal' for the allowed commands, 'show' for the table, 'quit' to stop.  Sealed choices
    are shown to nobody and never written to the file before everyone has chosen: the file keeps
    every finished round, and a round stopped half-way is chosen again.
    """
    from .app import _options, _outcome_text

    mod = bs.get_module(module)
    unknown = set(bots) - set(players)
    if unknown:
        fail(f"error: --bot {sorted(unknown)[0]} is not a --player", BAD_INPUT)
    if out and Path(out).exists():
        fail(f"error: {out} exists; not overwriting it (choose another name)", BAD_INPUT)
    game = bs.Game.new(
        mod, players, _options(options), seed=None if seed is None else seed.encode()
    )
    bot_rng = random.Random(seed)
    bot_seats = {game.seat(b) for b in bots}
    if out:
        bs.save_game(game, out, settled=True)
    while game.outcome() is None:
        seat = game.to_act()[0]
        name = game.players[seat]
        if seat in bot_seats:
            command = bot_rng.choice(game.legal(seat))
        else:
            click.echo("")
            click.echo(game.decider.render(game.decider.view(game.state, seat), seat))
            command = click.prompt(f"{name}", prompt_suffix="> ", default="", show_default=False)
            word = command.strip().lower()
            if word in ("quit", "q", "exit"):
                click.echo(f"stopped{f'; the game is saved in {out}' if out else ''}")
                return
            if word in ("legal", "?", "help"):
                click.echo("  " + "\n  ".join(game.legal(seat)))
                continue
            if word in ("show", ""):
                continue
        try:
            records = game.play(seat, command)
        except (bs.IllegalCommand, bs.InvalidCommand, bs.AmbiguousCommand) as exc:
            click.echo(f"  not allowed: {exc}")
            continue
        for rec in records:
            click.echo(f"  {bs.describe(game, rec)}")
        if out:
            bs.save_game(game, out, settled=True)
    click.echo(game.decider.render(game.decider.view(game.state, None), None))
    click.echo(_outcome_text(game, game.outcome()))
