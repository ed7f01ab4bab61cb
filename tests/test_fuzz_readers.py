"""Fuzzing every reader (issue 16): mutated game, view and move files never crash a reader.

Valid files (``random_game`` of every installed module, as full logs, views and move files,
plus a sample from before the seed salt) are mutated: byte flips, truncations, splices, header
fields replaced by values of the wrong type or size (huge integers, nil, booleans, long strings,
deep nesting) with the game id recomputed or not, record fields replaced by junk with the chain
recomputed or not, records dropped, repeated or swapped.  Each input goes to every reader
(``parse_raw`` and its records, ``load_game``, ``verify``, ``apply_moves``) and to the commands
``show``, ``legal``, ``replay``, ``verify``, ``view``, ``export`` and ``apply``.  Every outcome is
a success or a ``BoardstateError`` (a command: exit 0, or exit 1/2 with one line on stderr and
no internal error).  ``replay --html`` runs on a tenth of as many inputs with its allocations
traced: they stay within the memory bound docs/reliability.md gives.

CI runs a fixed, derandomized sample (``BOARDSTATE_FUZZ_EXAMPLES``, default 3000 per test:
about half a minute).  The figures docs/reliability.md quotes come from running this file as a
script, the CI sample, or a longer random campaign::

    python tests/test_fuzz_readers.py
    BOARDSTATE_FUZZ_EXAMPLES=20000 BOARDSTATE_FUZZ_RANDOM=1 python tests/test_fuzz_readers.py

(``BOARDSTATE_FUZZ_COLLECT=1``: count internal errors by where they arise and go on, instead of
stopping at the first.)
"""

from __future__ import annotations

import collections
import hashlib
import os
import sys
import tempfile
from pathlib import Path

import msgpack
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardstate as bs
from boardstate._records import pack
from boardstate.cli import cli
from boardstate.testing import chain, encode_records, random_game

