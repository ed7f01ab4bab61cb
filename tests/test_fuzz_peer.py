"""Fuzzing the peer mode's readers (issue 24): records, letters and merges.

A three-player peer game of the test game (tests/peer_draw.py) gives three kinds of move file:
a record with a letter (a card shown to one player), a record that crosses another in the mail
(a share of the randomness dealt at once by two players: ``apply`` merges), and a sealed pair
of Rock-Paper-Scissors commitments that cross (a merge of a sealed round, in the open mode).
Each is mutated (a byte flipped, bytes cut, a letter's fields, its ciphertext, its reader or its
index replaced, a signature flipped, records swapped or dropped) and applied to the copy it was
mailed to.  Every outcome is a success or a ``BoardstateError`` with one line, never another
exception; a record whose letter to its reader was touched is never taken with the value sealed.

CI runs a fixed, derandomized sample (``BOARDSTATE_FUZZ_EXAMPLES``, default 600 per test); the
figures in docs/reliability.md come from ``python tests/test_fuzz_peer.py``.
"""

from __future__ import annotations

import collections
import os
import sys

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, os.path.dirname(__file__))

from peer_draw import MODULE
from test_peer import NAMES, Table

import boardstate as bs
from boardstate._fileformat import encode_game, encode_moves, parse_raw
from boardstate._referee import referee_moves
from boardstate._registry import registered

EXAMPLES = int(os.environ.get("BOARDSTATE_FUZZ_EXAMPLES", "600"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not os.environ.get("BOARDSTATE_FUZZ_RANDOM"),
    database=None,
    suppress_health_check=list(HealthCheck),
)
TALLY: collections.Counter = collections.Counter()


def _cases():
    """``{name: (the copy's file, the move file mailed to it, the reader's seat)}``."""
    with registered(MODULE):
        table = Table(3, rng_seed=11)
        table.settle()
        (seat,) = table.copies[0].to_act()
        reader = (seat + 1) % 3
        maker = table.copies[seat]
        base = maker.seq - 1
        saved = encode_game(table.copies[reader], viewer=reader)
        maker.play(seat, f"show {NAMES[reader]}")
        letter = (saved, encode_moves(maker, base), reader)
        table.settle()
        # a draw: the mover deals, and the two others deal at once (their mails cross)
        (seat,) = table.copies[0].to_act()
        mover = table.copies[seat]
        while "draw" not in mover.legal(seat):
            mover.play(seat, mover.legal(seat)[0])
            table.settle()
            (seat,) = table.copies[0].to_act()
            mover = table.copies[seat]
        mover.play(seat, "draw")
        others = [s for s in range(3) if s != seat]
        for s in others:
            table.mail(seat, s)  # (each deals its share on receipt)
        a, b = others
        saved_a = encode_game(table.copies[a], viewer=a)
        crossing = (saved_a, encode_moves(table.copies[b], table.copies[b].region_start - 1), a)
    return {"letter": letter, "crossing": crossing}


CASES = _cases()


def _mutations():
    return st.one_of(
        st.tuples(st.just("flip"), st.integers(0, 10**6), st.integers(1, 255)),
        st.tuples(st.just("cut"), st.integers(0, 10**6), st.integers(1, 64)),
        st.tuples(
            st.just("letter"),
            st.sampled_from(["drop", "box", "reader", "index", "junk", "extra"]),
            st.integers(0, 255),
        ),
        st.tuples(st.just("signature"), st.integers(0, 63), st.integers(1, 255)),
        st.tuples(st.just("records"), st.sampled_from(["swap", "drop-first", "drop-last"])),
    )


def _mutate(data: bytes, mutation) -> bytes:
    kind = mutation[0]
    if kind == "flip":
        i = mutation[1] % len(data)
        return data[:i] + bytes([data[i] ^ mutation[2]]) + data[i + 1 :]
    if kind == "cut":
        i = mutation[1] % len(data)
        return data[:i] + data[i + mutation[2] :]
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
    unpacker.feed(data)
    header, *records = list(unpacker)
    records = [list(r) for r in records]
    if kind == "records" and len(records) > 1:
        if mutation[1] == "swap":
            records[0], records[1] = records[1], records[0]
        elif mutation[1] == "drop-first":
            records.pop(0)
        else:
            records.pop()
    elif kind == "signature" and records:
        sig = bytearray(records[-1][3] or b"\0" * 64)
        sig[mutation[1] % len(sig)] ^= mutation[2]
        records[-1][3] = bytes(sig)
    elif kind == "letter" and records:
        what, n = mutation[1], mutation[2]
        letters = [list(x) for x in records[-1][4]]
        if what == "drop":
            letters = []
        elif what == "extra":
            letters.append([n % 4, n % 3, bytes([n]) * 40])
        elif letters and what == "box":
            box = bytearray(letters[0][2])
            box[n % len(box)] ^= 1
            letters[0][2] = bytes(box)
        elif letters and what == "reader":
            letters[0][1] = n % 5 - 1
        elif letters and what == "index":
            letters[0][0] = n % 7 - 1
        elif letters:
            letters[0] = [n, "junk", None] if n % 2 else "junk"
        records[-1][4] = letters
    packer = msgpack.Packer(use_bin_type=True)
    return packer.pack(header) + b"".join(packer.pack(r) for r in records)


def _apply(name: str, mutation) -> None:
    saved, mail, reader = CASES[name]
    data = _mutate(mail, mutation)
    with registered(MODULE):
        copy = bs.load_game(parse_raw(saved, "copy"))
        try:
            raw = parse_raw(data, "mail")
            referee_moves(copy, raw)
        except bs.BoardstateError as exc:
            assert "\n" not in str(exc)
            TALLY[(name, mutation[0], "refused")] += 1
            return
        TALLY[(name, mutation[0], "applied")] += 1
        if name == "letter":  # taken: the value shown to the reader opened
            assert copy.state.shown and copy.state.shown[-1][2].known


@FUZZ
@given(_mutations())
def test_fuzzed_letters_never_crash_and_never_leave_a_value_sealed(mutation):
    _apply("letter", mutation)


@FUZZ
@given(_mutations())
def test_fuzzed_crossing_shares_never_crash_a_merge(mutation):
    _apply("crossing", mutation)


if __name__ == "__main__":  # the figures for docs/reliability.md
    test_fuzzed_letters_never_crash_and_never_leave_a_value_sealed()
    test_fuzzed_crossing_shares_never_crash_a_merge()
    for key, count in sorted(TALLY.items()):
        print(*key, count)
    print("total", sum(TALLY.values()))
