"""Runs at scale: ``selfplay`` (games played by a bot on every seat, written as verifiable game
files or one archive); what it shares with ``verify PATH...`` is ``_runs``."""

from __future__ import annotations

import contextlib
import io
import os
import sys
import time
from pathlib import Path

import click

import boardstate as bs

from ._common import OutputFile, claim_output, parse_options
from ._errors import BAD_INPUT, INTERNAL, fail, one_line_errors
from ._runs import (
    INTERRUPTED,
    make_runner,
    progress,
    rate,
    resume_hint,
    runner_options,
    stopping,
)


@click.command()
@click.argument("module")
@click.option("--games", "-n", type=click.IntRange(1, 10**9), default=100, show_default=True)
@click.option(
    "--players", type=click.IntRange(1, 64), help="Seats (default: the fewest the game takes)."
)
@click.option("--player", "names", multiple=True, help="A player's name (seat order).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE")
@click.option(
    "--seed", help="Seed text: the same seed, the same files (default: a new one, printed)."
)
@click.option(
    "--bot",
    default="random",
    show_default=True,
    metavar="LEVEL",
    help="The bot on every seat: random, easy, normal or strong (boardstate.bots; a search "
    "level plays its iterations without a time limit, the same on any machine).",
)
@click.option("-o", "--out", type=OutputFile(folder=True), help="Write each game here (a folder).")
@click.option("--archive", type=OutputFile(), help="Write the games into one .tar instead.")
@click.option("--resume", type=click.Path(dir_okay=False), help="Go on from a run's manifest.")
@click.option("--json", "as_json", is_flag=True, help="The summary as JSON.")
@runner_options
@one_line_errors
def selfplay(
    module, games, players, names, options, seed, bot, out, archive, resume, as_json, jobs, ray
):
    """Play MODULE against itself: --games games, a bot on every seat, through the full engine.

    Every game is a game file that 'boardstate verify' checks, written into the folder --out
    (one file a game, and manifest.jsonl: a line a game) or into one --archive FILE.tar (its
    manifest beside it, FILE.tar.jsonl); then a summary: wins per seat, lengths and results.
    The same --seed makes the same files, byte for byte, in one process, with --jobs or on a
    Ray cluster.  Ctrl-C keeps the games done; --resume MANIFEST goes on from there."""
    if (out is None) == (archive is None):
        fail("error: name where the games go: -o/--out FOLDER or --archive FILE.tar", BAD_INPUT)
    mod = bs.get_module(module)
    bs.batch.check_bot(bot)
    count = players or len(names) or mod.spec.min_players
    if names and players and players != len(names):
        fail(f"error: {len(names)} names for {players} players", BAD_INPUT)
    names = tuple(names) or bs.batch.seat_names(count)
    manifest_path = Path(out, "manifest.jsonl") if out else Path(f"{archive}.jsonl")
    done = []
    if resume is not None:  # ('' is no manifest: refused, never taken for no --resume)
        if Path(bs.path_name(resume)).resolve() != manifest_path.resolve():
            fail(f"error: this run's manifest is {manifest_path}, not {resume}", BAD_INPUT)
        done = bs.batch.read_manifest(resume, bs.batch.Played)
        seed = _resumed_seed(done, seed)
    if seed is None:
        import secrets  # (with random: only a self-play run without a seed)

        seed = secrets.token_hex(8)
    plan = bs.batch.Plan(
        mod.spec.id, names, tuple(sorted(parse_options(options).items())), seed, bot, games
    )
    # The set-up every game makes, made once first: a player count, a name or an option the
    # game refuses is one line, not a run of games that "did not end".
    bs.Game.new(mod, names, dict(plan.options), seed=b"set-up")
    start = _first_missing(done, plan, mod)
    if not resume:
        for path in (manifest_path, archive):
            if path is not None:
                claim_output(path)
    try:  # (a read-only or missing folder: one line, before any game is played)
        if out and not resume:
            Path(out).mkdir(parents=True, exist_ok=True)
        writer = _Archive(archive, start) if archive else _Folder(out)
    except OSError as exc:
        fail(_cannot_write(exc), BAD_INPUT)
    manifest = bs.batch.Manifest(manifest_path)
    played = list(done[:start])
    begun = time.perf_counter()
    runner = make_runner(jobs, ray)
    unwritten = None  # the OSError of a write that failed (a full disk): the run stops there
    with runner, stopping() as stop, progress(games, "game", start) as bar:
        lines = bs.batch.play_games(plan, runner, start=start, stop=stop)
        try:
            for line, data in lines:
                try:
                    if data:
                        writer.add(line.path, data)
                    manifest.add(line)
                except OSError as exc:
                    unwritten = exc
                    break
                played.append(line)
                bar.update()
        finally:  # (a run that fails keeps a whole archive of its games, as one stopped does:
            # the process ends without the teardown that would have written its buffer)
            lines.close()
            writer.close()
        if stop.is_set() or unwritten is not None:
            runner.close(now=True)
    seconds = time.perf_counter() - begun
    if len(played) < games:
        manifest.close()
        args = [module, "--games", str(games), "--seed", seed]
        args += [w for name in names for w in ("--player", name)]
        args += [w for option in options for w in ("--option", option)]
        args += ["--bot", bot] if bot != "random" else []
        args += ["-o", out] if out else ["--archive", archive]
        why = "interrupted" if unwritten is None else _cannot_write(unwritten)
        fail(
            f"{why}: {len(played)} of {games} games played, kept in "
            f"{out or archive} (manifest {manifest_path}); resume with: "
            + resume_hint("selfplay", args, manifest_path),
            INTERRUPTED if unwritten is None else BAD_INPUT,
        )
    manifest.finish(bs.batch.Played)
    _say_summary(plan, played, len(played) - start, seconds, runner, as_json, out or archive)
    if any(not p.ok for p in played):
        sys.exit(INTERNAL)