EXAMPLES = int(os.environ.get("BOARDSTATE_FUZZ_EXAMPLES", "3000"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not os.environ.get("BOARDSTATE_FUZZ_RANDOM"),
    database=None,
    suppress_health_check=list(HealthCheck),
)
OLD_SAMPLE = (
    Path(__file__).parent
    / "fixtures"
    / "duel-of-the-forces-revision-1"
    / "duel-of-the-forces-parlett-original-2p.msgpack"
)
TALLY: collections.Counter = collections.Counter()  # (reader, outcome) -> count
FOUND: collections.Counter = collections.Counter()  # (reader, where an internal error arose)
COLLECT = bool(os.environ.get("BOARDSTATE_FUZZ_COLLECT"))  # count internal errors, go on


def _save(args: list[str], why: str) -> None:
    """Keep a failing input (``BOARDSTATE_FUZZ_SAVE=DIR``) with the command that failed on it."""
    where = os.environ.get("BOARDSTATE_FUZZ_SAVE")
    if not where:
        return
    os.makedirs(where, exist_ok=True)
    name = f"{len(os.listdir(where)) // 2:04d}"
    for arg in args:
        if arg.endswith("fuzz.msgpack"):
            Path(where, name + ".msgpack").write_bytes(Path(arg).read_bytes())
    Path(where, name + ".txt").write_text(" ".join(args) + "\n" + why + "\n")


def _where(exc: BaseException) -> str:
    """The exception's type and the innermost frame of boardstate or a module that raised it."""
    import traceback

    frames = [
        f
        for f in traceback.extract_tb(exc.__traceback__)
        if "/boardstate/" in f.filename or "/modules/" in f.filename or "/cli/" in f.filename
    ]
    place = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
    return f"{type(exc).__name__} at {place}"


# ---------------------------------------------------------------------------------- the corpus
class Sample:
    """A valid file, what it holds, and (move files) the game file it applies to."""

    def __init__(self, name: str, data: bytes, host: bytes | None = None) -> None:
        self.name, self.data, self.host = name, data, host
        self.header, self.records = _split(data)
        self.players = bs.parse_raw(data, name).header.players
        self.fingerprint = _records_of(data)


def _records_of(data: bytes):
    """What a file means: its header and its records (bodies, hashes and openings)."""
    raw = bs.parse_raw(data, "fuzz")
    return raw.header, tuple(raw.iter_records())


def _split(data: bytes) -> tuple[dict, list]:
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
    unpacker.feed(data)
    header = unpacker.unpack()
    return header, [list(r) for r in unpacker]


def _corpus() -> list[Sample]:
    out = [Sample("old-sample", OLD_SAMPLE.read_bytes())]
    for module in bs.installed_modules().values():
        spec = module.spec
        for seed, stop in ((1, 12), (2, 40)):
            players = spec.min_players + seed % (spec.max_players - spec.min_players + 1)
            game = random_game(module, seed, players, stop_after=stop)
            name = f"{spec.id}-{seed}"
            out.append(Sample(f"{name}-full", bs.encode_game(game)))
            out.append(Sample(f"{name}-view", bs.encode_game(game, viewer=1)))
            base = max(0, game.seq - 4)
            host = encode_records(game.header, game.records[: base + 1])
            out.append(Sample(f"{name}-move", bs.encode_moves(game, base), host))
    return out


CORPUS = _corpus()


# ---------------------------------------------------------------------------------- junk
def _nested(depth: int) -> bytes:
    return b"\x91" * depth + b"\x90"


class Raw:
    """Bytes spliced into a msgpack encoding as they are (deep nesting, huge lengths)."""

    def __init__(self, data: bytes) -> None:
        self.data = data


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.sampled_from([2**64 - 1, 2**63, -(2**63), 6_000_000_000, -2, -1, 0, 1, 2, 5, 7, 32, 99]),
    st.binary(max_size=40),
    st.sampled_from([bytes(16), bytes(31), bytes(32), bytes(33), bytes(1025), b"\xff" * 70_000]),
    st.text(max_size=12),
    st.sampled_from(["", " ann", "ann", "x" * 70_000, "a\x1b[2J", "1.0", "9.9", "game", "move"]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.lists(st.integers(min_value=-3, max_value=3) | st.text(max_size=3), max_size=4),
    st.dictionaries(st.text(max_size=3), st.integers(-(2**63), 2**63 - 1), max_size=3),
    st.builds(msgpack.ExtType, st.integers(0, 127), st.binary(max_size=50)),
    st.integers(1, 1100).map(lambda depth: Raw(_nested(depth))),
    st.sampled_from(
        [
            Raw(b"\xdd\xff\xff\xff\xff"),  # an array that claims 4 billion items
            Raw(b"\xdb\x7f\xff\xff\xff"),  # a string that claims 2 GiB
            Raw(b"\xc6\x7f\xff\xff\xff"),  # bytes that claim 2 GiB
            Raw(b"\xdf\x00\x01\x00\x00"),  # a map that claims 65536 entries
            Raw(b"\xc1"),  # never used
        ]
    ),
)


def encode(value) -> bytes:
    """msgpack of ``value``, with every ``Raw`` spliced in as it is."""
    raws: list[bytes] = []

    def default(obj):
        if isinstance(obj, Raw):
            raws.append(obj.data)
            return msgpack.ExtType(127, len(raws).to_bytes(4, "big") + b"RAW!")
        raise TypeError(type(obj))

    data = msgpack.packb(value, use_bin_type=True, default=default)
    for i, raw in enumerate(raws, 1):
        marker = msgpack.packb(msgpack.ExtType(127, i.to_bytes(4, "big") + b"RAW!"))
        data = data.replace(marker, raw)
    return data


# ---------------------------------------------------------------------------------- mutations
HEADER_KEYS = [
    "format",
    "version",
    "kind",
    "game",
    "module",
    "module_version",
    "data_digest",
    "options",
    "players",
    "created",
    "seed",
    "seed_salt",
    "seed_commitment",
    "events",
    "viewer",
    "base",
    "revision",
    "bogus",
]


def game_id(m: dict) -> bytes:
    identity = [
        m.get(k)
        for k in (
            "module",
            "module_version",
            "data_digest",
            "options",
            "players",
            "created",
            "seed_commitment",
            "events",
        )
    ]
    if "revision" in m:
        identity.append(m["revision"])
    return hashlib.sha256(b"boardstate-game" + pack(identity)).digest()


def assemble(header, records, rechain: bool) -> bytes:
    if rechain and isinstance(header, dict):
        try:
            header["game"] = game_id(header)
        except Exception:  # (junk the id cannot be computed over: left as it was)
            pass
        prev = header.get("game")
        for rec in records:
            if (
                isinstance(rec, list)
                and len(rec) == 3
                and isinstance(rec[0], bytes)
                and isinstance(prev, bytes)
            ):
                prev = rec[1] = chain(prev, rec[0])
    return encode(header) + b"".join(encode(r) for r in records)


def _replace_in(data, value, path):
    """``value`` set at ``path`` (a list of indexes) inside a copy of nested lists ``data``."""
    if not path:
        return value
    if not isinstance(data, list) or not data:
        return value
    i = path[0] % len(data)
    out = list(data)
    out[i] = _replace_in(out[i], value, path[1:])
    return out


def mutate_header(draw, sample: Sample) -> bytes:
    header = dict(sample.header)
    records = [list(r) for r in sample.records]
    key = draw(st.sampled_from(HEADER_KEYS))
    how = draw(st.sampled_from(["replace", "replace", "inside", "delete"]))
    if how == "delete":
        header.pop(key, None)
    elif how == "inside" and isinstance(header.get(key), list):
        path = draw(st.lists(st.integers(0, 50), min_size=1, max_size=3))
        header[key] = _replace_in(_lists(header[key]), draw(JUNK), path)
    else:
        header[key] = draw(JUNK)
    rechain = draw(st.booleans())
    return assemble(header, records, rechain), f"header {how}{' rechained' * rechain}"


def _lists(value):
    return [_lists(v) for v in value] if isinstance(value, (list, tuple)) else value


def _ext(code, data):
    return msgpack.ExtType(code, data)


def mutate_record(draw, sample: Sample) -> bytes:
    header = dict(sample.header)
    records = [list(r) for r in sample.records]
    if not records:
        return sample.data, "record none"
    i = draw(st.integers(0, len(records) - 1))
    how = draw(
        st.sampled_from(
            ["body", "body", "event", "event", "hash", "openings", "opening", "record", "order"]
        )
    )
    rechain = draw(st.booleans()) or how in ("body", "event", "order")
    if how in ("body", "event"):
        body = msgpack.unpackb(records[i][0], raw=False, ext_hook=_ext)
        body = _lists(body)
        if how == "body" or not isinstance(body, list) or len(body) < 6 or not body[5]:
            path = [draw(st.integers(0, 5))]
        else:
            path = [5, draw(st.integers(0, 99)), draw(st.integers(0, 9))]
            path += draw(st.lists(st.integers(0, 40), max_size=2))
        if draw(st.integers(0, 5)) == 0 and isinstance(body, list):  # wrong arity
            body = body[:-1] if draw(st.booleans()) else [*body, draw(JUNK)]
        else:
            body = _replace_in(body, draw(JUNK), path)
        records[i][0] = encode(body)
    elif how == "hash":
        records[i][1] = draw(JUNK)
    elif how == "openings":
        records[i][2] = draw(JUNK)
    elif how == "opening":
        path = draw(st.lists(st.integers(0, 100), min_size=1, max_size=3))
        records[i][2] = _replace_in(_lists(records[i][2]), draw(JUNK), path)
    elif how == "record":
        records[i] = draw(JUNK)
    else:
        j = draw(st.integers(0, len(records) - 1))
        op = draw(st.sampled_from(["drop", "repeat", "swap"]))
        if op == "drop":
            del records[i]
        elif op == "repeat":
            records.insert(i, list(records[j]))
        else:
            records[i], records[j] = records[j], records[i]
        how = op
    return assemble(header, records, rechain), f"record {how}{' rechained' * rechain}"


def mutate_bytes(draw, sample: Sample) -> bytes:
    data = bytearray(sample.data)
    how = draw(st.sampled_from(["flip", "flip", "truncate", "splice", "insert"]))
    if how == "flip":
        for _ in range(draw(st.integers(1, 8))):
            pos = draw(st.integers(0, len(data) - 1))
            data[pos] ^= draw(st.integers(1, 255))
    elif how == "truncate":
        del data[draw(st.integers(0, len(data) - 1)) :]
    elif how == "splice":
        other = draw(st.sampled_from(CORPUS)).data
        a = draw(st.integers(0, len(other) - 1))
        chunk = other[a : a + draw(st.integers(1, 4000))]
        pos = draw(st.integers(0, len(data)))
        data[pos : pos + draw(st.integers(0, 4000))] = chunk
    else:
        pos = draw(st.integers(0, len(data)))
        data[pos:pos] = encode(draw(JUNK))
    return bytes(data), f"bytes {how}"


@st.composite
def mutated(draw) -> tuple[Sample, bytes, str]:
    """A sample, its mutated bytes, and what the mutation did."""
    sample = draw(st.sampled_from(CORPUS))
    mutate = draw(st.sampled_from([mutate_bytes, mutate_header, mutate_record]))
    return (sample, *mutate(draw, sample))


# ---------------------------------------------------------------------------------- readers
def _outcome(reader: str, function) -> tuple[str, object]:
    """``("accepted", result)`` or ``("refused", error)``; anything else fails the test."""
    try:
        result = function()
    except bs.BoardstateError as exc:
        assert "\n" not in str(exc), (reader, str(exc))
        TALLY[reader, "refused"] += 1
        return "refused", exc
    except Exception as exc:
        TALLY[reader, "internal error"] += 1
        FOUND[reader, _where(exc)] += 1
        if COLLECT:
            return "internal error", exc
        raise AssertionError(f"{reader}: {type(exc).__name__}: {exc}") from exc
    if reader == "verify" and not result.ok:
        TALLY[reader, "refused"] += 1
        return "refused", result.failure
    TALLY[reader, "accepted"] += 1
    return "accepted", result


def read_everything(sample: Sample, data: bytes) -> str:
    """Every library reader on ``data``; the input's overall outcome."""
    parsed = _outcome("parse_raw", lambda: _records_of(data))
    loaded = _outcome("load_game", lambda: bs.load_game(bs.parse_raw(data, "fuzz")))
    verified = _outcome("verify", lambda: bs.verify(bs.parse_raw(data, "fuzz")))
    applied = ("refused", None)
    if sample.host is not None:
        host = bs.load_game(bs.parse_raw(sample.host, "host"))
        applied = _outcome("apply_moves", lambda: bs.apply_moves(host, bs.parse_raw(data, "m")))
    results = (parsed, loaded, verified, applied)
    if any(kind == "internal error" for kind, _ in results):
        return "internal error"
    if all(kind == "refused" for kind, _ in results):
        return "refused"
    if parsed[0] == "accepted" and parsed[1] == sample.fingerprint:
        return "accepted unchanged"
    return "accepted changed"


def run_command(args: list[str]) -> int:
    result = CliRunner().invoke(cli, args)
    err = result.stderr
    if COLLECT and ("internal error" in err or result.exit_code not in (0, 1, 2)):
        FOUND[f"cli {args[0]}", err.strip()[-150:]] += 1
        _save(args, err)
        return 3
    if result.exit_code != 0:
        assert result.exit_code in (1, 2), (args, result.exit_code, err, result.exception)
        assert len(err.strip().splitlines()) == 1, (args, err)
    assert "internal error" not in err and "Traceback" not in err, (args, err)
    return result.exit_code


COMMANDS = {
    "show": lambda f, s: ["show", f],
    "legal": lambda f, s: ["legal", f, "--as", s.players[0]],
    "replay": lambda f, s: ["replay", f, "--no-step"],
    "verify": lambda f, s: ["verify", f],
    "view": lambda f, s: ["view", f, "--as", s.players[-1], "-o", f + ".view"],
    "export": lambda f, s: ["export", f, "--after", "0", "-o", f + ".out"],
}


# ---------------------------------------------------------------------------------- the tests
@FUZZ
@given(mutated())
def test_every_reader_refuses_or_accepts_a_mutated_file(case):
    sample, data, how = case
    outcome = read_everything(sample, data)
    TALLY["input", outcome] += 1
    TALLY[f"{outcome} by", how] += 1


@FUZZ
@given(mutated(), st.sampled_from(sorted(COMMANDS)))
def test_every_command_refuses_or_accepts_a_mutated_file(case, command):
    sample, data, _ = case
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "fuzz.msgpack")
        Path(path).write_bytes(data)
        if sample.host is not None:  # a move file: apply it to its game
            host = os.path.join(tmp, "game.msgpack")
            Path(host).write_bytes(sample.host)
            args = ["apply", host, path]
            command = "apply"
        else:
            args = COMMANDS[command](path, sample)
        code = run_command(args)
    outcome = {0: "accepted", 1: "refused", 2: "refused"}.get(code, "internal error")
    TALLY[f"cli {command}", outcome] += 1
    TALLY["command input", outcome] += 1


