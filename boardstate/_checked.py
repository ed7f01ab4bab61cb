"""What this user's boardstate has already checked of a signed copy: the memory that lets
``move``, ``apply`` and merges check only the records that are new (issue 29).

A copy's records are checked twice over when they come in: re-derived under the rules, and
their signatures (and the proofs a shared deck's deals carry) checked.  The rules must run
again on every read (what waits for whom is known only so); the signatures need not: once the
records 0..N of a file were checked, the same bytes need no second check.

The memory is a digest of exactly what a signature check reads, record by record (the hash
that chains the body, the signature, the player's request), so a file whose records 0..N give
the remembered digest holds the records that were checked; a record changed, re-signed or
re-chained gives another digest and the file is checked in full.  It is kept in the user's
cache folder (``$BOARDSTATE_CACHE``, or ``$XDG_CACHE_HOME/boardstate``, ``~/.cache/boardstate``),
one small file per game, never in the game file: a field in the file would be forged with
the file (a copy received by mail, an edited file), while this folder is written by this
user's boardstate only.  The referee (``verify``) never reads it.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import msgpack

MAX_REMEMBERED = 8  # (seq, digest) pairs per game: several copies of one game on one machine
_MAX_BYTES = 4096


def cache_dir() -> Path:
    """Where the memory is kept (the environment decides)."""
    from .keys import user_folder

    return user_folder("BOARDSTATE_CACHE", "XDG_CACHE_HOME", ".cache")


def _path(game_id: bytes) -> Path:
    return cache_dir() / "checked" / game_id.hex()


def remembered(game_id: bytes) -> list[tuple[int, bytes]]:
    """The ``(seq, digest)`` pairs remembered for a game, newest first (none if unreadable:
    the memory only ever saves work)."""
    try:
        with open(_path(game_id), "rb") as f:
            data = f.read(_MAX_BYTES + 1)
        pairs = msgpack.unpackb(data, use_list=False) if len(data) <= _MAX_BYTES else ()
    except (OSError, ValueError, msgpack.UnpackException):
        return []
    return [
        (seq, digest)
        for seq, digest in (p for p in pairs if type(p) is tuple and len(p) == 2)
        if type(seq) is int and seq >= 0 and type(digest) is bytes and len(digest) == 32
    ][:MAX_REMEMBERED]


def remember(game_id: bytes, seq: int, digest: bytes) -> None:
    """Add ``(seq, digest)`` to the game's memory: a new file put in place (a crash leaves the
    old memory, or none); a folder that cannot be written leaves the memory as it was (the
    next command checks more, nothing else)."""
    pairs = [(seq, digest)] + [p for p in remembered(game_id) if p != (seq, digest)]
    path = _path(game_id)
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(msgpack.packb(pairs[:MAX_REMEMBERED]))
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass


def digests(rows, at) -> tuple[dict[int, bytes], bytes]:
    """The running digest of a file's records (``Row``s, from the setup on) at each sequence
    number of ``at``, and after the last: what a signature check of records 0..seq reads (the
    hash that chains the body, the signature, the player's request) and nothing else."""
    at = set(at)
    found = {}
    sha = hashlib.sha256(b"boardstate-checked")
    update, pack = sha.update, msgpack.Packer(use_bin_type=True).pack
    for seq, row in enumerate(rows):
        update(row[1])
        update(pack((row[3], row[5])))
        if seq in at:
            found[seq] = sha.copy().digest()
    return found, sha.digest()


def check_and_remember(game_id: bytes, rows: list):
    """``(through, remember)``: the last record of ``rows`` (a file's, from the setup on) whose
    signatures this user's boardstate has checked (-1: none), and what to call once every
    record of ``rows`` is checked, to remember that."""
    pairs = remembered(game_id)
    found, last = digests(rows, (seq for seq, _ in pairs))
    through = max((seq for seq, digest in pairs if found.get(seq) == digest), default=-1)

    def remember_all() -> None:
        if rows and through < len(rows) - 1:
            remember(game_id, len(rows) - 1, last)

    return through, remember_all
