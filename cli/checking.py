"""Checking: ``verify`` (every record re-derived; with ``--with``, the end-of-game audit of a
peer or hosted game) and ``check`` (the conformance suite on an installed module)."""

from __future__ import annotations

import os
import sys
import time

import click

import boardstate as bs

from ._common import OutputFile, claim_output, revision_note
from ._errors import BAD_INPUT, INTERNAL, RULES_REJECTED, fail, one_line_errors
from ._runs import (
    INTERRUPTED,
    make_runner,
    progress,
    rate,
    ray_and_paths,
    resume_hint,
    runner_options,
    stopping,
)


@click.command()
@click.argument("paths", nargs=-1, metavar="FILE|PATH...", type=click.Path())
@click.option("--json", "as_json", is_flag=True)
@click.option(
    "--with",
    "others",
    multiple=True,
    type=click.Path(dir_okay=False),
    help="Peer mode, once the game is over: the other players' copies (the end-of-game "
    "audit re-derives everything with all of them).",
)
@runner_options
@click.option(
    "--manifest",
    type=OutputFile(),
    help="Several files: write a line per file here (JSON lines, sorted when the run ends).",
)
@click.option(
    "--resume",
    type=click.Path(dir_okay=False, exists=True),
    help="Several files: go on from an interrupted run's manifest (and add to it).",
)
@one_line_errors
def verify(paths, as_json, others, jobs, ray, manifest, resume):
    """Re-check every record; explain the first that fails.

    A peer game's copy checks everything public (every move, die and draw position, every
    signature and every card played against its owner's commitments); with --with and every
    player's copy after the end, the audit checks the rest (the cards never played).

    Several files or folders (their *.msgpack files, at any depth): each is verified alone,
    with --jobs processes or on a Ray cluster (--ray), a line per file that fails and a
    summary (with --json, every file's manifest line, then the summary).  Exit 0 if every
    file verifies, 1 if some fail verification, 2 if some cannot be read."""
    ray, paths = ray_and_paths(ray, paths)
    if not paths:
        fail(
            "usage: name a game file, or files and folders (try 'boardstate verify --help')",
            BAD_INPUT,
        )
    if len(paths) > 1 or os.path.isdir(paths[0]) or jobs or ray or manifest or resume:
        if others:
            fail("error: --with audits one game: name its file alone", BAD_INPUT)
        verify_many(paths, as_json=as_json, jobs=jobs, ray=ray, manifest=manifest, resume=resume)
        return
    file = paths[0]
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
        import json  # (for --json only: its import is 1 ms of every command)

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


def verify_many(paths, *, as_json, jobs, ray, manifest, resume) -> None:
    """Every file of ``paths`` verified alone, shared out as asked; the manifest, the files that
    fail, a summary, the exit status of the worst."""
    if resume and manifest and os.path.abspath(resume) != os.path.abspath(manifest):
        fail("error: --resume adds to the manifest it names: no other --manifest", BAD_INPUT)
    if manifest and not resume:
        claim_output(manifest, refused="; not adding to it (choose another name, or --resume it)")
    files = bs.batch.game_paths(paths)
    before = {}
    if resume:
        before = {c.path: c for c in bs.batch.read_manifest(resume, bs.batch.Checked)}
    todo = [f for f in files if f not in before]
    checked = [before[f] for f in files if f in before]
    out = bs.batch.Manifest(resume or manifest)
    begun = time.perf_counter()
    runner = make_runner(jobs, ray)
    with runner, stopping() as stop, progress(len(files), "file", len(checked)) as bar:
        for entry in bs.batch.check_files(todo, runner, stop=stop):
            out.add(entry)
            checked.append(entry)
            bar.update()
            if as_json:
                bar.write(entry.line(), file=sys.stdout)
            elif not entry.ok:
                bar.write(entry.said(), file=sys.stdout)
        if stop.is_set():
            runner.close(now=True)
    seconds = time.perf_counter() - begun
    if len(checked) < len(files):
        kept = out.keep_as(".", "verify-manifest")
        fail(
            f"interrupted: {len(checked)} of {len(files)} files verified, their lines in {kept}; "
            f"resume with: {resume_hint('verify', paths, kept)}",
            INTERRUPTED,
        )
    out.finish(bs.batch.Checked)
    counts = {v: 0 for v in bs.batch.VERDICTS}
    for entry in checked:
        counts[entry.verdict] += 1
    done_now = len(files) - len(before.keys() & set(files))
    summary = {
        "files": len(files),
        **counts,
        "resumed": len(files) - done_now,
        "records": sum(e.records or 0 for e in checked),
        "seconds": round(seconds, 3),
        "workers": str(runner),
        "manifest": None if out.scratch else str(out.path),
    }
    if as_json:
        import json  # (for --json only: its import is 1 ms of every command)

        click.echo(json.dumps({"summary": summary}, sort_keys=True))
    else:
        said = ", ".join(f"{counts[v]} {WORDS[v]}" for v in bs.batch.VERDICTS if counts[v])
        resumed = f", {summary['resumed']} of them before (--resume)" if resume else ""
        where = f"; manifest: {out.path}" if not out.scratch else ""
        click.echo(
            f"verified {len(files)} files{resumed} on {runner} ({rate(done_now, seconds)}): "
            f"{said or 'none'}{where}"
        )
    worst = (
        (INTERNAL, bs.batch.ERROR),
        (BAD_INPUT, bs.batch.UNREADABLE),
        (RULES_REJECTED, bs.batch.FAILED),
    )
    for status, verdict in worst:
        if counts[verdict]:
            sys.exit(status)


WORDS = {
    "ok": "ok",
    "failed": "failed verification",
    "unreadable": "unreadable",
    "error": "internal errors (please report them)",
}


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