# The replay page's memory (issue 24, item 4): what ``replay --html`` allocates on top of the
# interpreter stays within the documented bound, 256 MiB + 64 x the file's size of address
# space, of which the interpreter with its libraries takes 126 MiB (docs/reliability.md).
# Measured with tracemalloc (Python's allocations), so that each input costs no subprocess.
PAGE_EXAMPLES = max(EXAMPLES // 10, 20)
PAGE_ALLOWANCE = (256 - 126) << 20
PAGE_FACTOR = 64
PAGES: list = []  # (peak bytes, file bytes, page bytes) of each page written


@settings(FUZZ, max_examples=PAGE_EXAMPLES)
@given(mutated())
def test_the_replay_page_of_a_mutated_file_stays_within_the_memory_bound(case):
    import tracemalloc

    sample, data, _ = case
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "fuzz.msgpack")
        Path(path).write_bytes(data)
        page = os.path.join(tmp, "fuzz.html")
        tracemalloc.start()
        try:
            code = run_command(["replay", path, "--html", page])
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        outcome = {0: "accepted", 1: "refused", 2: "refused"}.get(code, "internal error")
        TALLY["cli replay --html", outcome] += 1
        assert peak <= PAGE_ALLOWANCE + PAGE_FACTOR * len(data), (peak, len(data))
        if code == 0:
            PAGES.append((peak, len(data), os.path.getsize(page)))


