#!/usr/bin/env python3
"""Load on the hosted mode's judge: a stream of requests for many concurrent games, from a folder.

The workload: ``--games`` Jedi Duel games (2, 3 and 4 players in turn), each played by its
players' copies with uniformly random legal commands (a seeded ``random.Random``) for at most
``--moves`` move requests after the joins (fewer when a game ends first).  Every input is fixed
(the judge's key and secrets, the seeds, ``created``, the players' keys and secrets), so the
stream of request files is made once, by playing the games in process against a judge with no
store, and cached on disk under the parameters.  The games' requests are interleaved round by
round (each game's first request, then each game's second, ...), so every game is in play at
once, as a judge serving many tables by mail sees them.

Then for each store (SQLite in a temporary file; PostgreSQL when a server can be reached or
started), and with the judge's cache of games warm (``Judge(cache=2048)``, the default: every
game stays in memory) and cold (``cache=0``: each request reloads its game from the store):
the games are created in a fresh store with the same fixed inputs and their invitations sent
(outside the clock), the stream is written into a ``dir:`` inbox (outside the clock, each file's
mtime set to its place in the stream, since the inbox reads the oldest first), and one
``serve_once(judge, inbox, outbox)`` with a ``dir:`` outbox judges it all, timed.  Reported:
accepted requests per second (wall clock of the whole pass: reading the folder, judging, the
store's commits, the players' mail written and fsynced into the outbox folder, the inbox file
moved to ``done/``); per request, its **service** time: from the start of ``Judge.handle`` to
the start of sending its replies (judged, its records and replies committed in one transaction,
its inbox file moved: from then on nothing the request caused can be lost); and its **reply**
time: from the same start to the start of the next request (the service, then its replies sent:
each digest's picture drawn as PNG from the SVG queued with it, composed, written, one sync,
marked sent).  Every file is in the inbox before the clock starts, so no request waits on the
network: this is the judge's throughput and its time per request, not the delay a player sees.

PostgreSQL: ``--postgres URL`` (a database the bench may create databases beside), else a
throw-away server is started in a temporary folder when the server binaries are installed
(Debian's ``postgresql`` package; as root, run as the ``postgres`` user), else it is skipped
with the reason.  ``--postgres none`` skips it.

The defaults: 300 games, the first 100 of them in the cold passes.  Drawing each digest's
picture (about 70 ms of CPU a request, most of it the PNG) bounds a pass: 6,890 requests take
eight minutes of CPU a store, a warm pass near half an hour on the project's 2-core machine when
others load it; ``--games 1000`` is the issue's figure (about 23,000 requests, three and a
third times as long).  ``--store sqlite`` or ``--store postgresql`` runs one store only (two
processes may then run side by side, one a store).

Usage: python bench/bench_judge.py [--games 300] [--moves 20] [--cold-games 100] [--seed 1]
       [--quick] [--no-cold] [--postgres URL|none] [--store both|sqlite|postgresql]
       [--profile] [--regenerate]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import glob
import hashlib
import os
import platform
import pstats
import pwd
import random
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import attrs
import msgpack
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import boardstate as bs
import boardstate.judge._judge as judges  # (its sending and drawing are timed)
import boardstate.judge._outboxes as outboxes  # (its compose is timed)
from boardstate._fileformat import encode_moves, encode_public, parse_raw
from boardstate._hosted import REQUEST_VERSION
from boardstate._referee import referee_moves
from boardstate.judge import Judge, Mail, open_inbox, open_outbox, open_store, serve_once

MODULE = "jedi-duel"
CREATED = "2026-11-22T00:00:00+00:00"
NAMES = ("ann", "ben", "cat", "dan")
PLAYER_COUNTS = (2, 3, 4)
STREAM_FORMAT = 1  # bump when the cached stream's layout changes


def _bytes(*words) -> bytes:
    """32 fixed bytes named by ``words`` (keys, secrets, seeds: the same in every run)."""
    return hashlib.sha256(repr(words).encode()).digest()


JUDGE_KEY = Ed25519PrivateKey.from_private_bytes(_bytes("bench-judge", "judge key"))


def _public(key) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def address(g: int, name: str) -> str:
    return f"{name}-g{g:05d}@players.example"


def players_of(g: int) -> list[tuple[str, str]]:
    n = PLAYER_COUNTS[g % len(PLAYER_COUNTS)]
    return [(name, address(g, name)) for name in NAMES[:n]]


def create_game(judge: Judge, seed: int, g: int) -> bytes:
    """Game ``g`` of the workload, made alike in every store."""
    return judge.create(
        MODULE,
        players_of(g),
        {},
        created=CREATED,
        seed=_bytes("bench-judge", "seed", seed, g),
        secret=_bytes("bench-judge", "judge secret", seed, g),
    )


# ------------------------------------------------------------------ making the stream
class _NoStore:
    """What ``Judge`` asks of a store, keeping nothing: the stream is made with the judge's own
    code (the same games, checks and records), at no database's cost."""

    def __init__(self) -> None:
        self._players: dict[bytes, list] = {}
        self._heads: dict[bytes, int] = {}
        self._mailed: dict[bytes, list[int]] = {}

    def add_game(self, game_id, header, rows, players, outgoing=(), *, mail="digest") -> None:
        self._players[game_id] = list(players)
        self._heads[game_id] = len(rows)
        self._mailed[game_id] = [len(rows) - 1] * len(players)

    def head(self, game_id) -> int:
        return self._heads[game_id]

    def claim(self, name) -> bool:  # (one judge: every claim is free)
        return True

    def release(self, name) -> None:
        pass

    def players(self, game_id):
        return self._players[game_id]

    def mailed(self, game_id) -> list[int]:
        return list(self._mailed[game_id])

    def settings(self, game_id) -> dict:
        return {"mail": "digest", "changed": None}

    def answered(self, message) -> bool:
        return False

    def accept(self, game_id, first_seq, rows, message, outgoing, mailed=None) -> None:
        self._heads[game_id] = first_seq + len(rows)
        for seat, seq in (mailed or {}).items():
            self._mailed[game_id][seat] = seq

    def answer(self, message, outgoing) -> None:
        raise AssertionError("a request of the workload was refused while making it")

    def load(self, game_id):
        raise AssertionError("the judge's cache holds every game while the stream is made")


