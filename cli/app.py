"""``boardstate``: create, play, exchange, replay and verify games."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

import boardstate as bs

from ._errors import BAD_INPUT, RULES_REJECTED, fail, one_line_errors


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


def _seat(game: bs.Game, name: str | None) -> int | None:
    return None if name is None else game.seat(name)


def _options(pairs) -> dict:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise bs.OptionError(f"option {pair!r} is not KEY=VALUE", code="bad-option")
        out[key.strip()] = value.strip()
    return out


# --------------------------------------------------------------------------------- modules
@cli.command("modules")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@one_line_errors
def modules_cmd(as_json):
    """List the installed games, their editions and options."""
    mods = bs.installed_modules()
    for name, why in bs.broken_modules().items():
        click.echo(f"boardstate: warning: module {name!r} did not load ({why})", err=True)
    if as_json:
        click.echo(
            json.dumps(
                [
                    {
                        "id": m.spec.id,
                        "name": m.spec.name,
                        "version": m.spec.version,
                        "players": [m.spec.min_players, m.spec.max_players],
                        "options": [
                            {
                                "key": o.key,
                                "default": o.default,
                                "choices": list(o.choices),
                                "help": o.help,
                            }
                            for o in m.spec.options
                        ],
                    }
                    for m in mods.values()
                ],
                indent=2,
            )
        )
        return
    if not mods:
        click.echo("no game modules installed")
    for m in mods.values():
        s = m.spec
        click.echo(f"{s.id}  {s.name} {s.version}  ({s.min_players}-{s.max_players} players)")
        if s.summary:
            click.echo(f"    {s.summary}")
        for o in s.options:
            choices = f" [{' | '.join(o.choices)}]" if o.choices else ""
            default = f" (default: {o.default})" if o.default is not None else ""
            click.echo(f"    --option {o.key}=...{choices}{default}  {o.help}")


# --------------------------------------------------------------------------------- new
@cli.command()
@click.argument("module")
@click.option("--player", "players", multiple=True, required=True, help="A player (in seat order).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A module option.")
@click.option("--seed", help="Seed text (default: random).  Open mode: it is in the file.")
@click.option(
    "-o",
    "--out",
    "out",
    required=True,
    type=click.Path(dir_okay=False),
    help="The game file to write.",
)
@click.option("--force", is_flag=True, help="Replace an existing game file at the output path.")
@click.option(
    "--trust",
    type=click.Choice(["open", "peer"]),
    help="open: the seed is in the file (hot seat, bots, teaching); peer: no seed, every "
    "player joins and adds randomness (by mail; the default with --as).",
)
@click.option("--as", "player", help="Peer mode: you, the player whose copy FILE is.")
@click.option("--key", help="Peer mode: your signing key's name (default: the one named as you).")
@click.option(
    "--invite",
    type=click.Path(dir_okay=False),
    help="Peer mode: the file the others join from (default: OUT's name with -invite).",
)
@one_line_errors
def new(module, players, options, seed, out, force, trust, player, key, invite):
    """Create a game file (with --as: your copy of a peer game, and the invitation to mail)."""
    mod = bs.get_module(module)
    trust = trust or ("peer" if player else "open")
    if trust == "peer" and not player:
        fail("error: a peer game is made by one of its players: add --as PLAYER", BAD_INPUT)
    if trust == "open" and (player or key or invite):
        fail("error: --as, --key and --invite make a peer game (--trust peer)", BAD_INPUT)
    paths = [out] + ([invite or _invite_name(out)] if trust == "peer" else [])
    for path in paths:
        if Path(path).exists() and not force:
            fail(
                f"error: {path} exists; not overwriting it (choose another name, or add --force)",
                BAD_INPUT,
            )
        bs.check_output(path, force=force)
    if trust == "peer":
        if player not in players:
            fail(f"error: --as {player}: not one of the players ({', '.join(players)})", BAD_INPUT)
        signing = _load_key(key or player)
        game = bs.Game.new(
            mod, players, _options(options), trust="peer", seat=players.index(player)
        )
        game.signer = signing.sign
        game.join(game.header.viewer, _public(signing))
        bs.atomic_write(paths[1], bs.encode_public(game))
        game.mark_shared(game.seq - 1)
        bs.save_game(game, out)
        click.echo(
            f"created {out}: your copy of a peer game of {mod.spec.name}, {', '.join(players)}"
        )
        click.echo(
            f"wrote {paths[1]}: send it to the other players, who join from it "
            f"('boardstate join {paths[1]} --as NAME -o THEIR-COPY')"
        )
        click.echo(game.waiting_text())
        return
    game = bs.Game.new(
        mod, players, _options(options), seed=None if seed is None else seed.encode()
    )
    bs.save_game(game, out)
    acting = ", ".join(game.players[s] for s in game.to_act())
    click.echo(f"created {out}: {mod.spec.name}, {', '.join(players)}; to act: {acting}")


def _invite_name(out: str) -> str:
    return str(Path(out).with_name(f"{Path(out).stem}-invite.msgpack"))


def _load_key(name: str):
    from boardstate.keys import load_private

    return load_private(name)


def _public(key) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def canonical_region(game: bs.Game) -> None:
    """A peer copy adding records keeps each step it has not settled with the others in
    canonical order (``boardstate._referee.canonical_region``)."""
    from boardstate._referee import canonical_region as in_order

    game.keep_canonical = game.header.peer
    in_order(game)


def _sign_as(game: bs.Game, key: str | None) -> None:
    """A peer game's copy signs its player's records: with ``key``, or the key in the keys
    folder whose public half is the one this player joined with (loaded when first used)."""
    game.keep_canonical = game.header.peer  # (each step it completes in canonical order)
    if not game.header.signed or game.header.viewer is None:
        return
    seat = game.header.viewer
    loaded = []

    def sign(data: bytes) -> bytes:
        if not loaded:
            loaded.append(_joined_key(game, seat, key))
        return loaded[0].sign(data)

    game.signer = sign


def _joined_key(game: bs.Game, seat: int, key: str | None):
    joined = game.keys.get(seat)
    if key is None:
        from boardstate.keys import keys_dir, parse_public

        folder = keys_dir()
        for pub in sorted(folder.glob("*.pub")) if folder.is_dir() else ():
            try:
                if parse_public(pub.read_text()) == joined:
                    key = pub.stem
                    break
            except (OSError, bs.BoardstateError):
                continue
        if key is None:
            key = game.players[seat]
    signing = _load_key(key)
    if joined is not None and _public(signing) != joined:
        fail(
            f"error: key {key} is not the key {game.players[seat]} joined this game with",
            BAD_INPUT,
        )
    return signing


@cli.command()
@click.argument("invite", type=click.Path(dir_okay=False))
@click.option("--as", "player", required=True, help="You: the player joining.")
@click.option(
    "-o",
    "--out",
    required=True,
    type=click.Path(dir_okay=False),
    help="Your copy of the game to write.",
)
@click.option("--key", help="Your signing key's name (default: the one named as you).")
@click.option(
    "--reply",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="The move file to mail back (default: OUT-NNNN-PLAYER.msgpack).",
)
@click.option("--text", is_flag=True, help="Write the reply as text to paste into a mail.")
@one_line_errors
def join(invite, player, out, key, reply, text):
    """Join a peer game from its invitation: your copy, and the move file to mail back."""
    import os

    import attrs

    if Path(out).exists():
        fail(f"error: {out} exists; not overwriting it (choose another name)", BAD_INPUT)
    bs.check_output(out, reading=[invite])
    game = bs.load_checked(invite)
    if not game.header.signed:
        fail(f"error: {invite} is not a peer or hosted game (nobody joins an open game)", BAD_INPUT)
    seat = game.seat(player)
    if seat in game.keys:
        fail(f"error: {player} has already joined this game", RULES_REJECTED)
    game.header = attrs.evolve(game.header, viewer=seat, peer_secret=os.urandom(32))
    game.mark_shared(game.seq - 1)
    base = game.seq - 1
    signing = _load_key(key or player)
    game.signer = signing.sign
    if game.header.hosted:  # (the judge makes the join record from the signed request)
        request = game.join_request(seat, _public(signing))
        path = reply or str(Path(out).with_name(f"{Path(out).stem}-join.request"))
        _write_request(request, path, reading=[invite], text=text, force=False)
        bs.save_game(game, out)
        click.echo(f"created {out}: your copy of a hosted game ({game.header.module})")
        return
    base = _unsettled(game, base)
    game.keep_canonical = True
    records = game.join(seat, _public(signing))
    canonical_region(game)
    _write_reply(game, base, out, reply, always=True, reading=[invite], player=player, text=text)
    bs.save_game(game, out)
    for rec in records:
        click.echo(f"record {rec.seq}: {bs.describe(game, rec, seat)}")
    _after(game, seat)


# --------------------------------------------------------------------------------- show / legal
def _status(game: bs.Game, seat: int | None) -> str:
    outcome = game.outcome()
    if outcome is not None:
        return _outcome_text(game, outcome)
    lines = []
    phase = game.phase()
    acting = game.to_act()
    if phase is not None:
        done = [game.players[s] for s in phase.commits]
        lines.append(
            "Sealed choices: "
            + (", ".join(done) + " committed" if done else "nobody has committed yet")
        )
        mine = game.pending_choice(seat) if seat is not None else None
        if mine:
            lines.append(f"Your sealed choice: {mine}")
    if game.due():
        lines.append(game.waiting_text()[0].upper() + game.waiting_text()[1:])
    lines.append("To act: " + ", ".join(game.players[s] for s in acting))
    return "\n".join(lines)


def _outcome_text(game: bs.Game, outcome) -> str:
    scores = ", ".join(f"{p} {s}" for p, s in zip(game.players, outcome.scores))
    winners = " and ".join(game.players[w] for w in outcome.winners)
    return f"Game over ({outcome.reason}). Scores: {scores}. Winner: {winners}"


def _json_status(game: bs.Game, seat: int | None) -> dict:
    outcome = game.outcome()
    phase = game.phase()
    data = {
        "records": game.seq,
        "to_act": [game.players[s] for s in game.to_act()],
        "sealed": None,
        "outcome": None,
    }
    if phase is not None:
        data["sealed"] = {
            "committed": [game.players[s] for s in phase.commits],
            "yours": game.pending_choice(seat) if seat is not None else None,
        }
    if outcome is not None:
        data["outcome"] = {
            "scores": dict(zip(game.players, outcome.scores)),
            "winners": [game.players[w] for w in outcome.winners],
            "reason": outcome.reason,
        }
    return data


def _view(game: bs.Game, state, seat: int | None):
    """What ``seat`` may see of ``state`` (None: a spectator, who holds no secret)."""
    return game.decider.view(state, seat)


def _show_svg(game: bs.Game, state, seat: int | None, file: str, out, force: bool) -> None:
    """The module's picture of the table (its optional ``svg(state, seat)``), printed or
    written to ``out``: never over the game file read, nor over an existing file without
    ``--force``."""
    draw = getattr(game.module.rules, "svg", None)
    if draw is None:
        fail(f"error: {game.module.spec.id} draws no pictures", BAD_INPUT)
    picture = draw(state, seat)
    if out is None:
        click.echo(picture, nl=False)
        return
    bs.check_output(out, force=force, reading=[file])
    if Path(out).exists() and not force:
        fail(
            f"error: {out} exists; not overwriting it (choose another name, or add --force)",
            BAD_INPUT,
        )
    bs.atomic_write(out, picture.encode("utf-8"))
    click.echo(f"wrote {out}", err=True)


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--as", "player", help="See the table as this player (default: a spectator).")
@click.option("--json", "as_json", is_flag=True)
@click.option(
    "--svg", "as_svg", is_flag=True, help="Draw the table as an SVG picture (games that draw)."
)
@click.option(
    "-o",
    "--out",
    type=click.Path(dir_okay=False),
    help="Write the SVG picture to this file (a name ending .svg needs no --svg).",
)
@click.option("--force", is_flag=True, help="With --out: replace an existing file.")
@one_line_errors
def show(file, player, as_json, as_svg, out, force):
    """Show the table as a player sees it (text, --json, or an --svg picture)."""
    if out is not None and str(out).lower().endswith(".svg") and not as_json:
        as_svg = True  # (show FILE --as P -o pos.svg)
    if as_json and as_svg:
        fail("usage: --json and --svg cannot be combined (try 'boardstate show --help')", BAD_INPUT)
    if out is not None and not as_svg:
        fail("usage: -o/--out writes the --svg picture; add --svg, or name it .svg", BAD_INPUT)
    game = bs.load_game(file)
    seat = _seat(game, player)
    state = _view(game, game.state, seat)
    if as_svg:
        _show_svg(game, state, seat, file, out, force)
        return
    if as_json:
        data = game.decider.to_json(state, seat)
        data["engine"] = _json_status(game, seat)
        click.echo(json.dumps(data, indent=2))
    else:
        click.echo(game.decider.render(state, seat))
        _report(game, game.state)
        click.echo(_status(game, seat))
        if _revision_note(game):
            click.echo(_revision_note(game))


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--as", "player", required=True, help="The player asking.")
@click.option("--json", "as_json", is_flag=True)
@one_line_errors
def legal(file, player, as_json):
    """List the commands a player may give now."""
    game = bs.load_game(file)
    seat = game.seat(player)
    commands = game.legal(seat)
    if as_json:
        click.echo(json.dumps({"player": player, "commands": commands}))
        return
    if not commands:
        acting = ", ".join(game.players[s] for s in game.to_act()) or "nobody (game over)"
        click.echo(f"{player} has nothing to do now (to act: {acting})")
    for c in commands:
        click.echo(c)


# --------------------------------------------------------------------------------- move / apply
def _unsettled(game: bs.Game, base: int) -> int:
    """The base of a peer copy's next move file: before the records it has not settled with
    the others (joins, deals, a sealed round's choices: they commute, and a merge may have put
    them in another order than the one they were mailed in), so the file carries them all."""
    return min(base, game.region_start - 1) if game.header.peer else base


def _write_reply(
    game: bs.Game,
    base_seq: int,
    file: str,
    out: str | None,
    *,
    always: bool,
    reading=(),
    player: str | None = None,
    text: bool = False,
) -> None:
    new = game.seq - 1 - base_seq
    if new <= 0:
        return
    if out is None and not always:
        return
    path = out
    if path is None:  # a default name that sorts: game, first record, player; never over a file
        who = f"-{player}" if player else ""
        suffix = ".txt" if text else ".msgpack"
        path = str(Path(file).with_name(f"{Path(file).stem}-{base_seq + 1:04d}{who}{suffix}"))
        if Path(path).exists():
            fail(
                f"error: {path} exists (a move file from before?): name another with -o/--out",
                BAD_INPUT,
            )
        bs.check_output(path, reading=reading)
    bs.save_moves(game, base_seq, path, text=text)
    if path == "-":
        return
    click.echo(
        f"wrote {path} ({new} record{'s' if new != 1 else ''}): send it to the other players"
    )


def _write_request(request, path: str, *, reading, text: bool, force: bool) -> None:
    """A hosted game's request for the judge, written atomically (or armored text)."""
    data = request.encode()
    if text:
        from boardstate._armor import armor

        said = request.command or ("a sealed choice" if request.opening else "join")
        data = armor(
            data, f"{request.module} {request.game_id.hex()[:12]}: request: {said}"
        ).encode()
    if path == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    if Path(path).exists() and not force:
        fail(f"error: {path} exists; not overwriting it (name another with -o/--out)", BAD_INPUT)
    bs.check_output(path, force=force, reading=reading)
    bs.atomic_write(path, data)
    click.echo(f"wrote {path}: mail it to the judge")


