"""Setting up: ``modules`` (the installed games), ``new`` (a game file, or a peer game and its
invitation), ``join`` (a peer or hosted game, from its invitation) and ``migrate`` (an old game
under the installed event schemas)."""

from __future__ import annotations

import json
from pathlib import Path

import click

import boardstate as bs

from ._common import (
    NEW_NAME,
    NO_FORCE,
    OutputFile,
    claim_output,
    distinct_outputs,
    echo_after,
    echo_records,
    load_key,
    parse_options,
    public_key_bytes,
    write_reply,
    write_request,
)
from ._errors import BAD_INPUT, fail, one_line_errors


@click.command("modules")
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


@click.command()
@click.argument("module")
@click.option("--player", "players", multiple=True, required=True, help="A player (in seat order).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A module option.")
@click.option("--seed", help="Seed text (default: random).  Open mode: it is in the file.")
@click.option(
    "-o",
    "--out",
    "out",
    required=True,
    type=OutputFile(),
    help="The game file to write.",
)
@click.option("--force", is_flag=True, help="Replace an existing game file at the output path.")
@click.option(
    "--trust",
    type=click.Choice(["open", "peer", "shared-deck"]),
    help="open: the seed is in the file (hot seat, bots, teaching); peer: no seed, every "
    "player joins and adds randomness (by mail; the default with --as); shared-deck: the "
    "peer mode with one deck nobody sees, shuffled by every player (Jedi Duel, 2-3 players).",
)
@click.option("--as", "player", help="Peer mode: you, the player whose copy FILE is.")
@click.option("--key", help="Peer mode: your signing key's name (default: the one named as you).")
@click.option(
    "--invite",
    type=OutputFile(),
    help="Peer mode: the file the others join from (default: OUT's name with -invite).",
)
@one_line_errors
def new(module, players, options, seed, out, force, trust, player, key, invite):
    """Create a game file (with --as: your copy of a peer game, and the invitation to mail)."""
    mod = bs.get_module(module)
    trust = trust or ("peer" if player else "open")
    if trust != "open" and not player:
        fail(f"error: a {trust} game is made by one of its players: add --as PLAYER", BAD_INPUT)
    if trust == "open" and (player or key or invite):
        fail("error: --as, --key and --invite make a peer game (--trust peer)", BAD_INPUT)
    paths = [out] + ([invite or _invite_name(out)] if trust != "open" else [])
    for path in paths:
        claim_output(path, force=force)
    distinct_outputs(*paths)
    if trust != "open":
        if player not in players:
            fail(f"error: --as {player}: not one of the players ({', '.join(players)})", BAD_INPUT)
        signing = load_key(player if key is None else key)
        game = bs.Game.new(
            mod, players, parse_options(options), trust=trust, seat=players.index(player)
        )
        game.signer = signing.sign
        game.join(game.header.viewer, public_key_bytes(signing))
        bs.atomic_write(paths[1], bs.encode_public(game))
        game.mark_shared(game.last_seq)
        bs.save_game(game, out)
        click.echo(
            f"created {out}: your copy of a {trust} game of {mod.spec.name}, {', '.join(players)}"
        )
        click.echo(
            f"wrote {paths[1]}: send it to the other players, who join from it "
            f"('boardstate join {paths[1]} --as NAME -o THEIR-COPY')"
        )
        _note_what_this_copy_cannot_check(game)
        click.echo(game.waiting_text())
        return
    game = bs.Game.new(
        mod, players, parse_options(options), seed=None if seed is None else seed.encode()
    )
    bs.save_game(game, out)
    acting = ", ".join(game.players[s] for s in game.to_act())
    click.echo(f"created {out}: {mod.spec.name}, {', '.join(players)}; to act: {acting}")


def _invite_name(out: str) -> str:
    return str(Path(out).with_name(f"{Path(out).stem}-invite.msgpack"))


@click.command()
@click.argument("invite", type=click.Path(dir_okay=False))
@click.option("--as", "player", required=True, help="You: the player joining.")
@click.option(
    "-o",
    "--out",
    required=True,
    type=OutputFile(),
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
    claim_output(out, reading=[invite], refused=NO_FORCE)
    if reply is not None and reply != "-":  # (an old move file is replaced; a game never)
        bs.check_output(reply, reading=[invite], as_path=False)
    distinct_outputs(out, reply)
    game = bs.load_checked(invite)
    signing = load_key(player if key is None else key)
    seated = bs.take_seat(game, player, public_key_bytes(signing), signing.sign)
    if seated.request is not None:  # (the judge makes the join record from the request)
        path = reply or str(Path(out).with_name(f"{Path(out).stem}-join.request"))
        write_request(seated.request, path, reading=[invite], text=text, force=False)
        bs.save_game(game, out)
        click.echo(f"created {out}: your copy of a hosted game ({game.header.module})")
        _note_what_this_copy_cannot_check(game)
        return
    write_reply(
        game, seated.base, out, reply, always=True, reading=[invite], player=player, text=text
    )
    bs.save_game(game, out)
    echo_records(game, seated.records, seated.seat)
    _note_what_this_copy_cannot_check(game)
    echo_after(game, seated.seat)


def _note_what_this_copy_cannot_check(game: bs.Game) -> None:
    """Said once a game, when the copy is made: which records it will check only in part."""
    click.echo(f"note: some records will be {game.trust.checked_in_part}")


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "-o",
    "--out",
    required=True,
    type=OutputFile(),
    help="The migrated game file to write (a new file).",
)
@one_line_errors
def migrate(file, out):
    """Rewrite FILE under the installed event schemas (before adding moves to an old game).

    Every player migrates their own copy: the result is the same for all, so move files flow
    again between migrated copies.
    """
    claim_output(out, reading=[file], refused=NEW_NAME)
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
