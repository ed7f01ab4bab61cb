"""``boardstate judge``: run the hosted mode's judge (docs/trust.md, "Hosted mode").

The judge holds every game's seed and full log in its store (SQLite by default, PostgreSQL by
URL), reads requests from an inbox (a Maildir, IMAP, or a plain directory) and answers through
an outbox (SMTP, or a directory).  Players play with the ordinary commands: ``join`` and
``move`` write requests for the judge, ``apply`` takes its move files.
"""

from __future__ import annotations

import contextlib
import time

import click

import boardstate as bs

from ._common import NO_FORCE, OutputFile, claim_output, parse_options
from ._errors import BAD_INPUT, fail, one_line_errors

_STORE = click.option(
    "--store",
    default="judge.sqlite",
    show_default=True,
    help="The judge's store: a SQLite file, or a postgresql:// URL.",
)
_KEY = click.option("--key", required=True, help="The judge's signing key (boardstate key new).")


@click.group()
def judge() -> None:
    """A judge that referees hosted games by mail: new, run, publish, list, site."""


@contextlib.contextmanager
def _judge(store: str, key: str, *, create: bool = False):
    """The judge on ``store``; only ``judge new`` makes a store that is not there.  The store
    is closed when the command ends, however it ends (the process ends without the
    interpreter's teardown: a SQLite store left open keeps its -wal and -shm files)."""
    from boardstate.judge import Judge, open_store
    from boardstate.keys import load_private

    with open_store(store, create=create) as opened:
        yield Judge(opened, load_private(key))


@judge.command("new")
@click.argument("module")
@click.option(
    "--player",
    "players",
    multiple=True,
    required=True,
    metavar="NAME=ADDRESS",
    help="A player and their mail address (in seat order).",
)
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A module option.")
@click.option(
    "--mail",
    type=click.Choice(["digest", "every-record"]),
    default="digest",
    show_default=True,
    help="When players are mailed: 'digest', when the game needs them (every record since "
    "their last mail in one move file) and at the end; 'every-record', every record as it "
    "is made.",
)
@click.option(
    "--deadline",
    metavar="TIME",
    help="A time per move (e.g. 3d, 12h, 90m): a reminder before it, then --at-deadline.",
)
@click.option(
    "--at-deadline",
    "policy",
    type=click.Choice(bs.DEADLINE_POLICIES),
    default="wait",
    show_default=True,
    help="At the deadline: 'wait' (tell the late player, and wait), 'forfeit' (they lose), "
    "'bot' (a bot moves for them from their view).",
)
@click.option(
    "--remind",
    metavar="TIME",
    help="Remind the late player this long before the deadline "
    "(default: a quarter of the time per move; 0s: no reminder).",
)
@click.option(
    "--bot-level",
    type=click.Choice(bs.BOT_LEVELS),
    help="The bot's level with --at-deadline bot (default: easy).",
)
@_STORE
@_KEY
@one_line_errors
def judge_new(module, players, options, mail, deadline, policy, remind, bot_level, store, key):
    """Create a hosted game and queue each player's invitation (sent by 'judge run')."""
    pairs = []
    for given in players:
        name, sep, address = given.partition("=")
        if not sep or not name.strip() or "@" not in address:
            fail(f"error: --player {given!r}: expected NAME=ADDRESS (a mail address)", BAD_INPUT)
        pairs.append((name.strip(), address.strip()))
    opts = parse_options(options)
    from boardstate.judge import Deadline, parse_duration

    time_per_move = None
    if deadline is not None:
        time_per_move = Deadline.of(
            parse_duration(deadline),
            policy,
            None if remind is None else parse_duration(remind, "--remind"),
            bot_level or "",
        )
    elif remind is not None or bot_level is not None:
        fail("error: --remind and --bot-level go with --deadline", BAD_INPUT)
    with _judge(store, key, create=True) as referee:
        game_id = referee.create(module, pairs, opts, mail=mail, deadline=time_per_move)
    said = f"; deadline: {time_per_move.words()}" if time_per_move else ""
    click.echo(
        f"created game {game_id.hex()}: invitations queued for {len(pairs)} players "
        f"(mail: {mail}{said})"
    )


