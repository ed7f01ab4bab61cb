"""A log whose first records stay in the file they were read from (issue 29: ``apply`` and
``move`` on a long copy in memory flat in its length).

A copy read from the game its last command saved (``_checked``) holds in memory the records
from ``first`` on only: those its commands use (the records not yet settled with the other
copies, those the saved game names, the new ones).  The records before ``first`` are in the
file: a command that asks for one of them gets them all, read back then from the very file
that was read (``load``: its bytes checked against the digest taken when they were first read,
a changed file refused); the copy is written back by streaming those bytes
(``_fileformat.save_game``, ``stored``), checked the same way.  It is a list otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence


class FileLog(MutableSequence):
    """The log of a game: ``first`` records in the file (``stored``: their bytes, ``load``:
    them read back as records), then ``tail`` in memory."""

    def __init__(
        self, first: int, tail: list, stored, load: Callable[[], list], folded=None
    ) -> None:
        self._first = first
        self._tail = tail
        self._stored = stored
        self._load = load
        # (the module's state after record ``first - 1``, its events folded as
        # ``_takeback.states_after`` folds them: what words about a record start from)
        self.folded = folded

    def on_file(self):
        """``(how many records are in the file only, their bytes)``; ``(0, None)`` once they
        were read back."""
        return self._first, self._stored

    def _all(self) -> list:
        if self._first:
            head = self._load()
            if len(head) != self._first:
                raise RuntimeError("the file gave back another number of records")
            self._tail[:0] = head
            self._first, self._stored = 0, None
        return self._tail

    def held(self) -> tuple[int, list]:
        """``(the sequence number of the first record in memory, those records)``."""
        return self._first, self._tail

    def __len__(self) -> int:
        return self._first + len(self._tail)

    def __getitem__(self, index):
        first = self._first
        if type(index) is slice:
            start, stop, step = index.indices(first + len(self._tail))
            if step == 1 and start >= first:
                return self._tail[start - first : max(stop - first, 0)]
            return self._all()[index]
        if index < 0:
            index += first + len(self._tail)
        if index >= first:
            return self._tail[index - first]
        if index < 0:
            raise IndexError("log index out of range")
        return self._all()[index]

    def __setitem__(self, index, value) -> None:
        self.folded = None  # (a record changed: the state folded before it may be another)
        self._all()[index] = value

    def __delitem__(self, index) -> None:
        self.folded = None
        del self._all()[index]

    def insert(self, index: int, value) -> None:
        self.folded = None
        self._all().insert(index, value)

    def append(self, value) -> None:
        self._tail.append(value)

    def __iter__(self):
        return iter(self._all())

    def __eq__(self, other) -> bool:
        if isinstance(other, FileLog):
            other = other._all()
        return self._all() == other if isinstance(other, list) else NotImplemented

    __hash__ = None  # (a mutable sequence, as a list)

    def copy(self) -> FileLog:
        """Another log of the same records (the file's shared, the tail copied), as
        ``list.copy``."""
        return FileLog(self._first, list(self._tail), self._stored, self._load, self.folded)

    def __repr__(self) -> str:
        return f"FileLog({self._first} records in the file, {len(self._tail)} in memory)"


def held_records(records) -> tuple[int, list]:
    """``(the sequence number of the first record held in memory, those records)`` of a
    game's log, a ``FileLog`` or a list."""
    return records.held() if isinstance(records, FileLog) else (0, records)
