"""The replay page of every sample game, as every viewer the file allows: its size, and the
time to write it.

    python bench/bench_replay_pages.py [--jobs N] [--out DIR] [FILE.msgpack ...]

Every file in replays/ (or the files named), as a spectator and as each player, is written with
``boardstate replay FILE [--as P] --html OUT`` (one process a page, ``--jobs`` at once); a
viewer the file does not allow (a player's copy read as another player) is left out, saying
why.  Prints one row a page, largest first, and the largest.  The figures go into
docs/performance.md, "Replay page sizes".
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import boardstate as bs

ROOT = Path(__file__).resolve().parent.parent
BOARDSTATE = [sys.executable, "-m", "boardstate.cli"]


def pages(files: list[Path]) -> list[tuple[Path, str | None]]:
    """(file, viewer) for every viewer of every file: the spectator and each player."""
    out = []
    for path in files:
        game = bs.load_game(path)
        out += [(path, None)] + [(path, name) for name in game.players]
    return out


def write(folder: Path, path: Path, viewer: str | None) -> tuple[int, float, str]:
    """(page size in bytes, seconds, why not) for one page."""
    out = folder / f"{path.stem}-{viewer or 'spectator'}.html"
    command = [*BOARDSTATE, "replay", str(path), "--html", str(out), "--force"]
    if viewer is not None:
        command += ["--as", viewer]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        return 0, seconds, done.stderr.strip()
    return out.stat().st_size, seconds, ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, help="keep the pages in this folder")
    args = parser.parse_args()
    files = args.files or sorted((ROOT / "replays").glob("*.msgpack"))
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.out or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        todo = pages(files)
        with ThreadPoolExecutor(args.jobs) as pool:
            done = list(pool.map(lambda page: write(folder, *page), todo))
    rows = sorted(zip(todo, done), key=lambda row: -row[1][0])
    print(f"{'file':45} {'viewer':10} {'records':>7} {'bytes':>11} {'seconds':>7}")
    for (path, viewer), (size, seconds, why) in rows:
        records = bs.load_game(path).seq
        if why:
            print(f"{path.name:45} {viewer or 'spectator':10} {records:7} left out: {why}")
        else:
            print(
                f"{path.name:45} {viewer or 'spectator':10} {records:7} {size:11,} {seconds:7.1f}"
            )
    (path, viewer), (size, _, _) = rows[0]
    print(f"largest: {path.name} as {viewer or 'a spectator'}, {size:,} bytes")


if __name__ == "__main__":
    main()
