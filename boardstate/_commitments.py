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
it now and then; pickled, they are that one ``bytes``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

SIZE = 32  # bytes of a commitment (a SHA-256: ``_secrets.commit``, ``HASH_SIZE``)
_MERGE_AT = 1024  # the newest commitments held as a set until there are this many


class Commitments:
    """A set of 32-byte commitments: ``add``, ``update``, ``in``, ``len``, iteration (in
    sorted order) and equality, as a ``set`` of bytes."""

    __slots__ = ("_sorted", "_recent")

    def __init__(self, packed: bytes = b"") -> None:
        if type(packed) is not bytes or len(packed) % SIZE:
            raise ValueError("commitments are 32 bytes each")
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
        packed = self._sorted
        return bool(packed) and type(commitment) is bytes and _find(packed, commitment) is True

    def packed(self) -> bytes:
        """Every commitment, sorted, in one ``bytes`` (the newest merged in first)."""
        if self._recent:
            self._merge()
        return self._sorted

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
        return len(self.packed()) // SIZE

    def __iter__(self) -> Iterator[bytes]:
        packed = self.packed()
        return (packed[i : i + SIZE] for i in range(0, len(packed), SIZE))

    def __eq__(self, other) -> bool:
        if isinstance(other, Commitments):
            return self.packed() == other.packed()
        if isinstance(other, (set, frozenset)):
            return len(self) == len(other) and all(c in self for c in other)
        return NotImplemented

    __hash__ = None  # (mutable, as a set)

    def __reduce__(self):
        return (Commitments, (self.packed(),))

    def __copy__(self) -> Commitments:
        copy = Commitments(self._sorted)
        copy._recent = set(self._recent)
        return copy

    def __deepcopy__(self, memo) -> Commitments:
        return self.__copy__()  # (bytes never change: shared)

    def __repr__(self) -> str:
        return f"Commitments({len(self)} held)"


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