def split_commands(words: tuple[str, ...]) -> list[str]:
    """The command words as given (quoted or not), one or more commands separated by ';'."""
    text = " ".join(words)
    commands = [c.strip() for c in text.split(";")]
    if not any(commands):
        fail("error: no command given", BAD_INPUT)
    if not all(commands):
        fail(f"error: an empty command in {text!r} (commands are separated by ';')", BAD_INPUT)
    return commands


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("command", nargs=-1, required=True)
@click.option("--as", "player", required=True, help="The player making the move.")
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
def move(file, command, player, out, force, text, key):
    """Check COMMAND, append it to FILE, and write the move file to mail.

    The words need no quotes (move g.msgpack --as ann play luke 5); several commands, one
    turn, are separated by ';' (move g.msgpack --as ann "move dooku e4; draw; draw").  Either
    all of them stand or none does.  The game file is locked for the whole command, and the
    move file is written before the game: if it cannot be written, the game does not hold the
    move either.
    """
    commands = split_commands(command)
    with bs.locked(file):
        game = bs.load_checked(file)
        if out is not None and out != "-":
            bs.check_output(out, force=force, reading=[file])
        seat = game.seat(player)
        if game.header.signed and game.header.viewer != seat:
            fail(
                f"error: {file} is {game.players[game.header.viewer]}'s copy, not {player}'s",
                BAD_INPUT,
            )
        _sign_as(game, key)
        if game.header.hosted:  # (a request for the judge; this copy waits for its record)
            if len(commands) > 1:
                fail("error: one command per request in a hosted game", BAD_INPUT)
            request = game.request(seat, commands[0])
            path = out or str(Path(file).with_name(f"{Path(file).stem}-{game.seq:04d}.request"))
            _write_request(request, path, reading=[file], text=text, force=force)
            return
        base = _unsettled(game, game.seq - 1)
        records = []
        for given in commands:
            try:
                records += game.play(seat, given)
            except bs.BoardstateError as exc:
                if len(commands) > 1:
                    exc.reason = f"{given!r} (command {commands.index(given) + 1} of {len(commands)}, so none was made): {exc.reason}"
                raise
        canonical_region(game)
        _write_reply(game, base, file, out, always=True, reading=[file], player=player, text=text)
        bs.save_game(game, file)
    echo = click.echo if out != "-" else lambda line: click.echo(line, err=True)
    for rec in records:
        echo(f"record {rec.seq}: {bs.describe(game, rec, seat)}")
    _after(game, seat, echo)


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--as", "player", required=True, help="The player taking the move back.")
@one_line_errors
def undo(file, player):
    """Take back your last move(s) that no other copy holds yet: your own trailing records
    that no move file has carried (the file keeps count of what was mailed or received)."""
    with bs.locked(file):
        game = bs.load_checked(file)
        seat = game.seat(player)
        count = game.undoable(seat)
        if count == 0:
            fail(f"error: {_why_no_undo(game, seat)}", RULES_REJECTED)
        dropped = game.records[game.seq - count :]
        game.truncate(game.seq - count)
        bs.save_game(game, file)
    for rec in dropped:
        click.echo(f"undone: record {rec.seq}: {bs.describe(game, rec, seat)}")
    _after(game, seat)


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


