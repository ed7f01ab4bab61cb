"""``boardstate play``: a game at the terminal, hot seat or against bots."""

from __future__ import annotations

import os
import random
import sys

import click

import boardstate as bs
from boardstate.bots import Bot

from ._common import NO_FORCE, OutputFile, claim_output, parse_options
from ._errors import BAD_INPUT, fail, one_line_errors


@click.command()
@click.argument("module")
@click.option("--player", "players", multiple=True, help="A player (seat order).")
@click.option(
    "--bot",
    "bots",
    multiple=True,
    metavar="NAME[:LEVEL]",
    help="A player a bot plays for; LEVEL: random (the default), easy, normal or strong.",
)
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE")
@click.option("--seed", help="Seed text (default: random).")
@click.option("-o", "--out", type=OutputFile(), help="Save the game here as it goes.")
@one_line_errors
def play(module, players, bots, options, seed, out):
    """Play at the terminal: MODULE starts a new game, or a game FILE resumes it (saved into
    FILE as it goes).  Each human types commands at their prompt.

    Type 'legal' for the allowed commands, 'show' for the table, 'undo' to take back your last
    move (and the bots' answers), 'quit' to stop.  Sealed choices are typed without echo and
    shown to nobody, never written to the file before everyone has chosen; with two humans or
    more, a screen asks to pass the terminal between them.
    """
    if os.path.isfile(module):  # resume a stopped game (a name too long is no file)
        if players or options or seed:
            fail(
                "error: a game file is resumed as it is: no --player, --option or --seed", BAD_INPUT
            )
        if out is not None and out != module:  # (a new name, as for a new game: never a file)
            claim_output(out, reading=[module], refused=NO_FORCE)
        with bs.locked(module, as_path=False):
            game = bs.load_checked(module)
            read = _identity(module)
        if game.header.seed is None:
            fail(
                f"error: {module} holds no seed (a view, or a peer or hosted player's copy): "
                "play resumes the games it deals itself; play this one with move and apply",
                BAD_INPUT,
            )
        save = _Saves(out or module, read if out in (None, module) else None)
    else:
        if not players:
            fail("error: name the players (--player NAME, in seat order)", BAD_INPUT)
        mod = bs.get_module(module)
        if out:
            claim_output(out, refused=NO_FORCE)
        game = bs.Game.new(
            mod, players, parse_options(options), seed=None if seed is None else seed.encode()
        )
        save = _Saves(out, None)
    out = save.path
    bot_seats = _bots(game, bots, seed)
    humans = [s for s in range(len(game.players)) if s not in bot_seats]
    save(game)
    last_human = None
    while game.outcome() is None:
        seat = game.to_act()[0]
        name = game.players[seat]
        if seat in bot_seats:
            command = bot_seats[seat].choose(game, seat)
        else:
            if len(humans) > 1 and last_human is not None and seat != last_human:
                if _pass_terminal(name).strip().lower() in ("quit", "q", "exit"):
                    click.echo(f"stopped{f'; the game is saved in {out}' if out else ''}")
                    return
            last_human = seat
            click.echo("")
            click.echo(game.decider.render(game.decider.view(game.state, seat), seat))
            sealed = not game.open_move_due() and not game.reveal_due()
            command = _ask(f"{name}{' (sealed: not shown)' if sealed else ''}> ", sealed)
            word = command.strip().lower()
            if word in ("quit", "q", "exit"):
                click.echo(f"stopped{f'; the game is saved in {out}' if out else ''}")
                return
            if word in ("legal", "?", "help"):
                click.echo("  " + "\n  ".join(game.legal(seat)))
                continue
            if word in ("show", ""):
                continue
            if word == "undo":
                _undo(game, seat, save)
                continue
        try:
            records = game.play(seat, command)
        except (bs.IllegalCommand, bs.InvalidCommand, bs.AmbiguousCommand) as exc:
            click.echo(f"  not allowed: {exc}")
            continue
        for rec in records:
            click.echo(f"  {bs.describe(game, rec)}")
        save(game)
    click.echo(game.decider.render(game.decider.view(game.state, None), None))
    click.echo(bs.outcome_line(game.players, game.outcome()))