def page_figures() -> str:
    if not PAGES:
        return "replay --html: no page written"
    most = max(PAGES)
    ratio = max(PAGES, key=lambda p: p[0] / p[1])
    larger = max(PAGES, key=lambda p: p[2] / p[0])
    return (
        f"replay --html: {len(PAGES)} pages written; the largest peak {most[0] / 2**20:.1f} MiB "
        f"(file {most[1]:,} B, page {most[2]:,} B); the largest peak per byte of file "
        f"{ratio[0] / ratio[1]:.0f} (file {ratio[1]:,} B); the page at most "
        f"{larger[2] / larger[0]:.1f} times the peak (bound: {PAGE_FACTOR} x the file + "
        f"{PAGE_ALLOWANCE >> 20} MiB)"
    )


def test_every_sample_of_the_corpus_reads_back_unchanged():
    """(The corpus itself is valid: a mutation that changes nothing is accepted as it was.)"""
    for sample in CORPUS:
        assert read_everything(sample, sample.data) == "accepted unchanged", sample.name


def figures() -> str:
    """The tally as a table: inputs and their outcomes, then each reader's."""
    inputs = {k[1]: v for k, v in TALLY.items() if k[0] == "input"}
    commands = {k[1]: v for k, v in TALLY.items() if k[0] == "command input"}
    lines = [
        f"library readers: {sum(inputs.values())} inputs; refused by every reader "
        f"{inputs.get('refused', 0)}, accepted unchanged {inputs.get('accepted unchanged', 0)}, "
        f"accepted changed {inputs.get('accepted changed', 0)}, internal errors "
        f"{inputs.get('internal error', 0)}",
        f"commands: {sum(commands.values())} inputs; refused {commands.get('refused', 0)}, "
        f"accepted {commands.get('accepted', 0)}, internal errors "
        f"{commands.get('internal error', 0)}",
    ]
    readers = {k[0] for k in TALLY if k[0] not in ("input", "command input")}
    for reader in sorted(r for r in readers if not r.endswith(" by")):
        row = ", ".join(
            f"{kind} {TALLY[reader, kind]}"
            for kind in ("accepted", "refused", "internal error")
            if TALLY[reader, kind]
        )
        lines.append(f"  {reader}: {row}")
    for (reader, where), count in sorted(FOUND.items()):
        lines.append(f"  internal error in {reader}: {where} ({count})")
    for outcome in ("accepted unchanged", "accepted changed"):
        hows = sorted(
            ((v, k[1]) for k, v in TALLY.items() if k[0] == f"{outcome} by"), reverse=True
        )
        if hows:
            lines.append(f"  {outcome}, by mutation: " + ", ".join(f"{h} {v}" for v, h in hows))
    return "\n".join(lines)


if __name__ == "__main__":  # a campaign, with the figures
    try:
        test_every_reader_refuses_or_accepts_a_mutated_file()
        test_every_command_refuses_or_accepts_a_mutated_file()
        test_the_replay_page_of_a_mutated_file_stays_within_the_memory_bound()
    finally:
        print(f"{EXAMPLES} examples per test ({PAGE_EXAMPLES} pages):", file=sys.stderr)
        print(figures(), file=sys.stderr)
        print(page_figures(), file=sys.stderr)
