"""Every commitment a game has made, held compactly (issue 29: ``apply``'s memory flat in the
length of the game).

A commitment may be made once in a game: a commit, a peer deal's arranged pile or a shared
deck's claim that repeats one made before is refused as a signed choice replayed
(``SealedChoices.check_commit``, ``trust/_signed.py``, ``trust/shared_deck.py``).  Any
earlier commitment can be replayed, one opened long ago too, so every one is kept for the
whole game: that check needs them all, exactly.  What need not grow with them is what each
costs: a Python set holds a bytes object and a slot per commitment (about 120 bytes for 32
of digest, 5 MiB at 100,000 records).  Here the commitments are 32-byte digests in one sorted
``bytes`` (32 bytes each, found by binary search), the newest few in a small set merged into
it now and then; pickled, they are that one ``bytes``.  A copy read from its saved game
(``_checked``) leaves the ones saved in the saved game's file (``OnFile``): found there by
binary search through their own descriptor, streamed into the next saved game with the new
ones put in their places, never all read into memory.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Iterable, Iterator

SIZE = 32  # bytes of a commitment (a SHA-256: ``_secrets.commit``, ``HASH_SIZE``)
_MERGE_AT = 1024  # the newest commitments held as a set until there are this many
_CHUNK = 2048  # commitments a read of the file streams at once (64 KiB)


class OnFile:
    """``count`` sorted commitments at ``offset`` of a file, read through ``fd`` (this
    object's own, closed with it).  The bytes were checked against their digest when the
    file was opened (``_checked``); the cache's files are replaced, never changed in place."""

    __slots__ = ("_fd", "_offset", "count", "__weakref__")

    def __init__(self, fd: int, offset: int, count: int) -> None:
        self._fd, self._offset, self.count = fd, offset, count
        weakref.finalize(self, os.close, fd)

    def at(self, index: int) -> bytes:
        data = os.pread(self._fd, SIZE, self._offset + index * SIZE)
        if len(data) != SIZE:
            raise OSError("the saved commitments were cut short")
        return data

    def find(self, commitment, lo: int = 0):
        """``True`` if ``commitment`` is here, else the index of the first one after it."""
        hi = self.count
        while lo < hi:
            mid = (lo + hi) >> 1
            if self.at(mid) < commitment:
                lo = mid + 1
            else:
                hi = mid
        return True if lo < self.count and self.at(lo) == commitment else lo

    def chunks(self, start: int = 0, stop: int | None = None) -> Iterator[bytes]:
        """Commitments ``start`` to ``stop`` as they lie in the file, a chunk at a time."""
        stop = self.count if stop is None else stop
        for at in range(start, stop, _CHUNK):
            size = (min(at + _CHUNK, stop) - at) * SIZE
            data = os.pread(self._fd, size, self._offset + at * SIZE)
            if len(data) != size:
                raise OSError("the saved commitments were cut short")
            yield data

    def __reduce__(self):  # (pickled on its own, outside a cut: the bytes themselves)
        return (bytes, (b"".join(self.chunks()),))


class Commitments:
    """A set of 32-byte commitments: ``add``, ``update``, ``in``, ``len``, iteration (in
    sorted order) and equality, as a ``set`` of bytes."""

    __slots__ = ("_file", "_sorted", "_recent")

    def __init__(self, packed: bytes = b"", on_file: OnFile | None = None) -> None:
        if type(packed) is not bytes or len(packed) % SIZE:
            raise ValueError("commitments are 32 bytes each")
        self._file = on_file  # (the ones a saved game left in its file, if any: shared)
        self._sorted = packed  # (sorted, no two alike; shared by copies: never changed)
        self._recent: set[bytes] = set()

    def add(self, commitment: bytes) -> None:
        if type(commitment) is not bytes or len(commitment) != SIZE:
            raise ValueError("a commitment is 32 bytes")
        recent = self._recent
        recent.add(commitment)
        if len(recent) >= _MERGE_AT:
            self._merge()

    def update(self, commitments: Iterable[bytes]) -> None:
        for commitment in commitments:
            self.add(commitment)

    def __contains__(self, commitment) -> bool:
        if commitment in self._recent:
            return True
        if type(commitment) is not bytes:
            return False
        packed, on_file = self._sorted, self._file
        if packed and _find(packed, commitment) is True:
            return True
        return on_file is not None and on_file.find(commitment) is True

    def packed(self) -> bytes:
        """Every commitment, sorted, in one ``bytes`` (the newest merged in first; those on
        file read into it)."""
        if self._recent:
            self._merge()
        return self._sorted if self._file is None else b"".join(self.chunks())

    def chunks(self) -> Iterator[bytes]:
        """Every commitment, sorted, a part at a time: those on file streamed from it, each
        of the others put in its place."""
        if self._recent:
            self._merge()
        on_file, packed = self._file, self._sorted
        if on_file is None:
            yield packed
            return
        start = 0
        for i in range(0, len(packed), SIZE):
            commitment = packed[i : i + SIZE]
            at = on_file.find(commitment, start)
            if at is True:
                continue  # (already on file)
            yield from on_file.chunks(start, at)
            yield commitment
            start = at
        yield from on_file.chunks(start)

    def _merge(self) -> None:
        """The newest commitments put in their places in the sorted bytes (a new ``bytes``:
        a copy sharing the old one keeps it)."""
        old, pieces, start, lo = self._sorted, [], 0, 0
        count = len(old) // SIZE
        for commitment in sorted(self._recent):
            at = _find(old, commitment, lo, count)
            if at is True:
                continue  # (already held)
            pieces.append(old[start * SIZE : at * SIZE])
            pieces.append(commitment)
            start = lo = at
        pieces.append(old[start * SIZE :])
        self._sorted = b"".join(pieces)
        self._recent = set()

    def __len__(self) -> int:
        return sum(map(len, self.chunks())) // SIZE

    def __iter__(self) -> Iterator[bytes]:
        for packed in self.chunks():
            yield from (packed[i : i + SIZE] for i in range(0, len(packed), SIZE))

    def __eq__(self, other) -> bool:
        if isinstance(other, Commitments):
            return self.packed() == other.packed()
        if isinstance(other, (set, frozenset)):
            return len(self) == len(other) and all(c in self for c in other)
        return NotImplemented

    __hash__ = None  # (mutable, as a set)

    def __reduce__(self):  # (the part on file by itself: a cut names it, shared: ``_cuts``)
        return (_rebuilt, (self._file, self._sorted, tuple(self._recent)))

    def __copy__(self) -> Commitments:
        copy = Commitments(self._sorted, self._file)
        copy._recent = set(self._recent)
        return copy

    def __deepcopy__(self, memo) -> Commitments:
        return self.__copy__()  # (bytes never change: shared)

    def __repr__(self) -> str:
        return f"Commitments({len(self)} held)"


def _rebuilt(on_file, packed: bytes, recent: tuple) -> Commitments:
    """``Commitments`` as ``__reduce__`` wrote them (``on_file``: the part on file, or its
    bytes when it was pickled on its own)."""
    if type(on_file) is bytes:
        out = Commitments(on_file)
        out.update(packed[i : i + SIZE] for i in range(0, len(packed), SIZE))
    else:
        out = Commitments(packed, on_file)
    out.update(recent)
    return out


def _find(packed: bytes, commitment, lo: int = 0, hi: int | None = None):
    """``True`` if ``commitment`` is in ``packed`` (sorted 32-byte digests), else the index
    of the first digest after it (binary search between ``lo`` and ``hi``)."""
    if hi is None:
        hi = len(packed) // SIZE
    while lo < hi:
        mid = (lo + hi) >> 1
        if packed[mid * SIZE : mid * SIZE + SIZE] < commitment:
            lo = mid + 1
        else:
            hi = mid
    return True if packed[lo * SIZE : lo * SIZE + SIZE] == commitment else lo
