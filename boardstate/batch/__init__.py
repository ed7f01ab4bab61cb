"""Archives and self-play at scale: many game files verified, many games played, in this
process, in a pool of local processes or on a Ray cluster — the same verdicts and the same
files whichever (``boardstate verify PATH...``, ``boardstate selfplay``).

    with make_runner(jobs=2) as runner:              # or make_runner(ray="local")
        for checked in check_files(game_paths(["replays"]), runner):
            print(checked.line())                    # a manifest line: path, hash, verdict...

A run's manifest (``Manifest``) has a line per file or game, written as the work is done and
sorted when it completes; an interrupted run resumes from it (``read_manifest``).
"""

from ._checked import (
    ERROR,
    FAILED,
    OK,
    UNREADABLE,
    VERDICTS,
    Checked,
    check_data,
    check_files,
    check_path,
)
from ._manifest import BadManifest, Manifest, game_paths, read_manifest
from ._runners import NoRay, Processes, RayRunner, Serial, make_runner
from ._selfplay import CREATED, Plan, Played, check_bot, play_games, play_one, seat_names, summary

__all__ = [
    "CREATED",
    "ERROR",
    "FAILED",
    "OK",
    "UNREADABLE",
    "VERDICTS",
    "BadManifest",
    "Checked",
    "Manifest",
    "NoRay",
    "Plan",
    "Played",
    "Processes",
    "RayRunner",
    "Serial",
    "check_bot",
    "check_data",
    "check_files",
    "check_path",
    "game_paths",
    "make_runner",
    "play_games",
    "play_one",
    "read_manifest",
    "seat_names",
    "summary",
]
