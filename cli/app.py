"""``boardstate``: create, play, exchange, replay and verify games.

The click group and its one-line usage errors; the commands live by family: setting up
(``setting_up``: modules, new, join, migrate), moves (``moves``: move, undo, apply, inspect,
export), looking (``looking``: show, legal, replay, log, view), checking (``checking``: verify,
check), and ``play``, ``board``, ``key`` and ``judge`` in their own files."""

from __future__ import annotations

import sys

import click

import boardstate as bs

from . import batch, checking, looking, moves, setting_up
from ._errors import BAD_INPUT, fail
from .board import board
from .bots import hint
from .games import games
from .judge import judge
from .key import key
from .play import play


class _Group(click.Group):
    """Usage errors exit 2 with one line (click's default prints a usage block)."""

    def main(self, *args, **kwargs):
        kwargs.setdefault("standalone_mode", True)
        try:
            return super().main(
                *args,
                standalone_mode=False,
                **{k: v for k, v in kwargs.items() if k != "standalone_mode"},
            )
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help())
            sys.exit(0)
        except click.UsageError as exc:
            hint = (
                f" (try 'boardstate {exc.ctx.command_path.split(' ', 1)[1]} --help')"
                if exc.ctx and " " in exc.ctx.command_path
                else " (try 'boardstate --help')"
            )
            fail(f"usage: {exc.format_message()}{hint}", BAD_INPUT)
        except click.ClickException as exc:
            fail(exc.format_message(), exc.exit_code or BAD_INPUT)
        except click.Abort:
            fail("aborted", BAD_INPUT)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(bs.__version__, prog_name="boardstate")
def cli():
    """Play, record, replay and referee board and card games.

    Exit status: 0 done, 1 rejected by the rules or verification failed, 2 bad usage or
    unreadable input.
    """


def main() -> None:
    cli.main(prog_name="boardstate")


for command in (
    setting_up.modules_cmd,
    setting_up.new,
    setting_up.join,
    setting_up.migrate,
    moves.move,
    moves.undo,
    moves.apply,
    moves.inspect,
    moves.export,
    looking.show,
    looking.legal,
    looking.replay,
    looking.log,
    looking.view_cmd,
    games,
    checking.verify,
    checking.check,
    play,
    hint,
    batch.selfplay,
    board,
    key,
    judge,
):
    cli.add_command(command)