def _cannot_write(exc: OSError) -> str:
    """A failed write's line (docs/reliability.md: one line, exit 2)."""
    where = f" {exc.filename}" if exc.filename else ""
    return f"error: cannot write{where} ({exc.strerror or exc})"


def _resumed_seed(done, seed):
    if not done:
        return seed
    if seed is not None and seed != done[0].seed:
        fail(f"error: the manifest's games were played with --seed {done[0].seed}", BAD_INPUT)
    return done[0].seed


def _first_missing(done, plan, mod) -> int:
    """Games 0 to N-1 are in the manifest, of this very run: go on at N."""
    have = {p.game: p for p in done}
    probe = bs.batch.Played(
        0,
        "",
        mod.spec.id,
        mod.spec.version,
        mod.spec.revision,
        plan.players,
        plan.options,
        plan.seed,
        plan.bot,
    )
    n = 0
    while n in have:
        if not have[n].same_run(probe):
            fail(
                f"error: game {n} of the manifest was played by another run (another module, "
                f"players, options or bot)",
                BAD_INPUT,
            )
        n += 1
    return n


class _Folder:
    """A file a game, each written under a temporary name and renamed (never half a file
    under its own name); synced to the disk once, at the end (a sync a file, as a game file
    written by a player is, costs 14 ms here: more than playing a game of Duel of the Forces)."""

    def __init__(self, folder) -> None:
        self.folder = Path(folder)

    def add(self, name: str, data: bytes) -> None:
        part = self.folder / f".{name}.part"
        part.write_bytes(data)
        os.replace(part, self.folder / name)

    def close(self) -> None:
        if hasattr(os, "sync"):
            os.sync()


class _Archive:
    """One uncompressed tar, its members in the games' order, each with the same metadata
    (so the same seed makes the same archive); resumed by appending.  A member whose writing
    fails (a full disk, an interrupt) is cut off before the archive is closed: the file holds
    only whole members, those of the manifest."""

    def __init__(self, path, start: int) -> None:
        import tarfile  # (here, not for every ``verify`` of one game)

        if start:
            _cut_tar(path, start)
        self._file = _WholeWrites(path, "r+b" if start else "wb")
        try:
            self._tar = tarfile.open(
                fileobj=self._file, mode="a" if start else "w", format=tarfile.PAX_FORMAT
            )
        except BaseException:
            self._file.close()
            raise

    def add(self, name: str, data: bytes) -> None:
        import tarfile

        info = tarfile.TarInfo(name)
        info.size, info.mtime, info.mode = len(data), 0, 0o644
        end = self._tar.offset  # (the end of the last whole member)
        try:
            self._tar.addfile(info, io.BytesIO(data))
        except BaseException:
            self._file.truncate(end)
            self._file.seek(end)
            self._tar.offset = end
            raise

    def close(self) -> None:
        try:
            self._tar.close()
        finally:
            self._file.close()


class _WholeWrites(io.FileIO):
    """The archive's file, unbuffered (a member cut off leaves none of its bytes in a buffer to
    be written after the cut), each write whole (a disk filling up may take part of one)."""

    def write(self, data) -> int:
        view = memoryview(data).cast("B")
        size = view.nbytes
        while view:
            view = view[super().write(view) :]
        return size


def _cut_tar(path, keep: int) -> None:
    """An archive resumed keeps its first ``keep`` members (those in the manifest): a member
    written after the manifest's last line, or cut short by a second Ctrl-C, goes."""
    import tarfile

    with tarfile.open(path, "r") as tar:
        members = []
        with contextlib.suppress(tarfile.ReadError):
            for member in tar:
                members.append(member)
    if len(members) < keep:
        fail(f"error: {path} holds {len(members)} games, its manifest {keep}", BAD_INPUT)
    last = members[keep - 1]
    end = last.offset_data + -(-last.size // tarfile.BLOCKSIZE) * tarfile.BLOCKSIZE
    with open(path, "r+b") as f:
        f.truncate(end)
        f.seek(end)
        f.write(bytes(2 * tarfile.BLOCKSIZE))  # (the end-of-archive mark "a" writes over)


def _say_summary(plan, played, new, seconds, runner, as_json, where) -> None:
    summary = bs.batch.summary(played, plan.players)
    summary.update(
        module=plan.module,
        seed=plan.seed,
        bot=plan.bot,
        where=str(where),
        played_now=new,
        seconds=round(seconds, 2),
        workers=str(runner),
    )
    if as_json:
        import json

        click.echo(json.dumps(summary, indent=2))
        return
    wins = ", ".join(f"{name} {n}" for name, n in summary["wins"].items())
    click.echo(
        f"played {summary['games']} games of {plan.module} (seed {plan.seed}, {plan.bot} bot) "
        f"into {where}: {new} now on {runner} ({rate(new, seconds)})"
    )
    click.echo(
        f"wins: {wins}" + (f"; no winner {summary['no_winner']}" if summary["no_winner"] else "")
    )
    if summary["records"]:
        r, m = summary["records"], summary["moves"]
        click.echo(
            f"length: {r['min']}-{r['max']} records (median {r['median']}), "
            f"{m['min']}-{m['max']} moves (median {m['median']})"
        )
    for reason, n in summary["results"].items():
        click.echo(f"  {n} × {reason}")
    if summary["errors"]:
        click.echo(f"{summary['errors']} games did not end (see the manifest): please report it")