def _mail(address_: str, data: bytes) -> Mail:
    return Mail("", hashlib.sha256(data).digest(), address_, "", "", (data,))


def play_game(judge: Judge, seed: int, g: int, moves: int) -> list[tuple[str, bytes]]:
    """Game ``g``'s requests, in order, as ``(sender, request file)``: every player joins from
    the invitation, then the seat to act asks for a random legal command, up to ``moves``."""
    game_id = create_game(judge, seed, g)
    players = players_of(g)
    invite = encode_public(judge.game(game_id))
    copies, out = [], []
    for seat, (name, where) in enumerate(players):
        copy = bs.load_game(parse_raw(invite, "invite"))
        secret = _bytes("bench-judge", "player secret", seed, g, name)
        copy.header = attrs.evolve(copy.header, viewer=seat, peer_secret=secret)
        key = Ed25519PrivateKey.from_private_bytes(_bytes("bench-judge", "player key", g, name))
        copy.signer = key.sign
        copies.append(copy)
        out.append((where, copy.join_request(seat, _public(key)).encode()))
    for where, data in out:
        assert judge.handle(_mail(where, data)) == "accepted"
    pick = random.Random(f"{seed}-{g}")
    for _ in range(moves):
        game = judge.game(game_id)
        if game.outcome() is not None:
            break
        seat = game.to_act()[0]
        copy = copies[seat]
        if copy.seq < game.seq:  # the player's copy applies the judge's mail it lacks
            referee_moves(copy, parse_raw(encode_moves(game, copy.seq - 1, reader=seat), "mail"))
        data = copy.request(seat, pick.choice(copy.legal(seat))).encode()
        assert judge.handle(_mail(players[seat][1], data)) == "accepted"
        out.append((players[seat][1], data))
    return out


def make_stream(games: int, moves: int, seed: int) -> list[list[tuple[str, bytes]]]:
    judge = Judge(_NoStore(), JUDGE_KEY, cache=games + 1)
    return [play_game(judge, seed, g, moves) for g in range(games)]


def cached_stream(games: int, moves: int, seed: int, regenerate: bool):
    """Every game's requests (made once per parameters and boardstate version, then read)."""
    key = f"v{STREAM_FORMAT}-r{REQUEST_VERSION}-{bs.__version__}-g{games}-m{moves}-s{seed}"
    path = Path(tempfile.gettempdir()) / "boardstate-bench-judge" / f"stream-{key}.msgpack"
    if path.exists() and not regenerate:
        data = msgpack.unpackb(path.read_bytes(), raw=False, use_list=False)
        return [[tuple(r) for r in game] for game in data], path, None
    t = time.perf_counter()
    stream = make_stream(games, moves, seed)
    took = time.perf_counter() - t
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    tmp.write_bytes(msgpack.packb(stream, use_bin_type=True))
    os.replace(tmp, path)
    return stream, path, took