class _Saves:
    """Where play saves the game as it goes (``path``; None: nowhere), and only over the file
    it read or last wrote: each save holds the game file's lock and first checks that nobody
    changed the file meanwhile (a move or an apply into the same file: play wrote over it, and
    that record was lost)."""

    def __init__(self, path: str | None, read: tuple | None) -> None:
        self.path, self.last = path, read

    def __call__(self, game) -> None:
        if self.path is None:
            return
        if self.last is None:  # (a new file, claimed as new: no other command knows it yet)
            bs.save_game(game, self.path, settled=True)
            self.last = _identity(self.path)
            return
        with bs.locked(self.path, as_path=False):  # (its identity too: a write after is not ours)
            if _identity(self.path) != self.last:
                fail(
                    f"error: {self.path} was changed by another command while play ran; "
                    "not writing over it (the moves since were not saved: play it again)",
                    BAD_INPUT,
                )
            bs.save_game(game, self.path, settled=True)
            self.last = _identity(self.path)


def _identity(path: str) -> tuple:
    """The file at ``path`` as play last saw it: a write of another command changes it (a new
    file renamed over it, or its size or times; the change time, which no program can set,
    also when a writer in place kept the size and put the modification time back)."""
    found = os.stat(path)
    return found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns


def _ask(prompt: str, sealed: bool) -> str:
    """A command typed at ``prompt``; a sealed one is not echoed.  Read from anything but a
    terminal, there is no echo to hide: a line is read as it comes (getpass printed Python's
    GetPassWarning, its source line included, at every sealed prompt)."""
    if not (sealed and not sys.stdin.isatty()):
        return click.prompt(
            prompt, prompt_suffix="", default="", show_default=False, hide_input=sealed
        )
    click.echo(prompt, nl=False)
    line = sys.stdin.readline()
    if not line:
        raise click.Abort()
    return line.rstrip("\r\n")


def _bots(game, given, seed) -> dict:
    """Seat -> its bot, from ``--bot NAME[:LEVEL]`` (each bot seeded from --seed, else at
    random)."""
    base = random.Random(seed).randrange(1 << 62)
    out = {}
    for text in given:
        name, colon, level = text.rpartition(":")
        if text in game.players or not colon:  # (a name alone: the default level)
            name, level = text, ""
        if name not in game.players:
            fail(
                f"error: --bot {text}: {name!r} is not a player of the game (players: "
                f"{', '.join(game.players)})",
                BAD_INPUT,
            )
        if game.seat(name) in out:  # (the last one won, without a word)
            fail(f"error: --bot {text}: {name} is given --bot twice", BAD_INPUT)
        try:
            out[game.seat(name)] = Bot(level or "random", base + game.seat(name))
        except bs.InvalidCommand as exc:
            fail(f"error: --bot {text}: {exc}", BAD_INPUT)
    return out


def _pass_terminal(name: str) -> str:
    """A screen between two humans at one terminal: the next one's table stays unseen until
    they are at the keyboard ('quit' stops here too)."""
    click.echo("\n" * 40)
    return click.prompt(
        f"Pass the terminal to {name}. {name}, press Enter when ready",
        default="",
        show_default=False,
        prompt_suffix=" ",
    )


def _undo(game, seat: int, save) -> None:
    """Take back ``seat``'s last command and what came after it (the bots' answers), unless
    another copy already holds it (a game resumed from a file that was mailed)."""
    shared = game.header.shared if game.header.shared is not None else 0
    typed = (bs.Kind.MOVE, bs.Kind.COMMIT)  # (a reveal follows its commitment by itself)
    mine = [r.seq for r in game.records if r.actor == seat and r.kind in typed and r.seq > shared]
    if not mine:
        click.echo("  nothing to undo (no move of yours that the file has not sent)")
        return
    count = game.seq - mine[-1]
    game.truncate(mine[-1])
    click.echo(f"  undone: {count} record{'s' if count != 1 else ''}")
    save(game)