def _report(game: bs.Game, state, echo=click.echo) -> None:
    line = game.decider.report(state)
    if line:
        echo(line)


def _after(game: bs.Game, seat: int | None, echo=click.echo) -> None:
    _report(game, game.state, echo)
    outcome = game.outcome()
    if outcome is not None:
        echo(_outcome_text(game, outcome))
    elif game.due():
        echo(game.waiting_text())
    else:
        echo("to act: " + ", ".join(game.players[s] for s in game.to_act()))


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("movefile", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "-o",
    "--out",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Where to write your automatic reply (your due reveals), if any ('-': standard output).",
)
@click.option("--force", is_flag=True, help="Replace an existing game file at the output path.")
@click.option("--text", is_flag=True, help="Write the reply as text to paste into a mail.")
@click.option("--key", help="Peer mode: your signing key's name (default: found by the game).")
@one_line_errors
def apply(file, movefile, out, force, text, key):
    """Referee a move file's records and append them to FILE (locked for the whole command;
    the reply is written before the game, so a failed write leaves the game as it was)."""
    with bs.locked(file):
        game = bs.load_checked(file)
        if out is not None and out != "-":
            bs.check_output(out, force=force, reading=[file, movefile])
        move_raw = bs.read_raw(movefile)
        _sign_as(game, key)  # (the reveals and deals due from this copy's player are signed)
        unsettled = _unsettled(game, game.seq - 1)
        records, partly = bs.referee_moves(game, move_raw)
        base = game.seq - 1
        mine = []
        while True:  # our reveals and deals, due now (a deal may let a reveal fall due)
            added = game.reveal_held() + game.deal_held()
            if not added:
                break
            mine += added
        if mine:  # (in canonical order; the reply carries what this copy has not settled)
            canonical_region(game)
            base = min(base, unsettled)
        _write_reply(game, base, file, out, always=True, reading=[file, movefile], text=text)
        bs.save_game(game, file)
    echo = click.echo if out != "-" else lambda line: click.echo(line, err=True)
    for rec in records:
        echo(f"record {rec.seq}: {bs.describe(game, rec)}")
    for rec in mine:  # our own reveals and deals, due now
        echo(f"record {rec.seq}: {bs.describe(game, rec)}")
    if partly:
        shown = ", ".join(map(str, partly))
        echo(
            f"note: record{'s' if len(partly) > 1 else ''} {shown} could be checked only in part "
            f"here (this copy does not hold the seed or another player's cards); the "
            f"end-of-game audit with the full log checks the rest"
        )
    _after(game, None, echo)