def interleaved(stream) -> list[tuple[str, bytes]]:
    """Round robin: each game's first request, then each game's second, and so on."""
    out = []
    for i in range(max(len(game) for game in stream)):
        out.extend(game[i] for game in stream if i < len(game))
    return out


# ------------------------------------------------------------------ one timed pass
PARTS = ("loading", "judging", "commit", "moving", "drawing", "composing", "writing", "rest")
TIMED = ("loading", "commit", "drawing", "composing", "sending")  # (the rest: what is left)


class Clock:
    """When each request's ``Judge.handle`` starts and when the sending of its replies starts
    (``send_queued``), and the time spent in each part of its reply time (``PARTS``).  Its
    service: ``loading`` (``Judge.game``: the judge's copy of the game, from its cache or,
    cold, read from the store and its log re-read); ``commit`` (``store.accept``: the records,
    the message answered and the replies queued, each digest with its SVG, in one
    transaction); ``judging``, the rest of ``handle`` (the request read and checked, the rules,
    signing, letters, a move file, a text view and an SVG per player mailed, the store's
    reads); ``moving`` its inbox file to ``done/``.  Then its replies: ``drawing`` (``drawn``:
    each digest's PNG, from its SVG); ``composing`` each (``compose``, the standard library's
    ``email`` package) and ``writing`` them (the rest of ``outbox.send_all``: each file
    written and renamed, one sync for all); ``rest`` (the queue read and claimed, the replies
    marked sent in one transaction)."""

    def __init__(self) -> None:
        self.starts: list[float] = []
        self.sends: list[float | None] = []  # when sending the request's replies started
        self.cpu: list[float] = []  # the process's CPU time at each start
        self.service_cpu: list[float | None] = []  # CPU time from each start to its sending
        self.handled: list[float] = []
        self.parts: dict[str, list[float]] = {part: [] for part in TIMED}

    def sending(self, fn):
        """``send_queued``, noting when the first send after each request starts."""

        def wrapper(*args, **kwargs):
            if self.sends and self.sends[-1] is None:
                self.sends[-1] = time.perf_counter()
                self.service_cpu[-1] = time.process_time() - self.cpu[-1]
            return fn(*args, **kwargs)

        return wrapper

    def timed(self, part: str, fn):
        spent = self.parts[part]

        def wrapper(*args, **kwargs):
            t = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                if spent:  # (nothing is sent before the first request: the queue is empty)
                    spent[-1] += time.perf_counter() - t

        return wrapper

    def begin(self) -> None:
        self.starts.append(time.perf_counter())
        self.sends.append(None)
        self.cpu.append(time.process_time())
        self.service_cpu.append(None)
        for spent in self.parts.values():
            spent.append(0.0)

    def reset(self) -> None:
        lists = (self.starts, self.sends, self.cpu, self.service_cpu, self.handled)
        for spent in (*lists, *self.parts.values()):
            spent.clear()


