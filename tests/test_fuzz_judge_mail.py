"""Fuzzing the judge's mail (issue 24): real request mails, damaged, through its inboxes.

A two-player hosted Jedi Duel is played in process (fixed keys, seed and secrets, as in
tests/test_judge_crash.py), and each request is mailed as a player mails it (tests/
test_judge_mail.py): a message composed by the transport, the request attached or its armored
text pasted in the body.  Then a judge with a real SQLite store serves the game from a Maildir
(``maildir:``) or a folder (``dir:``: a whole message, a text with the armored request, or the
request file itself), request by request.  Before each request's own mail it is given mutants of
it: bytes flipped, the mail cut, its MIME structure damaged (boundaries, nesting, content types
and encodings), headers duplicated, dropped or huge, parts huge or empty, charsets wrong, the
armored block damaged (its lines, its base64, its check, quoted or doubled), two mutations at
once sometimes.  Required of every input:

- no internal error and no exception out of ``serve_once`` (the judge keeps serving);
- the mail is taken from the inbox and answered once: accepted (a move file to each player)
  or refused with one line, to its sender if a player, no answer to an outside address;
- a refused mail changes nothing in the store (the game's rows, its head);
- what is accepted is what the original mail makes: after the whole stream, the store holds
  the rows the in-process game made, byte for byte.

CI runs a seeded, bounded sample (``BOARDSTATE_FUZZ_MAILS`` inputs, default 400; seed
``BOARDSTATE_FUZZ_SEED``, default 24); ``python tests/test_fuzz_judge_mail.py`` prints the
figures in docs/reliability.md.
"""

from __future__ import annotations

import base64
import collections
import os
import random
import sys
import time

import attrs

sys.path.insert(0, os.path.dirname(__file__))

from test_judge_crash import CREATED, _fixed, _public, judge_key, player_key

import boardstate as bs
from boardstate._armor import armor
from boardstate._fileformat import encode_moves, encode_public, encode_row, parse_raw
from boardstate._hosted import decode_request
from boardstate._referee import referee_moves
from boardstate.judge import Judge, open_store, parse_mail, serve_once
from boardstate.judge import _judge as judge_module
from boardstate.judge._mime import MAX_MAIL_BYTES, compose
from boardstate.judge._transport import open_inbox, open_outbox
from boardstate.judge._types import Outgoing

INPUTS = int(os.environ.get("BOARDSTATE_FUZZ_MAILS", "400"))
SEED = int(os.environ.get("BOARDSTATE_FUZZ_SEED", "24"))
MOVES = 14  # the requests of the stream: two joins, then this many moves
JUDGE = "judge@club.test"
PLAYERS = (("ann", "ann@club.test"), ("ben", "ben@club.test"))
OUTSIDER = "mallory@elsewhere.test"


# ------------------------------------------------------------------------ the real mails
@attrs.frozen
class Request:
    sender: str
    data: bytes  # the request file
    rows: int  # the game's records once it is accepted


def _create(judge: Judge) -> bytes:
    return judge.create(
        "jedi-duel",
        list(PLAYERS),
        created=CREATED,
        seed=_fixed("fuzz seed"),
        secret=_fixed("the judge's secret"),
    )