@cli.command()
@click.argument("movefile", type=click.Path(dir_okay=False, allow_dash=True))
@click.argument("game_file", required=False, type=click.Path(dir_okay=False))
@one_line_errors
def inspect(movefile, game_file):
    """Show what a move file holds before applying it (binary or armored text).  With the game
    file, say what each record does and whether it would apply; nothing is written."""
    move = bs.read_raw(movefile)
    header = move.header
    if header.kind != "move":
        fail(f"error: {movefile} is a game file, not a move file", BAD_INPUT)
    records = move.records
    click.echo(
        f"move file for {header.module} {header.module_version}, game "
        f"{header.game_id.hex()[:12]}: {len(records)} record(s) after record {header.base_seq}"
    )
    if game_file is None:
        kinds = {0: "setup", 1: "move", 2: "sealed choice", 3: "reveal"}
        for body, _hash, _openings in records:
            seq, kind, actor, command = _peek(body)
            said = f": {command}" if command else ""
            click.echo(f"record {seq}: seat {actor}, {kinds.get(kind, kind)}{said}")
        click.echo("(name the game file too, to see the moves in words and check them)")
        return
    game = bs.load_checked(game_file)
    try:
        applied, _partly = bs.referee_moves(game, move)
    except bs.BoardstateError as exc:
        click.echo(f"would be refused: {exc}")
        return
    for rec in applied:
        click.echo(f"record {rec.seq}: {bs.describe(game, rec)}")
    click.echo(f"applies cleanly to {game_file} (nothing was written)")


