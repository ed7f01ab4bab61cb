"""Moves: ``move`` (a command, appended and written as a move file or a request for the judge),
``apply`` (the other players' move files) and ``inspect`` (a move file before applying it);
``undo`` and ``export`` are ``own_records``'."""

from __future__ import annotations

import click

import boardstate as bs

from ._common import (
    beside,
    echo_after,
    echo_records,
    own_seat,
    sign_as,
    write_reply,
    write_request,
)
from ._errors import BAD_INPUT, exit_code, fail, one_line_errors

MOVE_PATHS = click.Path(dir_okay=False, allow_dash=True)  # (move files, mails; '-': stdin)


def split_commands(words: tuple[str, ...]) -> list[str]:
    """The command words as given (quoted or not), one or more commands separated by ';'."""
    text = " ".join(words)
    commands = [c.strip() for c in text.split(";")]
    if not any(commands):
        raise click.UsageError("no command given (give one, or --bot LEVEL)")
    if not all(commands):
        fail(f"error: an empty command in {text!r} (commands are separated by ';')", BAD_INPUT)
    return commands


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("command", nargs=-1)
@click.option("--as", "player", required=True, help="The player making the move.")
@click.option("--bot", "level", help="Let a bot (easy, normal, strong) choose the command.")
@click.option(
    "-o",
    "--out",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="The move file to mail ('-': standard output; default: FILE-NNNN-PLAYER.msgpack).",
)
@click.option("--force", is_flag=True, help="Replace an existing file at the output path.")
@click.option("--text", is_flag=True, help="Write the move file as text to paste into a mail.")
@click.option("--key", help="Peer mode: your signing key's name (default: found by the game).")
@one_line_errors
def move(file, command, player, level, out, force, text, key):
    """Check COMMAND, append it to FILE, and write the move file to mail.

    The words need no quotes (move g.msgpack --as ann play luke 5); several commands, one
    turn, are separated by ';' (move g.msgpack --as ann "move dooku e4; draw; draw").  Either
    all of them stand or none does.  The game file is locked for the whole command, and the
    move file is written before the game: if it cannot be written, the game does not hold the
    move either.  With --bot LEVEL and no COMMAND, a bot chooses it from the player's view.
    """
    if level and command:
        fail("error: give a command or --bot, not both", BAD_INPUT)
    commands = split_commands(command) if not level else []
    with bs.locked(file, as_path=False):
        game = bs.load_checked(file)
        if level:
            from .bots import bot_command  # (here: the bots' search is imported for --bot only)

            commands = [bot_command(game, player, level)]
        if out is not None and out != "-":
            bs.check_output(out, force=force, reading=[file], as_path=False)
        seat = own_seat(game, file, player)
        sign_as(game, key)
        if game.trust.moves_by_request:  # (a request for the judge; the copy waits for it)
            if len(commands) > 1:
                fail("error: one command per request in a hosted game", BAD_INPUT)
            request = game.request(seat, commands[0])
            path = out or beside(file, f"-{game.seq:04d}.request")
            write_request(request, path, reading=[file], text=text, force=force)
            click.echo(bs.next_line(game), err=out == "-")  # (sent: waiting for the judge)
            return
        base = game.mail_base(game.last_seq)
        before = game.state
        records = []
        for given in commands:
            try:
                records += game.play(seat, given)
            except bs.BoardstateError as exc:
                if len(commands) > 1:
                    exc.reason = f"{given!r} (command {commands.index(given) + 1} of {len(commands)}, so none was made): {exc.reason}"
                raise
        game.keep_in_canonical_order()
        write_reply(game, base, file, out, always=True, reading=[file], player=player, text=text)
        bs.save_game(game, file)
    echo = click.echo if out != "-" else lambda line: click.echo(line, err=True)
    echo_records(game, records, seat, echo)
    echo_after(game, seat, echo, before=before)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("movefiles", nargs=-1, required=True, metavar="MOVEFILE...", type=MOVE_PATHS)