@judge.command("run")
@_STORE
@_KEY
@click.option(
    "--inbox", required=True, help="maildir:PATH, dir:PATH or imap[s]://USER:PASS@HOST/FOLDER."
)
@click.option("--outbox", required=True, help="smtp[s]://[USER:PASS@]HOST:PORT or dir:PATH.")
@click.option(
    "--from", "sender", default="judge@localhost", show_default=True, help="The judge's address."
)
@click.option("--once", is_flag=True, help="One pass over the inbox, then stop.")
@click.option(
    "--poll",
    default=10.0,
    show_default=True,
    callback=lambda ctx, param, value: _seconds(value, 86400),
    help="Seconds between passes.",
)
@one_line_errors
def judge_run(store, key, inbox, outbox, sender, once, poll):
    """Judge every request that arrives; answer each player with what they may see."""
    from boardstate.judge import open_inbox, open_outbox, serve_once

    with _judge(store, key) as referee:
        source, sink = open_inbox(inbox), open_outbox(outbox, sender)
        while True:
            said = serve_once(referee, source, sink).line()
            if said:
                click.echo(said)
            elif once:
                click.echo("nothing to do: no new mail, none queued")
            if once:
                return
            time.sleep(poll)


def _seconds(value: float, most: float) -> float:
    """A number of seconds from 0 to ``most`` (NaN is none: time.sleep refused it, and a
    negative number, with an internal error once the first pass was done)."""
    if not 0 <= value <= most:
        raise click.BadParameter(f"{value} is not a number of seconds from 0 to {most:g}")
    return value


def _game_id(referee, given: str) -> bytes:
    found = [g for g in referee.store.game_ids() if g.hex().startswith(given.lower())]
    if len(found) != 1:
        fail(
            f"error: {'no' if not found else 'more than one'} game {given!r} in the store",
            BAD_INPUT,
        )
    return found[0]


@judge.command("publish")
@click.argument("game")
@_STORE
@_KEY
@click.option("-o", "--out", required=True, type=OutputFile(), help="Where to write the log.")
@one_line_errors
def judge_publish(game, store, key, out):
    """Write a finished game's full log, seed included, for anyone to audit
    ('boardstate verify LOG --with A-COPY ...')."""
    with _judge(store, key) as referee:
        claim_output(out, refused=NO_FORCE, checked_first=True)
        bs.atomic_write(out, referee.published(_game_id(referee, game)))
    click.echo(
        f"wrote {out}: the full log and the seed; audit with 'boardstate verify {out} --with COPY...'"
    )


@judge.command("list")
@_STORE
@one_line_errors
def judge_list(store):
    """The store's games: id, module, players, records, where each stands (waiting for joins,
    in play and whose turn, or over and the result), since when, and in a game with a deadline
    when the mover's time runs out and what happens then."""
    from boardstate.judge import game_lines, open_store

    with open_store(store, create=False) as opened:
        for line in game_lines(opened):
            click.echo(line)


@judge.command("site")
@_STORE
@click.option("-o", "--out", required=True, type=OutputFile(folder=True), help="The site's folder.")
@click.option("--title", default="Club games", show_default=True, help="The index's title.")
@click.option("--rewrite", is_flag=True, help="Write every game page again, up to date or not.")
@one_line_errors
def judge_site(store, out, title, rewrite):
    """Write the store's games as a static web site in OUT: an index (newest first: players,
    where each stands, the result) and each game's replay page as a spectator sees it (no
    hidden card, choice or seed).  OUT must be new, empty, or a site this command wrote;
    again, it brings the site up to date."""
    from boardstate.judge import open_store, write_site

    with open_store(store, create=False) as opened:
        click.echo(write_site(opened, out, title=title, rewrite=rewrite).line())
