#!/usr/bin/env python3
"""Where attrs' class building spends its time at start, on Epic Duels' classes (issue 29).

    python bench/profile_attrs_classes.py [--runs 7]

Two measures, each in fresh processes (``--runs`` of them, medians), CPU time, the cyclic
collector off as the registry keeps it while a game is imported (``_gcpause``), with a cache
folder of the run's own, filled by an untimed first process (attrs' methods kept compiled,
``_attrscode``; the data files parsed, ``_datacache``), as any earlier command fills it:

1. **import**: Epic Duels' module imported after the command line's imports; the CPU of every
   ``attrs`` class made meanwhile (one timer around attrs' decorator, each class);
2. **steps**: a three-field event (``TurnBegan``, one of the 38) made again and again by
   ``attrs.frozen``, attrs' own steps each timed (inclusive: a step's time holds the steps it
   calls), beside a plain class statement with the same slots.  Each timer adds about 0.1 µs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

STEPS = {
    "_make": (
        "_transform_attrs",
        "attrib",
        "_make_attr_tuple_class",
        "_linecache_and_compile",
        "_compile_and_eval",
    ),
    "_make._ClassBuilder": (
        "__init__",
        "build_class",
        "_eval_snippets",
        "_create_slots_class",
        "add_repr",
        "add_eq",
        "add_hash",
        "add_init",
        "add_match_args",
        "_make_getstate_setstate",
    ),
    "_make.Attribute": ("from_counting_attr",),
}
MADE = 300
"""Classes made in a row by the steps' measure."""


def _timed(owner, name: str, label: str, totals: dict) -> None:
    function = getattr(owner, name)
    clock = time.process_time_ns

    def timed(*args, **kwargs):
        start = clock()
        try:
            return function(*args, **kwargs)
        finally:
            totals[label] = totals.get(label, 0) + clock() - start

    setattr(owner, name, timed)


def child_import() -> dict:
    import gc

    import attr._next_gen

    import boardstate.cli  # (the command line's imports, as a command has them)

    classes: list[int] = []
    attrs_decorator = attr._next_gen.attrs

    def timed(*args, **kwargs):
        start = time.process_time_ns()
        made = attrs_decorator(*args, **kwargs)
        classes.append(time.process_time_ns() - start)
        return made

    attr._next_gen.attrs = timed
    gc.disable()
    start = time.process_time_ns()
    import boardstate.modules.epic_duels  # noqa: F401

    module = time.process_time_ns() - start
    return {
        "module": module,
        "classes": len(classes),
        "in attrs": sum(classes),
        "each": statistics.median(classes),
    }


def child_steps() -> dict:
    import gc

    import attr
    import attrs

    import boardstate  # noqa: F401  (installs the kept methods)

    gc.disable()
    totals: dict[str, int] = {}
    for part, names in STEPS.items():
        owner = attr
        for step in part.split("."):
            owner = getattr(owner, step)
        for name in names:
            _timed(owner, name, f"{part.split('.')[-1].lstrip('_')}.{name}", totals)

    def event():
        class TurnBegan:
            __module__ = "boardstate.modules.epic_duels._state"  # (its methods kept)
            seat: int
            die: int
            actions: int

        return attrs.frozen(TurnBegan)

    def plain():
        class TurnBegan:
            __slots__ = ("seat", "die", "actions")
            seat: int
            die: int
            actions: int

        return TurnBegan

    result = {}
    for label, make in (("plain class statement", plain), ("attrs.frozen, all", event)):
        make()
        totals.clear()
        start = time.process_time_ns()
        for _ in range(MADE):
            make()
        result[label] = (time.process_time_ns() - start) / MADE
    result |= {label: total / MADE for label, total in totals.items()}
    return result


def run(kind: str, runs: int, env: dict) -> dict[str, float]:
    """Medians over ``runs`` fresh processes of ``kind``'s measures."""
    samples: dict[str, list[float]] = {}
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, __file__, "--child", kind],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        for label, value in json.loads(done.stdout).items():
            samples.setdefault(label, []).append(value)
    return {label: statistics.median(values) for label, values in samples.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--child", choices=("import", "steps"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps((child_import if args.child == "import" else child_steps)()))
        return 0
    with tempfile.TemporaryDirectory() as cache:
        env = os.environ | {"BOARDSTATE_CACHE": cache}
        run("import", 1, env)  # (untimed: fills the cache folder)
        run("steps", 1, env)
        imported = run("import", args.runs, env)
        steps = run("steps", args.runs, env)
    print(f"load average {os.getloadavg()[0]:.1f}; medians of {args.runs} processes, CPU")
    print(
        f"Epic Duels' module {imported['module'] / 1e6:.1f} ms; {imported['classes']:.0f} attrs "
        f"classes {imported['in attrs'] / 1e6:.1f} ms, {imported['each'] / 1e3:.0f} µs each"
    )
    print(f"one event class, made {MADE} times in a row (µs a class):")
    for label, value in sorted(steps.items(), key=lambda item: -item[1]):
        print(f"  {label:40s} {value / 1e3:7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