def _stream() -> tuple[list[Request], list[bytes]]:
    """The requests of a game played in process, in order, and the rows it made."""
    import tempfile

    rng = random.Random(SEED)
    with tempfile.TemporaryDirectory() as folder:
        with open_store(f"sqlite:{folder}/gen.sqlite") as scratch:
            maker = Judge(scratch, judge_key())
            game = maker.game(_create(maker))
            invite = encode_public(game)
            copies = []
            for seat, (name, _) in enumerate(PLAYERS):
                copy = bs.load_game(parse_raw(invite, "invite"))
                secret = _fixed(f"secret of {name} in the fuzzed game")
                copy.header = attrs.evolve(copy.header, viewer=seat, peer_secret=secret)
                copy.signer = player_key(name).sign
                copies.append(copy)
            stream = []

            def send(seat: int, request) -> None:
                data = request.encode()
                base = game.seq - 1
                game.judge(decode_request(data, "request"))
                for reader, copy in enumerate(copies):
                    moves = encode_moves(game, base, reader=reader)
                    referee_moves(copy, parse_raw(moves, "moves"))
                stream.append(Request(PLAYERS[seat][1], data, game.seq))

            joins = [
                (s, c.join_request(s, _public(player_key(c.players[s]))))
                for s, c in enumerate(copies)
            ]
            for seat, request in joins:
                send(seat, request)
            while game.outcome() is None and len(stream) < MOVES + 2:
                seat = game.to_act()[0]
                send(seat, copies[seat].request(seat, rng.choice(copies[seat].legal(seat))))
            rows = [encode_row(game.header, r) for r in game.records]
    return stream, rows


def _armored(request: Request) -> str:
    return armor(request.data, "jedi-duel request")


def _mail(request: Request, text: bool, mid: int = 0) -> bytes:
    """The request as its player mails it (tests/test_judge_mail.py, ``Player.mail``)."""
    if text:
        out = Outgoing(JUDGE, "my move", f"Here it is:\n\n{_armored(request)}\nThanks.\n")
    else:
        out = Outgoing(JUDGE, "my move", "Attached.\n", (("move.msgpack", request.data),))
    return _composed(out, request.sender, mid)


def _composed(out: Outgoing, sender: str, mid: int) -> bytes:
    """``compose``, with what it makes up fixed (date, boundary) or drawn from the seed (the
    message id): the same seed gives the same bytes, so the same mutants."""
    msg = compose(out, sender)
    msg.replace_header("Date", "Sun, 22 Nov 2026 12:00:00 +0000")
    msg.replace_header("Message-ID", f"<{mid}.fuzz@club.test>")
    if msg.is_multipart():
        msg.set_boundary("===============0000000000000000024==")
    return msg.as_bytes()


# ------------------------------------------------------------------------ the mutations
def _flip(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.choice((1, 1, 2, 4, 16))):
        i = rng.randrange(len(out))
        out[i] ^= rng.choice((1, 0x20, 0x80, rng.randrange(1, 256)))
    return bytes(out)


def _cut(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data))]


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _boundary(data: bytes) -> bytes | None:
    marker = b'boundary="'
    at = data.find(marker)
    if at < 0:
        return None
    return data[at + len(marker) : data.index(b'"', at + len(marker))]


