"""The replay page's pictures, packed: every position once, as what changed since the one
before, compressed together (``_html``).

A picture is the HTML the page shows (``_html_svg.picture_html``), cut into pieces: before
every tag and after every newline, so that a piece is one element of a drawing or one line of
a text table.  Each distinct piece gets a number the first time it is used; a picture is then
the changes that turn the previous picture's list of numbers into its own (a patience diff:
what moves on a board, what a hand or a status line says).  The page carries, one line of JSON
a picture, ``[new pieces, changes]``, where ``changes`` is flat: ``at, removed, added, the
added numbers...`` per region, ``at`` and ``removed`` in the previous picture's list.  The lines
are compressed with zlib (DecompressionStream's ``"deflate"``) and written as base64 in lines of
76 characters, as they are made: the page is never held whole.

The page's script (``_html_assets``) unpacks the same way; the tests expand the pictures again
with their own code (``tests/test_replay_html.py``, ``expand``), to search every picture for
what the viewer may not see.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from bisect import bisect_left

_PIECES = re.compile(r"<?[^<\n]*\n?")  # (a piece starts at a tag, ends at one or a newline)
_CHUNK = 57 * 64  # (whole lines of base64: 57 bytes make 76 characters)


class Packer:
    """Pictures in, base64 text out through ``write``, one picture at a time."""

    def __init__(self, write) -> None:
        self._write = write
        self._numbers: dict[str, int] = {}
        self._previous: list[int] = []
        self._deflate = zlib.compressobj(9, zlib.DEFLATED, 15)
        self._pending = b""
        self.count = 0

    def add(self, html: str) -> None:
        """The next picture (as it is embedded)."""
        numbers = self._numbers
        new: list[str] = []
        ids: list[int] = []
        for piece in _PIECES.findall(html):
            if not piece:
                continue
            number = numbers.get(piece)
            if number is None:
                number = numbers[piece] = len(numbers)
                new.append(piece)
            ids.append(number)
        flat: list[int] = []
        for i1, i2, j1, j2 in changes(self._previous, ids):
            flat += (i1, i2 - i1, j2 - j1)
            flat += ids[j1:j2]
        self._previous = ids
        line = json.dumps([new, flat], ensure_ascii=False, separators=(",", ":")) + "\n"
        self._out(self._deflate.compress(line.encode("utf-8")))
        self.count += 1

    def close(self) -> None:
        self._out(self._deflate.flush(), final=True)

    def _out(self, data: bytes, final: bool = False) -> None:
        pending = self._pending + data
        cut = len(pending) if final else len(pending) - len(pending) % _CHUNK
        if cut:
            self._write(base64.encodebytes(pending[:cut]).decode("ascii"))
        self._pending = pending[cut:]


def changes(a: list, b: list) -> list[tuple[int, int, int, int]]:
    """The regions ``(i1, i2, j1, j2)``, in order, where ``a[i1:i2]`` becomes ``b[j1:j2]`` (a
    patience diff: items unique to both sides anchor it, the longest run of them in the same
    order is kept, and the gaps between them are diffed the same way)."""
    out = []
    todo = [(0, len(a), 0, len(b))]
    while todo:
        alo, ahi, blo, bhi = todo.pop()
        while alo < ahi and blo < bhi and a[alo] == b[blo]:
            alo += 1
            blo += 1
        while alo < ahi and blo < bhi and a[ahi - 1] == b[bhi - 1]:
            ahi -= 1
            bhi -= 1
        if alo == ahi and blo == bhi:
            continue
        anchors = _anchors(a, alo, ahi, b, blo, bhi) if alo < ahi and blo < bhi else []
        if not anchors:
            out.append((alo, ahi, blo, bhi))
            continue
        for i, j in anchors:
            todo.append((alo, i, blo, j))
            alo, blo = i + 1, j + 1
        todo.append((alo, ahi, blo, bhi))
    out.sort()
    return out


def _anchors(a, alo, ahi, b, blo, bhi) -> list[tuple[int, int]]:
    """Pairs ``(i, j)`` with ``a[i] == b[j]`` each once in its range, the longest chain of
    them that rises in both."""
    where: dict = {}
    for i in range(alo, ahi):
        where[a[i]] = -1 if a[i] in where else i
    found: dict = {}
    for j in range(blo, bhi):
        item = b[j]
        if where.get(item, -1) >= 0:
            found[item] = -1 if item in found else j
    pairs = sorted((where[item], j) for item, j in found.items() if j >= 0)
    tails: list[int] = []  # the smallest j that ends a chain of each length
    ends: list[int] = []  # (the pair that ends it)
    before: list[int] = []
    for k, (_, j) in enumerate(pairs):
        n = bisect_left(tails, j)
        if n == len(tails):
            tails.append(j)
            ends.append(k)
        else:
            tails[n] = j
            ends[n] = k
        before.append(ends[n - 1] if n else -1)
    chain = []
    k = ends[-1] if ends else -1
    while k >= 0:
        chain.append(pairs[k])
        k = before[k]
    chain.reverse()
    return chain
