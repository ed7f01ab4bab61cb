#!/usr/bin/env python3
"""The file benchmarks: raw unpack, replay (load + fold), verify, and the JSON baseline.

On a long generated Duel of the Forces log (bench/longlog.py), and beside pyeventsourcing's
replay of an aggregate with as many events (if installed: bench/requirements-peers.txt).

Usage: python bench/bench_engine.py [--rounds 25000]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import msgpack

import boardstate as bs
from boardstate import Kind, Reveal, Secret

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "peers"))

from longlog import make_long_game  # noqa: E402


def best_of_interleaved(fns, rounds=5) -> list[float]:
    """Best time of each function over ``rounds``, the functions taking turns within a round,
    so a slow spell of a shared machine hits them all alike."""
    best = [float("inf")] * len(fns)
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            gc.collect()
            t = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - t)
    return best


def as_json(value):
    if isinstance(value, Secret):  # with its opening when held, as the msgpack file has it
        out = {"commitment": value.commitment.hex(), "owners": value.owners}
        if value.known:
            out.update(salt=value.salt.hex(), value=as_json(value.value))
        return out
    if isinstance(value, Reveal):
        return {
            "commitment": value.commitment.hex(),
            "salt": value.salt.hex(),
            "value": as_json(value.value),
        }
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, tuple):
        return [as_json(v) for v in value]
    return value


def json_log(game) -> bytes:
    """The same log as JSON objects, one per line: the baseline a naive format would be."""
    lines = [json.dumps(game.header.to_map(), default=as_json)]
    prev = game.header.game_id
    for rec in game.records:
        events = [
            {
                "type": type(e).__event_name__,
                **{
                    k: as_json(v)
                    for k, v in zip(
                        [f for f in type(e).__annotations__], type(e).__event_fields__(e)
                    )
                },
            }
            for e in rec.events
        ]
        lines.append(
            json.dumps(
                {
                    "seq": rec.seq,
                    "kind": Kind(rec.kind).name.lower(),
                    "actor": rec.actor,
                    "command": rec.command,
                    "sealed": as_json(rec.sealed),
                    "events": events,
                    "prev": prev.hex(),
                    "hash": rec.hash.hex(),
                }
            )
        )
        prev = rec.hash
    return ("\n".join(lines) + "\n").encode()


def peak_verify_memory(path) -> int:
    gc.collect()
    tracemalloc.start()
    verdict = bs.verify(path, keep_records=False)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert verdict.ok
    return peak


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=25000)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp())
    game = make_long_game(args.rounds)
    path = tmp / "long.msgpack"
    bs.save_game(game, path)
    n = game.seq
    n_events = sum(len(r.events) for r in game.records)
    size = path.stat().st_size
    jpath = tmp / "long.jsonl"
    jpath.write_bytes(json_log(game))
    jsize = jpath.stat().st_size

    def raw():
        with open(path, "rb") as f:
            for _ in msgpack.Unpacker(f, raw=False):
                pass

    def raw_bodies():
        with open(path, "rb") as f:
            unpacker = msgpack.Unpacker(f, raw=False)
            next(unpacker)
            for body, _h, _o in unpacker:
                msgpack.unpackb(body, ext_hook=lambda c, d: d)

    def replay():
        bs.load_game(path)

    def verify():
        assert bs.verify(path, keep_records=False).ok

    def json_parse():
        with open(jpath, "rb") as f:
            for line in f:
                json.loads(line)

    t_raw, t_bodies, t_replay, t_verify, t_json = best_of_interleaved(
        [raw, raw_bodies, replay, verify, json_parse]
    )
    small = tmp / "small.msgpack"
    bs.save_game(make_long_game(args.rounds // 4, seed=2), small)
    mem_small, mem_long = peak_verify_memory(small), peak_verify_memory(path)
    small_n = bs.load_game(small).seq

    print(
        f"log: {n:,} records, {n_events:,} events; msgpack {size:,} bytes "
        f"({size / n:.1f} bytes/record); JSON {jsize:,} bytes ({jsize / n:.1f} bytes/record); "
        f"ratio {size / jsize:.2f}\n"
    )
    print("| what | records/s | events/s | vs raw unpack |")
    print("|---|---:|---:|---:|")
    for name, t in (
        ("raw msgpack unpack of the file", t_raw),
        ("raw unpack incl. record bodies", t_bodies),
        ("replay (load + fold, chain checked)", t_replay),
        ("verify (full re-derivation)", t_verify),
        ("JSON baseline: json.loads per record", t_json),
    ):
        print(f"| {name} | {n / t:,.0f} | {n_events / t:,.0f} | {t / t_raw:.1f}x |")
    print(
        f"\nverify peak memory (tracemalloc): {mem_small / 1e6:.2f} MB for {small_n:,} records, "
        f"{mem_long / 1e6:.2f} MB for {n:,} records"
    )
    try:
        import eventsourcing_replay as esr

        r = esr.eventsourcing_replay_events_per_s(n_events=n)
        print(
            f"\npeer, same run: eventsourcing {r.get('version', '')} replays {r['events']:,} "
            f"events at {r['events_per_s']:,.0f} events/s (no rules check) "
            f"({r['persistence']})"
        )
    except Exception as exc:
        print(f"\n(eventsourcing not measured: {exc})")
    os.remove(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
