"""Checking: ``verify`` (every record re-derived; with ``--with``, the end-of-game audit of a
peer or hosted game) and ``check`` (the conformance suite on an installed module)."""

from __future__ import annotations

import json
import sys

import click

import boardstate as bs

from ._common import revision_note
from ._errors import RULES_REJECTED, fail, one_line_errors


@click.command()
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
        _audit(file, others)
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
    note = f" ({trusted} {game.trust.checked_in_part})" if trusted else ""
    status = (
        bs.outcome_line(game.players, verdict.outcome)
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
    if revision_note(game):
        click.echo(revision_note(game))


def _audit(file: str, others) -> None:
    """The end-of-game audit: a peer game's copies, or a hosted game's published log and copies."""
    report = bs.audit([bs.read_raw(f) for f in (file, *others)])
    if not report.ok:
        fail(report.line(), RULES_REJECTED)
    click.echo(report.line())


@click.command()
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