def _peek(body: bytes) -> tuple:
    """``(seq, kind, actor, command)`` of a record body, without its game's event table."""
    import msgpack

    try:
        seq, kind, actor, command = msgpack.unpackb(body, raw=False, use_list=False)[:4]
    except Exception:  # (a damaged body: say so, do not fail)
        return "?", "damaged", "?", ""
    return seq, kind, actor, command if isinstance(command, str) else ""


@cli.command()
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
    last = game.seq - 1
    if not -1 <= after < last:
        fail(
            f"error: --after {after} is out of range (records 0-{last}; the last has nothing "
            f"after it)",
            BAD_INPUT,
        )
    bs.check_output(out, force=force, reading=[file])
    count = bs.save_moves(game, after, out, text=text)
    click.echo(f"wrote {out}: records {after + 1}-{last} ({count})")


# --------------------------------------------------------------------------------- replay / verify
@cli.command()
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
    type=click.Path(dir_okay=False),
    help="Write the replay as one self-contained web page to this file (open it from disk).",
)
@click.option("--force", is_flag=True, help="With --html: replace an existing file.")
@one_line_errors
def replay(file, to, player, step, html_out, force):
    """Step through a game: Enter/n next, p back, j N jump, q quit.

    Without a terminal (or with --to) it prints the steps and stops.  With --html OUT it
    writes the replay as one web page instead (every position, the moves, the result; the
    arrow keys step), showing only what the player of --as may see (default: a spectator).
    """
    if html_out is None and force:
        fail("usage: --force replaces the --html page; add --html OUT", BAD_INPUT)
    if html_out is not None and (to is not None or step is not None):
        fail("usage: --html cannot be combined with --to or --step", BAD_INPUT)
    game = bs.load_game(file)
    seat = _seat(game, player)
    if html_out is not None:
        _write_html(game, seat, file, html_out, force)
        return
    states = _states(game)
    if _revision_note(game):
        click.echo(_revision_note(game))
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