class TimedJudge(Judge):
    """``Judge`` telling ``clock`` when each ``handle`` starts and how long it took."""

    def __init__(self, *args, clock: Clock, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.clock = clock

    def handle(self, mail, busy=None):
        self.clock.begin()
        try:
            return super().handle(mail, busy)
        finally:
            self.clock.handled.append(time.perf_counter() - self.clock.starts[-1])


@attrs.define
class Result:
    store: str
    cache: str
    games: int
    requests: int
    accepted: int
    refused: int
    create_seconds: float
    seconds: float
    cpu_seconds: float  # this process's CPU time over the pass (the machine may be shared)
    read_seconds: float  # from the pass's start to the first handle: the folder read
    service: list  # seconds per request: judged, committed, its inbox file moved
    reply: list  # seconds per request: its service, then its replies sent
    service_cpu: list  # the process's CPU seconds over each request's service
    parts: dict  # part -> mean seconds per request
    replies: int
    reply_bytes: int
    records: int  # in the store at the end, every game's

    @property
    def per_second(self) -> float:
        return self.accepted / self.seconds

    def quantile(self, q: float, of: str = "service") -> float:
        ordered = sorted(getattr(self, of))
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_pass(
    store_url: str,
    store_name: str,
    cache: int,
    games: int,
    seed: int,
    mails: list[tuple[str, bytes]],
    top: Path,
    profile: cProfile.Profile | None = None,
) -> Result:
    top.mkdir(parents=True)
    inbox_dir, outbox_dir = top / "inbox", top / "outbox"
    store = open_store(store_url)
    clock = Clock()
    compose, drawn, send_queued = outboxes.compose, judges.drawn, judges.send_queued
    try:
        judge = TimedJudge(store, JUDGE_KEY, cache=cache, clock=clock)
        t = time.perf_counter()
        for g in range(games):
            create_game(judge, seed, g)
        create_seconds = time.perf_counter() - t
        inbox = open_inbox(f"dir:{inbox_dir}")
        outbox = open_outbox(f"dir:{outbox_dir}", "judge@bench.example")
        serve_once(judge, inbox, outbox)  # the invitations (nothing in the inbox yet)
        invitations = _files(outbox_dir)
        start_ns = time.time_ns() - len(mails) * 1000
        for i, (sender, data) in enumerate(mails):
            path = inbox_dir / f"{sender}--{i:07d}.msgpack"
            path.write_bytes(data)
            stamp = start_ns + i * 1000  # the inbox reads the oldest first: keep stream order
            os.utime(path, ns=(stamp, stamp))
        judge.game = clock.timed("loading", judge.game)
        store.accept = clock.timed("commit", store.accept)
        outbox.send = clock.timed("sending", outbox.send)
        if hasattr(outbox, "send_all"):  # (one sync for all of a request's replies)
            outbox.send_all = clock.timed("sending", outbox.send_all)
        outboxes.compose = clock.timed("composing", compose)
        judges.drawn = clock.timed("drawing", drawn)
        judges.send_queued = clock.sending(send_queued)
        clock.reset()
        gc.collect()
        if profile is not None:
            profile.enable()
        t, cpu = time.perf_counter(), time.process_time()
        counts = serve_once(judge, inbox, outbox)
        end, cpu = time.perf_counter(), time.process_time() - cpu
        if profile is not None:
            profile.disable()
        replies = _files(outbox_dir) - invitations
        records = sum(len(store.load(game_id)[1]) for game_id in store.game_ids())
    finally:
        outboxes.compose, judges.drawn, judges.send_queued = compose, drawn, send_queued
        store.close()
    starts = clock.starts + [end]
    reply = [b - a for a, b in zip(starts, starts[1:], strict=False)]
    sends = [s if s is not None else b for s, b in zip(clock.sends, starts[1:], strict=False)]
    service = [s - a for a, s in zip(starts, sends, strict=False)]
    n = len(service)
    spent = {p: sum(clock.parts[p]) for p in TIMED}
    parts = {
        "loading": spent["loading"],
        "judging": sum(clock.handled) - spent["loading"] - spent["commit"],
        "commit": spent["commit"],
        "moving": sum(service) - sum(clock.handled),
        "drawing": spent["drawing"],
        "composing": spent["composing"],
        "writing": spent["sending"] - spent["composing"],
        "rest": sum(reply) - sum(service) - spent["drawing"] - spent["sending"],
    }
    return Result(
        store_name,
        "warm" if cache else "cold",
        games,
        len(mails),
        counts["accepted"],
        counts["refused"] + counts["duplicate"],
        create_seconds,
        end - t,
        cpu,
        (clock.starts[0] if clock.starts else end) - t,
        service,
        reply,
        [c for c in clock.service_cpu if c is not None],
        {p: v / max(n, 1) for p, v in parts.items()},
        sum(1 for p in replies if p.endswith(".eml")),
        sum(os.path.getsize(p) for p in replies),
        records,
    )


def _files(folder: Path) -> set[str]:
    return {str(p) for p in folder.rglob("*") if p.is_file()}


# ------------------------------------------------------------------ PostgreSQL
class Postgres:
    """A database per pass: on the server at ``--postgres URL``, or on a throw-away server
    (what tests/pg_server.py does, in short: initdb in a temporary folder, trust auth, a free
    port on 127.0.0.1; as root, run as the ``postgres`` user)."""

    def __init__(self, url: str | None) -> None:
        self.url = url
        self.top: str | None = None
        self.pg_ctl: list[str] = []
        self.version = ""
        self.made: list[str] = []  # the databases made (dropped at the end from a given server)

    def start(self) -> str | None:
        """None when ready, else why not (one line)."""
        try:
            import psycopg
        except ImportError:
            return "psycopg is not installed (pip install boardstate[postgres])"
        if self.url is None:
            why = self._start_server()
            if why:
                return why
        try:
            with psycopg.connect(self.url, autocommit=True) as conn:
                self.version = conn.execute("SHOW server_version").fetchone()[0]
        except psycopg.Error as exc:
            return f"cannot connect to {self.url}: {str(exc).strip().splitlines()[0]}"
        return None

    def _start_server(self) -> str | None:
        found = glob.glob("/usr/lib/postgresql/*/bin/initdb")
        if found:
            bin_dir = os.path.dirname(max(found, key=lambda p: int(p.split("/")[-3])))
        elif shutil.which("initdb"):
            bin_dir = os.path.dirname(shutil.which("initdb"))
        else:
            return (
                "no server binaries (initdb) found: apt-get install postgresql, or --postgres URL"
            )
        prefix, user = [], None
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                return "running as root and there is no 'postgres' user to run the server as"
            prefix = ["runuser", "-u", "postgres", "--"]
        self.top = tempfile.mkdtemp(prefix="boardstate-bench-pg-")
        if user is not None:
            os.chown(self.top, user.pw_uid, user.pw_gid)
        data, log = os.path.join(self.top, "data"), os.path.join(self.top, "server.log")
        self.pg_ctl = [*prefix, os.path.join(bin_dir, "pg_ctl"), "-D", data]
        initdb = [*prefix, os.path.join(bin_dir, "initdb"), "-D", data, "-U", "postgres"]
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {self.top}"
        for cmd, what in (
            ([*initdb, "-A", "trust", "-E", "UTF8", "--no-sync"], "initdb"),
            ([*self.pg_ctl, "-l", log, "-w", "-t", "60", "-o", options, "start"], "pg_ctl"),
        ):
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
            if done.returncode != 0:
                said = (done.stderr or done.stdout).strip().splitlines() or ["no output"]
                return f"{what} failed: {said[-1]}"
        self.url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
        return None

    def fresh(self) -> str:
        import psycopg

        name = f"bench_judge_{os.getpid()}_{len(self.made) + 1}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        self.made.append(name)
        return self.url.rsplit("/", 1)[0] + "/" + name

    def stop(self) -> None:
        if self.top is None:  # a server of the user's: leave it as it was
            if self.made:
                import psycopg

                with psycopg.connect(self.url, autocommit=True) as conn:
                    for name in self.made:
                        conn.execute(f"DROP DATABASE IF EXISTS {name}")
            return
        if os.path.exists(os.path.join(self.top, "data", "postmaster.pid")):
            subprocess.run([*self.pg_ctl, "-m", "fast", "-w", "stop"], capture_output=True)
        shutil.rmtree(self.top, ignore_errors=True)


# ------------------------------------------------------------------ report
def print_table(results: list[Result]) -> None:
    """One row a pass: the service and reply times (ms), the service's CPU time (this
    process's: a PostgreSQL server's own is not in it), and the reply time's parts (mean ms a
    request)."""
    print(
        "\n| store | game cache | games | requests | accepted/s | service p50 | service p99 "
        "| service max | service mean | service CPU p99 | reply p50 | reply p99 | reply mean "
        "| CPU ms | " + " | ".join(PARTS) + " |"
    )
    print("|---|---|---:|---:|---:" + "|---:" * (9 + len(PARTS)) + "|")
    for r in results:
        print(
            f"| {r.store} | {r.cache} | {r.games:,} | {r.requests:,} | {r.per_second:,.0f} "
            f"| {r.quantile(0.5) * 1e3:.1f} | {r.quantile(0.99) * 1e3:.1f} "
            f"| {max(r.service) * 1e3:.0f} | {statistics.fmean(r.service) * 1e3:.1f} "
            f"| {r.quantile(0.99, 'service_cpu') * 1e3:.1f} "
            f"| {r.quantile(0.5, 'reply') * 1e3:.1f} | {r.quantile(0.99, 'reply') * 1e3:.1f} "
            f"| {statistics.fmean(r.reply) * 1e3:.1f} "
            f"| {r.cpu_seconds / max(len(r.service), 1) * 1e3:.1f} | "
            + " | ".join(f"{r.parts[p] * 1e3:.1f}" for p in PARTS)
            + " |"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--moves", type=int, default=20, help="move requests per game, at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: 20 games, 8 moves, 10 cold"
    )
    parser.add_argument("--no-cold", action="store_true", help="skip the cold-cache passes")
    parser.add_argument(
        "--cold-games", type=int, default=100, help="games in the cold passes (the first ones)"
    )
    parser.add_argument("--postgres", default=None, help="a PostgreSQL URL, or 'none'")
    parser.add_argument(
        "--store", choices=("both", "sqlite", "postgresql"), default="both", help="which stores"
    )
    parser.add_argument(
        "--profile", action="store_true", help="cProfile the SQLite warm pass (slows its figures)"
    )
    parser.add_argument("--regenerate", action="store_true", help="remake the cached stream")
    args = parser.parse_args()
    if args.quick:
        args.games, args.moves, args.cold_games = 20, 8, 10
    started = time.perf_counter()

    stream, path, took = cached_stream(args.games, args.moves, args.seed, args.regenerate)
    mails = interleaved(stream)
    joins = sum(len(players_of(g)) for g in range(args.games))
    ended = sum(1 for g, game in enumerate(stream) if len(game) - len(players_of(g)) < args.moves)
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.platform()}, {os.cpu_count()} CPUs; boardstate {bs.__version__}"
    )
    print(
        f"workload: {args.games:,} {MODULE} games (2-4 players), {len(mails):,} requests "
        f"({joins:,} joins, {len(mails) - joins:,} moves; at most {args.moves} moves a game, "
        f"{ended} games ended sooner), {sum(len(d) for _, d in mails) / len(mails):.0f} bytes "
        f"a request; stream "
        + (f"made in {took:.1f} s" if took is not None else "read")
        + f" ({path})"
    )

    cold_games = min(args.cold_games, args.games)
    cold_mails = interleaved(stream[:cold_games])
    profile = cProfile.Profile() if args.profile else None
    results: list[Result] = []
    postgres = Postgres(None if args.postgres in (None, "none") else args.postgres)
    if args.store == "sqlite":
        args.postgres = "none"
    why = "--postgres none" if args.postgres == "none" else postgres.start()
    top = Path(tempfile.mkdtemp(prefix="boardstate-bench-judge-"))
    try:
        backends = []
        if args.store != "postgresql":
            backends.append(("SQLite", lambda n: str(top / f"store-{n}.sqlite")))
        if why:
            print(f"PostgreSQL: not available ({why})")
        else:
            print(f"PostgreSQL {postgres.version}")
            backends.append(("PostgreSQL", lambda n: postgres.fresh()))
        if not backends:
            return 1
        print(f"SQLite {sqlite3.sqlite_version}; files in {top}")
        n = 0
        for name, url_of in backends:
            variants = [(2048, args.games, mails)]
            if not args.no_cold:
                variants.append((0, cold_games, cold_mails))
            for cache, games, these in variants:
                n += 1
                load = os.getloadavg()[0]
                r = run_pass(
                    url_of(n),
                    name,
                    cache,
                    games,
                    args.seed,
                    these,
                    top / f"pass-{n}",
                    profile if (name == "SQLite" and cache) else None,
                )
                results.append(r)
                print(
                    f"  {name}, {r.cache} cache: {r.accepted:,}/{r.requests:,} accepted in "
                    f"{r.seconds:.1f} s, {r.cpu_seconds:.1f} s of CPU ({r.records / r.games:.1f} records a game at the end); "
                    f"{r.replies:,} replies, "
                    f"{r.reply_bytes / max(r.replies, 1):,.0f} bytes each with attachments; "
                    f"the games made in {r.create_seconds:.1f} s, the folder read in "
                    f"{r.read_seconds:.2f} s; load average {load:.2f} before, "
                    f"{os.getloadavg()[0]:.2f} after",
                    flush=True,
                )
                shutil.rmtree(top / f"pass-{n}", ignore_errors=True)
                if r.refused:
                    print(f"  {r.refused} requests refused: the stream is stale (--regenerate)")
                    return 1
    finally:
        postgres.stop()
        shutil.rmtree(top, ignore_errors=True)
    print_table(results)
    if profile is not None:
        print("\nSQLite, warm cache: the pass's costliest functions")
        pstats.Stats(profile).sort_stats("cumulative").print_stats(30)
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)
    print(f"\n(whole run: {time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