@click.option(
    "-o",
    "--out",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Where to write your automatic reply (your due reveals), if any ('-': standard output).",
)
@click.option("--force", is_flag=True, help="Replace an existing game file at the output path.")
@click.option("--text", is_flag=True, help="Write the reply as text to paste into a mail.")
@click.option("--key", help="Peer mode: your signing key's name (default: found by the game).")
@click.option(
    "--protocol",
    is_flag=True,
    help="Show each join and share of the randomness (by default a run of them is one line).",
)
@one_line_errors
def apply(file, movefiles, out, force, text, key, protocol):
    """Referee the moves of each MOVEFILE and append them to FILE.

    A MOVEFILE is a move file, or a mail's text or a saved mail: every armored move in it is
    read, quoted ("> ") or not, above or below the text.  The moves are refereed in the order
    their records follow one another, whatever order they come in; one already in the game is
    skipped, one refused is listed with its reason and the others still apply.  FILE is locked
    for the whole command and written once, at the end (the reply first, so a failed write
    leaves the game as it was)."""
    reading = [file, *movefiles]
    with bs.locked(file, as_path=False):
        game = bs.load_checked(file)
        before, viewer = game.state, game.header.viewer
        if out is not None and out != "-":
            bs.check_output(out, force=force, reading=reading, as_path=False)
        mailed = [move for path in movefiles for move in bs.read_mailed(path)]
        sign_as(game, key)  # (the reveals and deals due from this copy's player are signed)
        unsettled = game.mail_base(game.last_seq)
        delivery = bs.referee_mailed(game, mailed, prepare=lambda copy: sign_as(copy, key))
        game = delivery.game
        rides = False
        if delivery.applied:
            base = game.last_seq
            mine = game.add_owed()  # our reveals and deals, due now
            if mine:  # (in canonical order; the reply carries what this copy has not settled)
                game.keep_in_canonical_order()
                base = min(base, unsettled)
                rides = game.reply_may_wait()
            write_reply(game, base, file, out, always=True, reading=reading, text=text)
            bs.save_game(game, file)
    echo = click.echo if out != "-" else lambda line: click.echo(line, err=True)
    _each_move(delivery, echo)
    if not delivery.applied:
        raise _refusal(delivery, movefiles)
    first = _first(delivery)  # (ours too: the reveals and deals due now)
    echo_records(game, game.records[first:], viewer, echo, protocol=protocol)
    echo_after(game, None, echo, before=before)
    if rides and out != "-":
        echo(
            f"{game.players[game.header.viewer]} acts next and nobody waits for this reply "
            "before: it may go in one mail with your move file (apply reads both)"
        )
    if delivery.refused:
        raise _refusal(delivery, movefiles)


def _each_move(delivery: bs.Delivery, echo, *, would: bool = False) -> None:
    """One line a move, when there are several: what became of it (or would), and why."""
    if len(delivery.outcomes) < 2:
        return
    for outcome in delivery.outcomes:
        name, span = outcome.mailed.name, outcome.span
        if span is not None:
            name += (
                f" (record {span[0]})" if span[0] == span[1] else f" (records {span[0]}-{span[1]})"
            )
        if outcome.status == "applied":
            echo(f"{name}: {'would apply' if would else 'applied'}")
        elif outcome.status == "skipped":
            echo(f"{name}: skipped: already in this game")
        else:
            why = str(outcome.error).removeprefix(f"{outcome.mailed.name}: ")
            echo(f"{name}: {'would be refused' if would else 'refused'}: {why}")


def _first(delivery: bs.Delivery) -> int:
    """The first record the moves added to the game, or put in order (a merge)."""
    records = [rec.seq for outcome in delivery.applied for rec in outcome.records]
    return min(records, default=len(delivery.game.records))


def _refusal(delivery: bs.Delivery, movefiles) -> bs.BoardstateError:
    """The error to end with: the one move's own, as ever; of several, the first of the most
    severe (unreadable before refused), naming the move and how many more were refused; or,
    when every move was in the game already, that nothing was new."""
    outcomes, refused = delivery.outcomes, delivery.refused
    if len(outcomes) == 1:
        return outcomes[0].error
    if not refused:
        return bs.MoveRefused(
            f"stale: every move of {' '.join(movefiles)} ({len(outcomes)}) is already in this game",
            code="stale",
        )
    worst = max(refused, key=lambda outcome: exit_code(outcome.error))
    error, name = worst.error, worst.mailed.name
    if name not in error.reason:
        error.reason = f"{name}: {error.reason}"
    if len(refused) > 1:
        error.reason += f" ({len(refused)} of {len(outcomes)} moves refused, each listed above)"
    return error