def _write_html(game: bs.Game, seat: int | None, file: str, out, force: bool) -> None:
    """The replay page, written to ``out``: never over the game file read, nor over an
    existing file without ``--force``."""
    from boardstate._html import save_replay_html

    bs.check_output(out, force=force, reading=[file])
    if Path(out).exists() and not force:
        fail(
            f"error: {out} exists; not overwriting it (choose another name, or add --force)",
            BAD_INPUT,
        )
    save_replay_html(game, seat, out)
    click.echo(f"wrote {out}", err=True)


def _states(game: bs.Game) -> list:
    """The state after each record (to step back and forth)."""
    header = game.header
    evolve = game.decider.evolve
    state = game.decider.initial(header.options, header.players, header.revision)
    out = []
    for rec in game.records:
        for ev in rec.events:
            state = evolve(state, ev)
        out.append(state)
    return out


def _revision_note(game: bs.Game) -> str:
    """Which rules revision an older game is played under, and what changed since."""
    note = game.revision_note()
    return f"note: this game is {note}" if note else ""


def _show_step(game, states, i, seat) -> None:
    rec = game.records[i]
    click.echo(f"--- record {i}: {bs.describe(game, rec, seat)}")
    click.echo(game.decider.render(_view(game, states[i], seat), seat))
    line = _settled(game, states, i)
    if line:
        click.echo(line)
    if i == len(game.records) - 1:  # the end of the file: the result, or where the game stands
        click.echo(_standing(game))


def _settled(game, states, i) -> str:
    """What record ``i`` settled, in the module's words ('' when nothing new)."""
    line = game.decider.report(states[i])
    if line and (i == 0 or line != game.decider.report(states[i - 1])):
        return line
    return ""


