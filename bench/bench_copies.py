#!/usr/bin/env python3
"""What a command costs on a long peer copy (issue 29): ``move`` and ``apply`` at 100, 1,000 and
10,000 records, as CPU time of the ``boardstate`` process, beside a bare ``--help``.

Two copies of one Duel of the Forces peer game (``longlog.make_long_peer_copies``: both players
bid R2-D2 round after round, by mail), the players' keys in a keys folder of the run's own.
Each round: fresh copies of both files; ``move alice.msgpack --as alice play r2`` writes a move
file, ``apply bob.msgpack`` takes it.  ``--memory`` first reads each copy checked in this
process, as the command before it would have (``load_checked``: what this user's boardstate has
checked is remembered, and the game as it found it saved, ``boardstate/_checked.py``: the
command then runs the rules on the records after it only); without it the cache folder is
empty, so every record is re-derived and every signature checked, as before the memory existed
(each player has a cache folder of their own, as on two machines).  Then ``apply``'s peak
memory (tracemalloc, in process: ``load_checked`` + ``referee_mailed`` + ``save_game``), and
the ``apply`` process's peak resident memory (``ru_maxrss``, the last round's).

"Before" figures come from an older tree run with ``PYTHONPATH`` (``git archive REV boardstate
bench tests modules cli | tar -x -C DIR``, then ``ln -s ../modules DIR/boardstate/modules`` and
``ln -s ../cli DIR/boardstate/cli``, which the editable install would otherwise take from the
checkout, then ``PYTHONPATH=DIR python DIR/bench/bench_copies.py``); "after" figures the same
way from the new revision: in a checkout others edit, the code fingerprint changes under the run
and voids the saved games.

``--verify GAMES``: instead, ``verify`` (the referee: every record re-derived, every signature
checked, no memory) of whole 2-player Duel of the Forces games in the peer mode (player 0's
copy) and the hosted mode (the judge's published log, and player 0's copy), records/s of CPU
time beside eventsourcing's replay of one aggregate with as many events as records (the peer of
bench_engine.py, bench/peers; CPU time too, the two taking turns, best of five); then one
signature check's CPU beside one event's, the ceiling the signatures alone leave verify.

``--epic``: what a checked read of an Epic Duels peer copy spends on saving its game, whose
state pickle cannot write (``_checked.keep_state``): the try, as every command made it before
the game was marked, beside the mark read back, CPU time, pair by pair, best of 200.

Usage: python bench/bench_copies.py [--sizes 100,1000,10000] [--rounds 3] [--memory]
       python bench/bench_copies.py --verify 20
       python bench/bench_copies.py --epic
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402
from longlog import make_long_peer_copies  # noqa: E402

import boardstate as bs  # noqa: E402
from boardstate import keys as player_keys  # noqa: E402
from boardstate._fileformat import encode_game, parse_raw  # noqa: E402
from boardstate._referee import verify  # noqa: E402


def child_cpu(args, env, cwd) -> float:
    """CPU seconds (user + system) of one ``boardstate`` process."""
    return child_run(args, env, cwd)[0]


def child_run(args, env, cwd) -> tuple[float, int]:
    """``(CPU seconds, peak resident memory in bytes)`` of one ``boardstate`` process (the
    memory as GNU time reports it: a child forked from this process would report this
    process's own peak, which Linux keeps across ``exec``)."""
    with tempfile.NamedTemporaryFile() as peak, tempfile.TemporaryFile() as err:
        command = [sys.executable, "-m", "boardstate.cli", *args]
        child = subprocess.Popen(
            ["/usr/bin/time", "-f", "%M", "-o", peak.name, *command],
            env=env,
            cwd=cwd,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
        _pid, status, usage = os.wait4(child.pid, 0)
        if os.waitstatus_to_exitcode(status):
            err.seek(0)
            raise SystemExit(f"boardstate {' '.join(args)} failed: {err.read().decode()}")
        kib = int(Path(peak.name).read_text().split()[-1])
    return usage.ru_utime + usage.ru_stime, kib * 1024


_CACHE = os.environ.get("BOARDSTATE_CACHE")


def _remove(folder: Path) -> None:
    """The run's folder removed, the cache folder the run set put back first (what writes to
    the cache as the process ends must not write into the removed folder again)."""
    if _CACHE is None:
        os.environ.pop("BOARDSTATE_CACHE", None)
    else:
        os.environ["BOARDSTATE_CACHE"] = _CACHE
    shutil.rmtree(folder)


def make_copies(size: int, folder: Path, keys) -> int:
    """alice.msgpack and bob.msgpack, ``size`` records or a few more; their record count."""
    alice, bob = make_long_peer_copies(size, keys)
    bs.save_game(alice, folder / f"{size}-alice.msgpack")
    bs.save_game(bob, folder / f"{size}-bob.msgpack")
    return alice.seq


def apply_peak(folder: Path, size: int, work: Path, memory: bool) -> int:
    """Peak traced memory of ``apply`` in process (the copy read checked, the move refereed,
    the copy written)."""
    bob = work / "bob.msgpack"
    shutil.copy(folder / f"{size}-bob.msgpack", bob)
    os.environ["BOARDSTATE_CACHE"] = str(work / "cache-peak")
    if memory:
        bs.load_checked(bob)
    tracemalloc.start()
    game = bs.load_checked(bob)
    delivery = bs.referee_mailed(game, bs.read_mailed(str(work / "move.msgpack")))
    bs.save_game(delivery.game, bob)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def cpu_best(fn, rounds: int) -> float:
    """Best CPU time of ``rounds`` calls, each checking every signature afresh (the process's
    signatures found good, and the letters' ciphers it made, are forgotten first)."""
    from boardstate import _peer

    best = float("inf")
    for _ in range(rounds):
        player_keys._GOOD.clear()
        getattr(_peer._cipher, "cache_clear", lambda: None)()  # (an older tree: none kept)
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def whole_games(games: int) -> dict[str, list[bytes]]:
    """Finished 2-player Duel of the Forces games: each mode's files, as ``verify`` reads them."""
    from bench_peer import ByMail
    from test_hosted import Hosted

    module = bs.get_module("duel-of-the-forces")
    files: dict[str, list[bytes]] = {"peer copy": [], "hosted log": [], "hosted copy": []}
    for g in range(games):
        pick = random.Random(g)
        keys = [Ed25519PrivateKey.generate() for _ in range(2)]
        table = ByMail.peer(module, 2, [pick.randbytes(32) for _ in keys], keys, pick)
        table.play_out()
        files["peer copy"].append(encode_game(table.copies[0]))
        hosted = Hosted(2, "duel-of-the-forces", seed=g)
        hosted.play()
        files["hosted log"].append(encode_game(hosted.judge))
        files["hosted copy"].append(encode_game(hosted.copies[0]))
    return files


def eventsourcing_cpu(events: int, rounds: int) -> float:
    """CPU seconds of eventsourcing's replay of one aggregate of ``events`` events (as
    bench/peers/eventsourcing_replay.py builds it), best of ``rounds``."""
    sys.path.insert(0, str(HERE / "peers"))
    import eventsourcing_replay as esr

    game_class = esr._game_class()
    app = esr.Application(env=dict(esr.PERSISTENCE["popo"]))
    game = game_class(players=2)
    for i in range(events - 1):
        game.play(i & 1, i % 13 + 1)
    app.save(game)
    return cpu_best(lambda: app.repository.get(game.id), rounds)


def verify_table(games: int) -> None:
    files = whole_games(games)
    print(f"verify of whole games ({games} per row; records/s of CPU, best of 5):\n")
    print("| files | records/game | verify records/s | eventsourcing events/s | ratio |")
    print("|---|---:|---:|---:|---:|")
    for name, datas in files.items():
        records = sum(len(parse_raw(d).records) for d in datas)

        def run(datas=datas):
            for data in datas:
                assert verify(parse_raw(data)).ok

        ours = records / cpu_best(run, 5)
        peer = records / eventsourcing_cpu(records, 5)
        print(f"| {name} | {records / games:.0f} | {ours:,.0f} | {peer:,.0f} | {ours / peer:.2f} |")
    check = signature_cpu()
    event = eventsourcing_cpu(10_000, 5) / 10_000
    print(
        f"\none signature check (keys.verifies, afresh): {check * 1e6:.1f} us; eventsourcing, "
        f"an event: {event * 1e6:.1f} us; so with nothing else to do, verify would reach "
        f"{event / check:.2f}x with one check a record (peer), {event / (2 * check):.2f}x with "
        f"two (hosted)"
    )


def signature_cpu(checks: int = 2000) -> float:
    """CPU seconds of one Ed25519 check as verify makes it (``keys.verifies``, none remembered
    as good), on a message of a record's size, best of 5."""
    key = Ed25519PrivateKey.generate()
    public = key.public_key().public_bytes_raw()
    message = random.Random(0).randbytes(160)
    signature = key.sign(message)

    def run():
        for _ in range(checks):
            player_keys._GOOD.clear()
            assert player_keys.verifies(public, signature, message)

    return cpu_best(run, 5) / checks


def epic_keep_state(rounds: int) -> None:
    """``keep_state`` on an Epic Duels peer copy: tried (the old way) and marked (the new)."""
    from bench_peer import ByMail

    from boardstate import _checked

    folder = Path(tempfile.mkdtemp(prefix="bench-epic-"))
    os.environ["BOARDSTATE_CACHE"] = str(folder / "cache")
    keys = [Ed25519PrivateKey.generate() for _ in range(2)]
    pick = random.Random(3)
    module = bs.get_module("epic-duels")
    table = ByMail.peer(module, 2, [pick.randbytes(32) for _ in keys], keys, pick)
    print("| records | keep_state, tried | keep_state, marked | saved |")
    print("|---:|---:|---:|---:|")
    for steps in (4, 16):
        while table.copies[0].seq < steps * 10 and table.copies[0].outcome() is None:
            for seat in (0, 1):
                table.act(seat)
                table.mail(seat, 1 - seat)
        path = folder / f"ann-{steps}.msgpack"
        bs.save_game(table.copies[0], path)
        game = bs.load_checked(path)  # (marks the game)
        rows = parse_raw(path.read_bytes()).records
        marked = _checked.resume(bs.Game.of_file(parse_raw(path.read_bytes())), rows)
        assert marked.by_identity
        tried = marked_best = float("inf")
        for _ in range(rounds):
            t = time.process_time()
            _checked.keep_state(game, rows, _checked.Saved())
            tried = min(tried, time.process_time() - t)
            t = time.process_time()
            _checked.keep_state(game, rows, marked)
            marked_best = min(marked_best, time.process_time() - t)
        print(
            f"| {game.seq} | {tried * 1e6:.0f} µs | {marked_best * 1e6:.1f} µs | "
            f"{(tried - marked_best) * 1e6:.0f} µs |"
        )
    _remove(folder)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--memory", action="store_true", help="commands find their copy checked")
    parser.add_argument("--verify", type=int, metavar="GAMES", help="verify beside eventsourcing")
    parser.add_argument("--epic", action="store_true", help="Epic Duels: keep_state's pickle")
    args = parser.parse_args()
    if args.epic:
        epic_keep_state(200)
        return 0
    if args.verify:
        verify_table(args.verify)
        return 0
    sizes = [int(s) for s in args.sizes.split(",")]
    folder = Path(tempfile.mkdtemp(prefix="bench-copies-"))
    env = dict(os.environ, BOARDSTATE_KEYS=str(folder / "keys"))
    keys = []
    for name in ("alice", "bob"):
        player_keys.new_key(name, folder / "keys")
        keys.append(player_keys.load_private(name, folder / "keys"))
    records = {size: make_copies(size, folder, keys) for size in sizes}
    help_cpu = min(child_cpu(["--help"], env, folder) for _ in range(args.rounds))
    print(f"`boardstate --help`: {help_cpu * 1000:.0f} ms CPU (best of {args.rounds})\n")
    print(
        "| records | move, ms CPU | ÷ --help | apply, ms CPU | ÷ --help | apply peak, MiB "
        "| `apply` process, peak RSS MiB |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for size in sizes:
        best_move = best_apply = float("inf")
        rss = 0
        for r in range(args.rounds):
            work = folder / f"run-{size}-{r}"
            work.mkdir()
            caches = {}
            for name in ("alice", "bob"):  # (each player's own cache folder, as on two machines)
                caches[name] = os.environ["BOARDSTATE_CACHE"] = str(work / f"cache-{name}")
                shutil.copy(folder / f"{size}-{name}.msgpack", work / f"{name}.msgpack")
                if args.memory:
                    bs.load_checked(work / f"{name}.msgpack")
            move = ["move", "alice.msgpack", "--as", "alice", "play r2", "-o", "move.msgpack"]
            env["BOARDSTATE_CACHE"] = caches["alice"]
            best_move = min(best_move, child_cpu(move, env, work))
            env["BOARDSTATE_CACHE"] = caches["bob"]
            cpu, rss = child_run(["apply", "bob.msgpack", "move.msgpack"], env, work)
            best_apply = min(best_apply, cpu)
        peak = apply_peak(folder, size, work, args.memory)
        print(
            f"| {records[size]:,} | {best_move * 1000:.0f} | {best_move / help_cpu:.1f} | "
            f"{best_apply * 1000:.0f} | {best_apply / help_cpu:.1f} | {peak / 2**20:.1f} "
            f"| {rss / 2**20:.0f} |"
        )
    _remove(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