@click.command()
@click.argument("files", nargs=-1, required=True, metavar="MOVEFILE... [GAME]", type=MOVE_PATHS)
@one_line_errors
def inspect(files):
    """Show what move files hold before applying them.

    Every move of each MOVEFILE is shown (a move file, or a mail's text or a saved mail with
    armored moves in it, quoted or not).  With the game file named last, say what each record
    does and whether each move would apply, in the order apply takes them; nothing is written."""
    mailed = [move for path in files for move in bs.read_mailed(path)]
    game_raw = None
    last = mailed[-1].raw if len(files) > 1 and len(mailed) > 0 else None
    if last is not None and last.header.kind == "game" and mailed[-1].name == files[-1]:
        game_raw, mailed = last, mailed[:-1]
    for move in mailed:
        if move.raw is not None and move.raw.header.kind != "move":
            fail(f"error: {move.name} is a game file, not a move file", BAD_INPUT)
    if len(mailed) == 1 and mailed[0].error is not None:
        raise mailed[0].error
    if game_raw is None:
        for move in mailed:
            _show_move(move, len(mailed) > 1)
        click.echo("(name the game file too, to see the moves in words and check them)")
    else:
        _inspect_against(bs.load_checked(game_raw), mailed, files[-1])
    unreadable = [move for move in mailed if move.error is not None]
    if unreadable:
        fail(
            f"error: {unreadable[0].error} ({len(unreadable)} unreadable, listed above)", BAD_INPUT
        )


def _show_move(move: bs.Mailed, named: bool) -> None:
    """A move's header and its records, without the game (seats and kinds, no words)."""
    prefix = f"{move.name}: " if named else ""
    if move.error is not None:
        click.echo(f"{prefix}unreadable: {move.error}")
        return
    header = move.raw.header
    try:
        records = move.raw.records
    except bs.BoardstateError as exc:
        if not named:
            raise
        click.echo(f"{prefix}unreadable: {exc}")
        return
    click.echo(
        f"{prefix}move file for {header.module} {header.module_version}, game "
        f"{header.game_id.hex()[:12]}: {len(records)} record(s) after record {header.base_seq}"
    )
    kinds = {0: "setup", 1: "move", 2: "sealed choice", 3: "reveal"}
    for row in records:
        seq, kind, actor, command = _peek(row[0])
        said = f": {command}" if command else ""
        click.echo(f"record {seq}: seat {actor}, {kinds.get(kind, kind)}{said}")


def _inspect_against(game: bs.Game, mailed: list, game_file: str) -> None:
    """Each move refereed onto the game in memory, as apply would: what it does, or why not."""
    delivery = bs.referee_mailed(game, mailed)
    if len(mailed) == 1 and not delivery.applied:
        click.echo(f"would be refused: {delivery.outcomes[0].error}")
        return
    _each_move(delivery, click.echo, would=True)
    game = delivery.game
    if delivery.applied:
        for rec in game.records[_first(delivery) :]:
            click.echo(f"record {rec.seq}: {bs.describe(game, rec)}")
    if not delivery.refused:
        click.echo(f"applies cleanly to {game_file} (nothing was written)")
    else:
        click.echo(f"{len(delivery.refused)} would be refused (nothing was written)")


def _peek(body: bytes) -> tuple:
    """``(seq, kind, actor, command)`` of a record body, without its game's event table."""
    import msgpack

    try:
        seq, kind, actor, command = msgpack.unpackb(body, raw=False, use_list=False)[:4]
    except Exception:  # (a damaged body: say so, do not fail)
        return "?", "damaged", "?", ""
    return seq, kind, actor, command if isinstance(command, str) else ""