def _mime(data: bytes, rng: random.Random) -> bytes:
    """The MIME structure damaged: boundaries, nesting, content types, encodings."""
    b = _boundary(data)
    what = rng.randrange(11)
    if b is not None and what == 0:  # the closing boundary gone
        return data.replace(b"--" + b + b"--", b"")
    if b is not None and what == 1:  # the boundary parameter no longer matches the parts
        return data.replace(b'boundary="' + b, b'boundary="x' + b, 1)
    if b is not None and what == 2:  # a part's boundary line damaged
        lines = _lines(data)
        at = [i for i, line in enumerate(lines) if line.startswith(b"--" + b)]
        lines[rng.choice(at)] = b"--" + b[: len(b) // 2]
        return b"\n".join(lines)
    if what == 3:  # the base64 of a part broken (or its encoding a lie)
        return data.replace(
            b"Content-Transfer-Encoding: base64",
            rng.choice(
                (b"Content-Transfer-Encoding: quoted-printable", b"Content-Transfer-Encoding: x-z")
            ),
        )
    if what == 4:  # a nested multipart that never closes, or closes somewhere else
        inner = b"Content-Type: multipart/mixed; boundary=inner\n\n--inner\n\n" + b"x" * 40
        return data.replace(b"Content-Type: text/plain", inner, 1)
    if what == 5:  # the content types swapped or gone
        return (
            data.replace(b"Content-Type: text/plain", b"Content-Type: text/html")
            if rng.random() < 0.5
            else data.replace(b"Content-Type: application/vnd.boardstate+msgpack", b"")
        )
    if what == 6:  # multipart without a boundary
        return data.replace(b'; boundary="' + (b or b""), b'; nothing="', 1)
    if what == 7:  # a part with no blank line before its body (its body read as headers)
        return data.replace(b"\n\n", b"\n", 2)
    if what == 8:  # CRLF line ends, or bare CR
        return data.replace(b"\n", rng.choice((b"\r\n", b"\r")))
    if what == 9:  # the attachment's base64 padded, split or with junk characters
        lines = _lines(data)
        body = [i for i, line in enumerate(lines) if len(line) > 60 and b":" not in line]
        if body:
            i = rng.choice(body)
            lines[i] = (
                lines[i][:30] + rng.choice((b"==", b"!*", b"\x00", b" ", b"====")) + lines[i][30:]
            )
        return b"\n".join(lines)
    # a message/rfc822 part wrapping the mail again
    return data.replace(
        b"Content-Type: text/plain",
        b"Content-Type: message/rfc822\n\n" + data[: len(data) // 2],
        1,
    )


def _headers(data: bytes, rng: random.Random) -> bytes:
    """Headers duplicated, dropped, huge, folded, not ASCII, or a sender from outside."""
    head, sep, body = data.partition(b"\n\n")
    lines = head.split(b"\n")
    what = rng.randrange(9)
    if what == 0:  # From twice, the other a stranger's
        lines.insert(rng.randrange(len(lines) + 1), b"From: " + OUTSIDER.encode())
    elif what == 1:  # a header dropped
        name = rng.choice((b"From:", b"Content-Type:", b"MIME-Version:", b"Subject:"))
        lines = [line for line in lines if not line.startswith(name)]
    elif what == 2:  # Content-Type twice, the second another boundary
        lines.append(b'Content-Type: multipart/mixed; boundary="elsewhere"')
    elif what == 3:  # a huge header, or a huge Subject
        name = rng.choice((b"X-Junk", b"Subject", b"From", b"Reply-To"))
        lines.append(name + b": " + b"a" * rng.choice((5000, 70000)))
    elif what == 4:  # folded over many lines
        lines.append(b"Subject: a\n" + b"\n".join(b" x" for _ in range(300)))
    elif what == 5:  # bytes that are not ASCII, or not UTF-8
        lines.append(b"Subject: " + bytes(rng.randrange(128, 256) for _ in range(40)))
        lines.append(b"From: \xff\xfe <ann@club.test>")
    elif what == 6:  # from outside only
        lines = [line for line in lines if not line.startswith(b"From:")]
        lines.append(b"From: " + OUTSIDER.encode())
    elif what == 7:  # Reply-To garbage, or encoded words that do not decode
        lines.append(rng.choice((b"Reply-To: <<<@@>>>", b"Subject: =?utf-8?b?!!!?=")))
    else:  # no header at all
        return body
    return b"\n".join(lines) + sep + body


def _parts(data: bytes, rng: random.Random) -> bytes:
    """Parts huge or empty, or too many."""
    b = _boundary(data)
    if b is None:
        return data + b"\n" + b"x" * rng.choice((0, 100_000, 900_000, MAX_MAIL_BYTES + 1))
    end = b"--" + b + b"--"
    what = rng.randrange(5)
    if what == 0:  # a huge text part (under the mail's limit, or over it)
        size = rng.choice((500_000, 1_000_000, MAX_MAIL_BYTES + 10))
        part = b"--" + b + b"\nContent-Type: text/plain\n\n" + b"y" * size + b"\n"
    elif what == 1:  # empty parts, under and over the part limit
        part = (b"--" + b + b"\n\n") * rng.choice((1, 10, 63, 64, 65, 200))
    elif what == 2:  # an empty attachment, and one with no name
        part = (
            b"--" + b + b"\nContent-Type: application/octet-stream\n"
            b'Content-Disposition: attachment; filename=""\n\n\n'
        )
    elif what == 3:  # an attachment of junk before the request
        junk = base64.encodebytes(bytes(rng.randrange(256) for _ in range(3000)))
        part = (
            b"--" + b + b"\nContent-Type: application/vnd.boardstate+msgpack\n"
            b"Content-Transfer-Encoding: base64\n\n" + junk
        )
        first = data.index(b"--" + b)
        return data[:first] + part + data[first:]
    else:  # nested multiparts, deep
        depth = rng.choice((5, 30, 100))
        part = b"".join(
            b"--"
            + (b"n%d" % i if i else b)
            + b"\nContent-Type: multipart/mixed; boundary="
            + b"n%d" % (i + 1)
            + b"\n\n"
            for i in range(depth)
        )
    return data.replace(end, part + end)


def _charset(data: bytes, rng: random.Random) -> bytes:
    """Wrong charsets: declared but not used, unknown, or the text re-encoded."""
    charset = rng.choice((b"utf-16", b"utf-7", b"x-nonsense", b"iso-2022-jp", b"latin-1", b"ascii"))
    out = data.replace(b'charset="utf-8"', b'charset="' + charset + b'"')
    if out == data:
        out = data.replace(
            b"Content-Type: text/plain", b"Content-Type: text/plain; charset=" + charset
        )
    if rng.random() < 0.3:  # the body itself in UTF-16
        head, sep, body = out.partition(b"\n\n")
        out = head + sep + body.decode("latin-1").encode("utf-16")
    return out


def _armor(text: str, rng: random.Random) -> str:
    """The armored block damaged, as a mail program or a person might."""
    lines = text.split("\n")
    block = [i for i, line in enumerate(lines) if line and not line.startswith(("Here", "Thanks"))]
    what = rng.randrange(10)
    if what == 0:  # a line of base64 gone, or doubled
        i = rng.choice(block[2:-2] or block)
        lines[i : i + 1] = [] if rng.random() < 0.5 else [lines[i], lines[i]]
    elif what == 1:  # a character of the base64 changed
        i = rng.choice(block[2:-2] or block)
        if lines[i]:
            j = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:j] + rng.choice("A/+=é\t") + lines[i][j + 1 :]
    elif what == 2:  # the END line or the BEGIN line gone
        tag = rng.choice(("-----END", "-----BEGIN"))
        lines = [line for line in lines if not line.startswith(tag)]
    elif what == 3:  # the Check line gone or wrong
        lines = [
            ("Check: 00000000" if rng.random() < 0.5 else "") if line.startswith("Check:") else line
            for line in lines
        ]
    elif what == 4:  # quoted by a reply, or indented, or both
        prefix = rng.choice(("> ", ">> ", "    ", "> \t"))
        lines = [prefix + line for line in lines]
    elif what == 5:  # the block twice (the same request twice in one mail)
        lines = lines + lines
    elif what == 6:  # the lines wrapped at 40 characters, or joined into one
        joined = "".join(lines[i] for i in block[2:-2])
        body = (
            [joined[k : k + 40] for k in range(0, len(joined), 40)]
            if rng.random() < 0.5
            else [joined]
        )
        lines = lines[: block[2]] + body + lines[block[-2] :] if len(block) > 4 else lines
    elif what == 7:  # the Game: line garbled, or very long
        lines = [
            ("Game: " + "z" * rng.choice((10, 5000))) if x.startswith("Game:") else x for x in lines
        ]
    elif what == 8:  # a second BEGIN inside the block
        lines.insert(rng.choice(block), "-----BEGIN BOARDSTATE MOVE-----")
    else:  # cut inside the block
        lines = lines[: rng.choice(block)]
    return "\n".join(lines)


def _armored_mail(request: Request, rng: random.Random, mid: int) -> bytes:
    text = _armor(f"Here it is:\n\n{_armored(request)}\nThanks.\n", rng)
    return _composed(Outgoing(JUDGE, "my move", text), request.sender, mid)


MUTATIONS = ("flip", "cut", "mime", "headers", "parts", "charset", "armor")


def mutant(request: Request, rng: random.Random) -> tuple[str, str, bytes]:
    """``(mutation, how it travels, bytes)``: how is ``maildir`` (a message), ``dir-eml`` (a
    message dropped in a folder), ``dir-txt`` (the armored text) or ``dir-msgpack`` (the file).
    A mutation that found nothing to damage is drawn again."""
    while True:
        kind, how, data, source = _mutant(request, rng)
        if data != source:
            return kind, how, data


def _mutant(request: Request, rng: random.Random) -> tuple[str, str, bytes, bytes]:
    kind = rng.choice(MUTATIONS)
    how = rng.choice(("maildir", "maildir", "dir-eml", "dir-txt", "dir-msgpack"))
    if how == "dir-msgpack":
        kind = rng.choice(("flip", "cut"))
        data = request.data
    elif how == "dir-txt":
        kind = rng.choice(("flip", "cut", "armor", "armor"))
        data = _armored(request).encode()
    else:
        mid = rng.randrange(1 << 30)
        data = _mail(request, kind == "armor" or rng.random() < 0.5, mid)
    source = data
    if kind == "armor" and how != "dir-txt":
        data = _armored_mail(request, rng, mid)
    if kind == "flip":
        data = _flip(data, rng)
    elif kind == "cut":
        data = _cut(data, rng)
    elif kind == "armor" and how == "dir-txt":
        data = _armor(data.decode(), rng).encode()
    elif kind != "armor":
        data = {"mime": _mime, "headers": _headers, "parts": _parts, "charset": _charset}[kind](
            data, rng
        )
    if how in ("maildir", "dir-eml") and rng.random() < 0.15:  # two mutations at once
        second = rng.choice((_flip, _cut, _mime, _headers, _charset))
        data, kind = second(data, rng), f"{kind}+{second.__name__[1:]}"
    return kind, how, data, source


# ------------------------------------------------------------------------ the judge's side
class Post:
    """A judge over a real SQLite store, fed one mail at a time through a Maildir or a folder,
    answering into a folder outbox."""

    def __init__(self, folder) -> None:
        self.folder = folder
        self.store = open_store(f"sqlite:{folder / 'judge.sqlite'}")
        self.judge = Judge(self.store, judge_key())
        self.game_id = _create(self.judge)
        self.inboxes = {
            "maildir": open_inbox(f"maildir:{folder / 'maildir'}"),
            "dir": open_inbox(f"dir:{folder / 'inbox'}"),
        }
        self.outbox = open_outbox(f"dir:{folder / 'outbox'}", JUDGE)
        serve_once(self.judge, self.inboxes["dir"], self.outbox)  # (the invitations)
        self.count = 0

    def state(self) -> tuple:
        return self.store.head(self.game_id), self.store.load(self.game_id)

    def answers(self) -> set:
        return set((self.folder / "outbox").glob("*/*.eml"))

    def deliver(self, how: str, sender: str, data: bytes) -> tuple[str, list]:
        """Drop one mail, serve one pass: ``(what the judge said, [(to, mail) answered])``."""
        self.count += 1
        if how == "maildir":
            name = f"{1_700_000_000 + self.count}.M{self.count}P1.fuzz"
            path = self.folder / "maildir" / "new" / name
            box = self.inboxes["maildir"]
        else:
            suffix = how.removeprefix("dir-")
            path = self.folder / "inbox" / f"{sender}--{self.count:05d}.{suffix}"
            box = self.inboxes["dir"]
        path.write_bytes(data)
        before = self.answers()
        counts = serve_once(self.judge, box, self.outbox)  # (an exception fails the test)
        said = [k for k, n in counts.items() if n]
        assert len(said) == 1 and counts[said[0]] == 1, counts
        assert not list(box.mails()), "the mail was left in the inbox"
        new = sorted(self.answers() - before)
        return said[0], [(eml.parent.name, parse_mail(eml.read_bytes(), eml.name)) for eml in new]


def run_campaign(folder, inputs: int = INPUTS, seed: int = SEED) -> collections.Counter:
    """Every request's mutants, then its own mail; the tally of what the judge said."""
    internal: list[str] = []
    real = judge_module._internal

    def spy(exc):
        internal.append(f"{type(exc).__name__}: {exc}")
        return real(exc)

    judge_module._internal = spy
    try:
        return _campaign(folder, inputs, seed, internal)
    finally:
        judge_module._internal = real


def _campaign(folder, inputs, seed, internal) -> collections.Counter:
    stream, rows = STREAM
    rng = random.Random(seed)
    post = Post(folder)
    players = {address for _, address in PLAYERS}
    tally: collections.Counter = collections.Counter()
    started = time.perf_counter()
    for n, request in enumerate(stream):
        share = inputs // len(stream) + (n < inputs % len(stream))
        taken = False
        for _ in range(share):
            kind, how, data = mutant(request, rng)
            before = post.state()
            said, answers = post.deliver(how, request.sender, data)
            assert not internal, f"internal error on a {kind} mutant via {how}: {internal}"
            tally["inputs"] += 1
            tally[(kind.split("+")[0], said)] += 1
            tally[said] += 1
            for to, mail in answers:
                assert to in players, f"an answer to {to}, who plays no game"
                assert "internal error" not in mail.text and "Traceback" not in mail.text
            if said == "refused":
                assert post.state() == before, f"a refused {kind} mutant changed the store"
                assert len(answers) <= 1
                for _, mail in answers:
                    first = mail.text.splitlines()[0]
                    assert first.startswith("refused: ") and len(first) < 1000, first
            elif said == "accepted":  # (harmless damage: what the request itself makes)
                ACCEPTED.append((kind, how, data))
                assert not taken
                taken = True
                assert post.state()[1][1] == rows[: request.rows]
                assert len(answers) <= len(PLAYERS)  # (digests: to those the game needs)
                assert all(not m.text.startswith("refused") for _, m in answers)
            else:  # a duplicate: the same bytes as a mail answered before
                assert post.state() == before and not answers
        said, answers = post.deliver("maildir", request.sender, _mail(request, n % 3 == 2))
        assert not internal, internal
        assert said == "refused" if taken else said == "accepted", (n, said, answers)
        assert post.state()[1][1] == rows[: request.rows]
    tally["seconds"] = round(time.perf_counter() - started, 1)
    assert post.state()[1][1] == rows  # (the judge served the whole game, as made in process)
    post.store.close()
    return tally


STREAM = _stream()
ACCEPTED: list = []  # (mutation, how it travelled, bytes) of each mutant the judge accepted


def test_fuzzed_request_mails_are_answered_once_or_refused_and_change_nothing(tmp_path):
    tally = run_campaign(tmp_path)
    assert tally["inputs"] == INPUTS
    assert tally["refused"] > tally["accepted"] > 0  # (the damage was mostly fatal, not all)


if __name__ == "__main__":  # the figures for docs/reliability.md
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        tally = run_campaign(Path(folder))
    for key, count in sorted(tally.items(), key=str):
        print(key, count)
    if "-v" in sys.argv:  # each accepted mutant, to see why its damage was harmless
        for kind, how, data in ACCEPTED:
            print(f"--- accepted: {kind} via {how}")
            print(data.decode("utf-8", "replace")[:1500])
