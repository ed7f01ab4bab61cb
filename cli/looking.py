"""Looking at a game: ``show`` (the table as a player sees it: text, JSON or a picture),
``legal`` (the commands a player may give) and ``log`` (the whole game as text); ``replay``
and ``view`` are ``replaying``'s."""

from __future__ import annotations

import click

import boardstate as bs

from ._common import (
    OutputFile,
    claim_output,
    echo_report,
    revision_note,
    seat_of,
    settled_line,
)
from ._errors import BAD_INPUT, fail, one_line_errors


def _status(game: bs.Game, seat: int | None) -> str:
    return "\n".join(bs.status_lines(game, seat))


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


def _is_png(out) -> bool:
    return out is not None and str(out).lower().endswith(".png")


def _show_svg(game: bs.Game, state, seat: int | None, file: str, out, force: bool) -> None:
    """The module's picture of the table (its optional ``svg(state, seat)``), printed or
    written to ``out`` (a name ending ``.png``: drawn as PNG): never over the game file read,
    nor over an existing file without ``--force``."""
    draw = getattr(game.module.rules, "svg", None)
    if draw is None:
        fail(f"error: {game.module.spec.id} draws no pictures", BAD_INPUT)
    if _is_png(out):  # (the picture as PNG: the position's, the same view of the same state)
        claim_output(out, force=force, reading=[file], checked_first=True)
        bs.atomic_write(out, game.position(seat=seat).png())
        click.echo(f"wrote {out}", err=True)
        return
    picture = draw(state, seat)
    if out is None:
        click.echo(picture, nl=False)
        return
    claim_output(out, force=force, reading=[file], checked_first=True)
    bs.atomic_write(out, picture.encode("utf-8"))
    click.echo(f"wrote {out}", err=True)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--as", "player", help="See the table as this player (default: a spectator).")
@click.option("--json", "as_json", is_flag=True)
@click.option(
    "--svg", "as_svg", is_flag=True, help="Draw the table as an SVG picture (games that draw)."
)
@click.option(
    "-o",
    "--out",
    type=OutputFile(),
    help="Write the picture to this file: a name ending .svg (SVG) or .png (PNG, for mail and "
    "forums) needs no --svg.",
)
@click.option("--force", is_flag=True, help="With --out: replace an existing file.")
@one_line_errors
def show(file, player, as_json, as_svg, out, force):
    """Show the table as a player sees it (text, --json, or an --svg picture; -o pos.png
    writes the picture as PNG)."""
    if out is not None and str(out).lower().endswith((".svg", ".png")) and not as_json:
        as_svg = True  # (show FILE --as P -o pos.svg, or pos.png)
    if as_json and as_svg:
        fail("usage: --json and --svg cannot be combined (try 'boardstate show --help')", BAD_INPUT)
    if out is not None and not as_svg:
        fail(
            "usage: -o/--out writes the --svg picture; add --svg, or name it .svg or .png",
            BAD_INPUT,
        )
    game = bs.load_game(file)
    seat = seat_of(game, player)
    state = _view(game, game.state, seat)
    if as_svg:
        _show_svg(game, state, seat, file, out, force)
        return
    if as_json:
        data = game.decider.to_json(state, seat)
        data["engine"] = _json_status(game, seat)
        import json  # (for --json only: its import is 1 ms of every command)

        click.echo(json.dumps(data, indent=2))
    else:
        click.echo(game.decider.render(state, seat))
        echo_report(game, game.state)
        click.echo(_status(game, seat))
        if revision_note(game):
            click.echo(revision_note(game))


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--as", "player", required=True, help="The player asking.")
@click.option("--json", "as_json", is_flag=True)
@one_line_errors
def legal(file, player, as_json):
    """List the commands a player may give now.

    By mail in the peer mode, a note on standard error names those after which the player
    waits for another's share of the randomness before going on (a mail there and back).
    """
    game = bs.load_game(file)
    seat = game.seat(player)
    commands = game.legal(seat)
    trips = game.round_trips(seat)
    if as_json:
        import json  # (for --json only: its import is 1 ms of every command)

        click.echo(json.dumps({"player": player, "commands": commands, "round_trips": trips}))
        return
    if not commands:  # (why: the game is over, it waits for someone, or it is not their turn)
        click.echo(f"{player} has nothing to do now ({bs.next_line(game)})")
    for c in commands:
        click.echo(c)
    if trips:  # (on standard error: the list on standard output stays commands only)
        click.echo(bs.round_trip_note(game, seat, trips), err=True)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--as", "player", help="As this player saw it (default: a spectator).")
@click.option(
    "--protocol",
    is_flag=True,
    help="Each join and share of the randomness on its own line (by default a run is one).",
)
@one_line_errors
def log(file, player, protocol):
    """The whole game as text, for a forum or a mail: tags, then one numbered line per record
    (the moves in notation, sealed choices as commitments until revealed), under it what its
    events did as the player of --as may know it (dice, the cards they saw drawn, results)
    and what it settled, then the result; like a PGN movetext."""
    game = bs.load_game(file)
    seat = seat_of(game, player)
    states = game.states()  # (a takeback: the state before the turn)
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
    click.echo("".join(f'[{name} "{value}"]\n' for name, value in tags if value))
    for first, last, words, told in bs.records_grouped(game, game.records, seat, protocol=protocol):
        if last == 0 and not told:  # (the setup, when it has nothing to tell)
            continue
        lines = [f"{first}. {words}" if first == last else f"{first}-{last}. {words}"]
        line = settled_line(game, states, last, since=first - 1)
        lines += (f"   {said}" for said in ([line] + list(told) if line else told))
        click.echo("\n".join(lines))  # (a record's lines at once: click flushes each echo)
    click.echo(bs.standing(game))


def _short(value) -> bool:
    """An option worth a tag (a deck file's whole text is not)."""
    return isinstance(value, (str, int)) and len(str(value)) <= 60