def _standing(game: bs.Game) -> str:
    outcome = game.outcome()
    if outcome is not None:
        return _outcome_text(game, outcome)
    acting = ", ".join(game.players[s] for s in game.to_act())
    return f"The game goes on (after record {game.seq - 1}); to act: {acting}"


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--as", "player", help="As this player saw it (default: a spectator).")
@one_line_errors
def log(file, player):
    """The whole game as text, for a forum or a mail: tags, then one numbered line per record
    (the moves in notation, sealed choices as commitments until revealed) with what each
    settled, then the result; like a PGN movetext."""
    game = bs.load_game(file)
    seat = _seat(game, player)
    states = _states(game)
    header = game.header
    options = ", ".join(f"{k}={v}" for k, v in dict(header.options).items() if _short(v))
    tags = [
        ("Game", game.module.spec.name),
        ("Module", f"{header.module} {header.module_version}, rules revision {header.revision}"),
        ("Players", ", ".join(game.players)),
        ("Created", header.created),
        ("Options", options),
        ("GameId", header.game_id.hex()[:16]),
        ("Trust", header.trust),
    ]
    if header.signed:  # (who signed: every record after the setup carries its player's key)
        from boardstate.keys import fingerprint

        if header.hosted:
            tags.append(("Judge", fingerprint(header.judge[:32])))
        tags.append(
            (
                "Keys",
                ", ".join(
                    f"{game.players[s]} {fingerprint(k)}" for s, k in sorted(game.keys.items())
                ),
            )
        )
    outcome = game.outcome()
    if outcome is not None:
        tags.append(("Result", " and ".join(game.players[w] for w in outcome.winners) + " won"))
    for name, value in tags:
        if value:
            click.echo(f'[{name} "{value}"]')
    click.echo("")
    for i, rec in enumerate(game.records[1:], 1):
        click.echo(f"{i}. {bs.describe(game, rec, seat)}")
        line = _settled(game, states, i)
        if line:
            click.echo(f"   {line}")
    click.echo(_standing(game))


def _short(value) -> bool:
    """An option worth a tag (a deck file's whole text is not)."""
    return isinstance(value, (str, int)) and len(str(value)) <= 60


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True)
@click.option(
    "--with",
    "others",
    multiple=True,
    type=click.Path(dir_okay=False),
    help="Peer mode, once the game is over: the other players' copies (the end-of-game "
    "audit re-derives everything with all of them).",
)
@one_line_errors
def verify(file, as_json, others):
    """Re-check every record; explain the first that fails.

    A peer game's copy checks everything public (every move, die and draw position, every
    signature and every card played against its owner's commitments); with --with and every
    player's copy after the end, the audit checks the rest (the cards never played)."""
    if others:
        from boardstate._referee import audit, audit_hosted

        copies = [bs.read_raw(f) for f in (file, *others)]
        judged = [raw for raw in copies if raw.header.hosted and raw.header.seed is not None]
        if judged:  # (the hosted mode: the judge's published log, and players' copies)
            report = audit_hosted(judged[0], [raw for raw in copies if raw is not judged[0]])
            if not report.ok:
                fail(f"audit failed: {report.failure}", RULES_REJECTED)
            click.echo(
                f"audit ok: {report.records} records of the judge's log re-derived from its "
                f"seed, every letter opened and shown to its owners only; players' copies "
                f"checked against it: {len(copies) - 1}"
            )
            return
        if any(raw.header.hosted for raw in copies):
            fail(
                "error: a hosted game is audited with the judge's published log "
                "(boardstate judge publish): give it too",
                BAD_INPUT,
            )
        report = audit(copies)
        if not report.ok:
            fail(f"audit failed: {report.failure}", RULES_REJECTED)
        missing = (
            f"; not audited: the cards of {', '.join(report.missing)} (their copies were not given)"
            if report.missing
            else ""
        )
        click.echo(
            f"audit ok: {report.records} records re-derived with "
            f"{'the copies' if report.missing else 'every copy'} given, "
            f"{report.partly} checked in part{missing}"
        )
        return
    verdict = bs.verify(file, keep_records=False)
    game = verdict.game
    if as_json:
        data = {
            "file": file,
            "ok": verdict.ok,
            "records": verdict.records,
            "rederived": verdict.rederived,
            "outcome": None,
            "failure": None,
        }
        if verdict.outcome is not None:
            data["outcome"] = {
                "scores": dict(zip(game.players, verdict.outcome.scores)),
                "winners": [game.players[w] for w in verdict.outcome.winners],
                "reason": verdict.outcome.reason,
            }
        data["revision"] = game.header.revision
        if verdict.failure is not None:
            f = verdict.failure
            data["failure"] = {
                "record": f.seq,
                "actor": f.actor,
                "command": f.command,
                "code": f.code,
                "reason": f.reason,
                "rule": f.rule,
            }
        click.echo(json.dumps(data, indent=2))
        if not verdict.ok:
            sys.exit(RULES_REJECTED)
        return
    if not verdict.ok:
        fail(f"verification failed: {verdict.failure}", RULES_REJECTED)
    trusted = verdict.records - verdict.rederived
    note = f" ({trusted} checked on the hash chain only: this copy has no seed)" if trusted else ""
    if trusted and game.header.peer:
        note = (
            f" ({trusted} checked in part: they hold other players' cards this copy cannot "
            f"open; after the end, 'verify FILE --with OTHER-COPIES' audits them)"
        )
    elif trusted and game.header.hosted:
        note = (
            f" ({trusted} checked in part: they hold what only the judge's seed gives; after "
            f"the end, 'verify LOG --with THIS-COPY' audits the judge's published log)"
        )
    status = (
        _outcome_text(game, verdict.outcome)
        if verdict.outcome is not None
        else game.waiting_text()
        if game.due()
        else "game in progress; to act: " + ", ".join(game.players[s] for s in game.to_act())
    )
    click.echo(f"ok: {verdict.records} records re-derived and verified{note}. {status}")
    if game.header.signed:
        from boardstate.keys import fingerprint

        signers = ", ".join(
            f"{game.players[s]} (key {fingerprint(k)})" for s, k in sorted(game.keys.items())
        )
        if game.header.hosted:
            click.echo(
                f"every record after the setup is signed by the judge (key "
                f"{fingerprint(game.header.judge[:32])}) and carries its player's signed "
                f"request: {signers}"
            )
        else:
            click.echo(f"every record after the setup is signed by its player: {signers}")
    if _revision_note(game):
        click.echo(_revision_note(game))


# --------------------------------------------------------------------------------- view
@cli.command("view")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--as", "player", required=True)
@click.option("-o", "--out", required=True, type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Replace an existing game file at the output path.")
@one_line_errors
def view_cmd(file, player, out, force):
    """Write PLAYER's view of FILE: no seed, other players' secrets sealed."""
    game = bs.load_game(file)
    bs.check_output(out, force=force, reading=[file])
    bs.save_game(game, out, viewer=game.seat(player))
    click.echo(f"wrote {out}: {player}'s view of {file}")


# --------------------------------------------------------------------------------- migrate / check
@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "-o",
    "--out",
    required=True,
    type=click.Path(dir_okay=False),
    help="The migrated game file to write (a new file).",
)
@one_line_errors
def migrate(file, out):
    """Rewrite FILE under the installed event schemas (before adding moves to an old game).

    Every player migrates their own copy: the result is the same for all, so move files flow
    again between migrated copies.
    """
    if Path(out).exists():
        fail(f"error: {out} exists; not overwriting it (choose a new name)", BAD_INPUT)
    bs.check_output(out, reading=[file])
    game = bs.load_game(file)
    if game.codes.current:
        fail(
            f"error: {file} already uses the installed event schemas; nothing to migrate", BAD_INPUT
        )
    migrated = bs.migrate(game)
    bs.save_game(migrated, out)
    click.echo(
        f"wrote {out}: {migrated.seq} records under the installed event schemas "
        f"(game id {migrated.header.game_id.hex()[:12]}); send the other players this "
        f"note: each runs 'boardstate migrate' on their own copy"
    )


@cli.command()
@click.argument("module")
@click.option(
    "--seeds",
    type=click.IntRange(1, 10000),
    default=40,
    show_default=True,
    help="Random games per check.",
)
@one_line_errors
def check(module, seeds):
    """Run the conformance suite on an installed module (what every module must pass)."""
    from boardstate.testing import check_module

    mod = bs.get_module(module)
    report = check_module(mod, seeds=seeds, echo=click.echo)
    if report.failures:
        fail(
            f"{mod.spec.id}: {len(report.failures)} of {report.total} checks failed", RULES_REJECTED
        )
    click.echo(f"ok: {mod.spec.id} passes all {report.total} conformance checks")


from .board import board as _board_cmd  # noqa: E402
from .judge import judge as _judge_cmd  # noqa: E402
from .key import key as _key_cmd  # noqa: E402
from .play import play as _play_cmd  # noqa: E402

cli.add_command(_play_cmd)
cli.add_command(_board_cmd)
cli.add_command(_key_cmd)
cli.add_command(_judge_cmd)
