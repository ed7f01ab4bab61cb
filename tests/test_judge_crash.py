"""A judge killed at any moment and restarted loses no accepted move and applies none twice.

docs/trust.md ("Mail, store, and nothing lost").  Everything the judge is given is fixed (its
key, its seeds, its secret, the players' keys and secrets), so two judges given the same
stream of requests make the same games byte for byte.  The test:

1. plays six Jedi Duel games in process (one to the end, five to 30 moves), recording every
   request a player sent, as bytes, and interleaves the games' requests into one stream;
2. the reference: a judge in process reads the whole stream from a directory inbox (store A);
3. the real ``boardstate judge run`` in a subprocess reads the same stream (store B), and is
   killed with SIGKILL at random moments and restarted (up to 24 times: mostly within a
   message or two of its last progress, so that every step of handling one is hit, sometimes
   a second later), then started once more to finish the stream.  Its stream
   also holds a message delivered twice and two requests of one game in swapped order (the
   later is refused, the earlier accepted, then the player's resend of the later accepted);
4. store B must hold every game's rows byte for byte as store A, every message answered once
   (A's, plus the resend), the same mail queued (A's, plus the one refusal), all of it sent;
   the mail written to B's outbox folder is A's, plus the refusal, each once: a judge killed
   after writing a mail and before noting it sent writes it again at its next start, over
   itself (the folder outbox's keys; through SMTP it would go out twice: the store cannot know
   what a mail server got).

SQLite, and PostgreSQL when a server can be started (tests/pg_server.py; skipped, saying why,
otherwise).
"""

from __future__ import annotations

import collections
import hashlib
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import attrs
import msgpack
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from pg_server import fresh_postgres_url, postgres_url  # noqa: F401  (fixtures used by name)

import boardstate as bs
from boardstate._armor import armor
from boardstate._fileformat import encode_moves, encode_public, encode_row, parse_raw
from boardstate._hosted import decode_request
from boardstate._referee import referee_moves
from boardstate.judge import Judge, open_store, parse_mail, serve_once
from boardstate.judge._inboxes import DirectoryInbox
from boardstate.judge._outboxes import DirectoryOutbox

CREATED = "2026-11-22T00:00:00+00:00"
JUDGE = "judge@club.test"
NAMES = ("ann", "ben", "cat", "dan", "eve", "fay")
GAMES = ((2, None), (3, 30), (2, 30), (3, 30), (2, 30), (3, 30))  # players, moves (None: all)
T0 = 1_700_000_000 * 10**9  # the inbox's mtimes (ns): the stream's order
KILLS = 24  # then one last start finishes the stream


def _fixed(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


def judge_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(_fixed("judge key"))


def player_key(name: str) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(_fixed(f"key of {name}"))


def _public(key) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def address(name: str) -> str:
    return f"{name}@club.test"


def seats(game: int) -> list[str]:
    players = GAMES[game][0]
    return [NAMES[(game + s) % len(NAMES)] for s in range(players)]


def create_games(judge: Judge) -> list[bytes]:
    """The games, made the same way by every judge: nothing left to chance."""
    return [
        judge.create(
            "jedi-duel",
            [(name, address(name)) for name in seats(i)],
            created=CREATED,
            seed=_fixed(f"seed {i}"),
            secret=_fixed("the judge's secret"),
        )
        for i in range(len(GAMES))
    ]


@attrs.frozen
class Sent:
    """One request as a player mailed it: the sender, the bytes, a file or armored text."""

    game: int
    sender: str
    data: bytes
    text: bool = False

    def file(self) -> tuple[str, bytes]:
        if not self.text:
            return ".msgpack", self.data
        return ".txt", ("Here is my move:\n\n" + armor(self.data, "request")).encode()


def play(judge: Judge, game_id: bytes, index: int, rng: random.Random) -> list[Sent]:
    """One game in process: the players' copies (fixed keys and secrets) send requests, the
    judge's copy judges them, every copy gets its move file.  Returns the requests in order."""
    names = seats(index)
    game = judge.game(game_id)  # (in memory only: the store is not this one's business)
    invite = encode_public(game)
    copies = []
    for seat, name in enumerate(names):
        copy = bs.load_game(parse_raw(invite, "invite"))
        secret = _fixed(f"secret of {name} in game {index}")
        copy.header = attrs.evolve(copy.header, viewer=seat, peer_secret=secret)
        copy.signer = player_key(name).sign
        copies.append(copy)
    asked = [
        (s, c.join_request(s, _public(player_key(c.players[s])))) for s, c in enumerate(copies)
    ]
    sent = []

    def send(seat: int, request) -> None:
        data = request.encode()
        base = game.seq - 1
        game.judge(decode_request(data, "request"))
        for reader, copy in enumerate(copies):
            referee_moves(copy, parse_raw(encode_moves(game, base, reader=reader), "moves"))
        sent.append(Sent(index, address(names[seat]), data, text=len(sent) % 5 == 4))

    for seat, request in asked:  # (the joins cross in the mail: all made on the invitation)
        send(seat, request)
    limit = GAMES[index][1] or 10_000
    moves = 0
    while game.outcome() is None and moves < limit:
        seat = game.to_act()[0]
        send(seat, copies[seat].request(seat, rng.choice(copies[seat].legal(seat))))
        moves += 1
    assert all(c.head_hash == game.head_hash for c in copies)
    return sent


def interleave(games: list[list[Sent]], rng: random.Random) -> list[Sent]:
    """The games' requests in one stream, each game's in its own order."""
    left = [list(g) for g in games]
    stream = []
    while any(left):
        stream.append(rng.choice([g for g in left if g]).pop(0))
    return stream


def drop(folder: Path, entries: list[tuple[float, Sent]]) -> None:
    """Write each request into the inbox folder as ``ADDRESS--NNNNN.EXT``; the inbox reads them
    oldest first, so the mtime is the position in the stream."""
    folder.mkdir(parents=True, exist_ok=True)
    for n, (position, sent) in enumerate(entries):
        suffix, data = sent.file()
        path = folder / f"{sent.sender}--{n:05d}{suffix}"
        path.write_bytes(data)
        mtime = T0 + int(position * 1_000_000)
        os.utime(path, ns=(mtime, mtime))


def waiting(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if p.is_file() and p.suffix in (".msgpack", ".txt")]


def contents(store, game_ids) -> dict:
    """Everything a store holds that the comparison is about."""
    with store._tx(write=False) as tx:
        answered = [bytes(d) for (d,) in tx.all("SELECT digest FROM answered")]
        queued = [(bytes(m), s) for m, s in tx.all("SELECT mail, sent FROM outbox ORDER BY id")]
    return {
        "games": {g: store.load(g) for g in game_ids},
        "answered": answered,
        "queued": queued,
    }


def sent_mail(folder: Path) -> collections.Counter:
    """The mail a ``DirectoryOutbox`` wrote: (to, subject, text, attachments), counted."""
    found = collections.Counter()
    for eml in folder.glob("*/*.eml"):
        mail = parse_mail(eml.read_bytes(), eml.name)
        found[(eml.parent.name, mail.subject, mail.text, mail.moves)] += 1
    return found


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The stream, and what an uninterrupted judge makes of it."""
    folder = tmp_path_factory.mktemp("reference")
    rng = random.Random(2026)
    with open_store(f"sqlite:{folder / 'gen.sqlite'}") as scratch:
        maker = Judge(scratch, judge_key())
        game_ids = create_games(maker)
        games = [play(maker, g, i, rng) for i, g in enumerate(game_ids)]
        rows = {
            g: [encode_row(maker.game(g).header, r) for r in maker.game(g).records]
            for g in game_ids
        }
    stream = interleave(games, rng)
    drop(folder / "inbox", list(enumerate(stream)))
    with open_store(f"sqlite:{folder / 'a.sqlite'}") as store:
        judge = Judge(store, judge_key())
        assert create_games(judge) == game_ids
        outbox = DirectoryOutbox(folder / "outbox", JUDGE)
        counts = serve_once(judge, DirectoryInbox(folder / "inbox"), outbox)
        assert counts == {"accepted": len(stream), "refused": 0, "duplicate": 0}
        assert waiting(folder / "inbox") == []
        made = contents(store, game_ids)
    for g in game_ids:  # the judge made what the players saw made
        assert made["games"][g][1] == rows[g]
    assert all(sent == 1 for _, sent in made["queued"])
    return {
        "games": games,
        "game_ids": game_ids,
        "stream": stream,
        "store": made,
        "mail": sent_mail(folder / "outbox"),
    }


def perturbed(reference) -> tuple[list[tuple[float, Sent]], Sent, Sent]:
    """The stream with a message delivered twice and a pair of one game's requests swapped:
    the later dropped just before the earlier, and its resend (armored text this time) where
    it was.  Returns the entries, the swapped request and its resend."""
    stream = reference["stream"]
    entries = [(float(n), sent) for n, sent in enumerate(stream)]
    game = stream[len(stream) // 2].game  # a game in mid-flow, past its joins
    mine = [n for n, s in enumerate(stream) if s.game == game]
    joins = len(seats(game))
    earlier, later = mine[joins + 5], mine[joins + 6]
    swapped = stream[later]
    resend = attrs.evolve(swapped, text=not swapped.text)
    entries[later] = (earlier - 0.5, swapped)  # the later one first ...
    entries.append((later + 0.25, resend))  # ... and again, where it belonged
    twice = stream[len(stream) // 3]
    entries.append((len(stream) // 3 + 0.5, twice))  # the same bytes, delivered again
    assert len(stream) // 3 not in (earlier, later)
    return entries, swapped, resend


def _command() -> list[str]:
    script = Path(sys.executable).with_name("boardstate")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from boardstate.cli import main; main()"]


def _key_file(folder: Path) -> Path:
    folder.mkdir(mode=0o700)
    path = folder / "judge.key"
    pem = judge_key().private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
    return path


@pytest.fixture(params=["sqlite", "postgres"])
def where(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:{tmp_path / 'b.sqlite'}"
    return request.getfixturevalue("fresh_postgres_url")


def test_a_judge_killed_at_any_moment_loses_nothing_and_does_nothing_twice(
    where, reference, tmp_path
):
    game_ids = reference["game_ids"]
    with open_store(where) as store:  # 'judge new', the same way as the reference's
        assert create_games(Judge(store, judge_key())) == game_ids
    entries, swapped, resend = perturbed(reference)
    inbox, outbox = tmp_path / "inbox", tmp_path / "outbox"
    drop(inbox, entries)
    key = _key_file(tmp_path / "keys")
    run = [*_command(), "judge", "run", "--store", where, "--key", str(key), "--from", JUDGE]
    run += ["--inbox", f"dir:{inbox}", "--outbox", f"dir:{outbox}"]
    rng = random.Random()
    kills = 0
    log = tmp_path / "judge.log"

    def done() -> int:
        return len(list((inbox / "done").glob("*"))) if (inbox / "done").exists() else 0

    while waiting(inbox) and kills < KILLS:
        before = done()
        with open(log, "ab") as said:
            child = subprocess.Popen([*run, "--poll", "0.01"], stdout=said, stderr=said)
        try:
            deadline = time.monotonic() + 60
            while done() == before and waiting(inbox) and time.monotonic() < deadline:
                assert child.poll() is None, log.read_text()
                time.sleep(0.005)
            # Mostly within the next message or two (any step of handling one: judging,
            # committing, marking it done, sending, noting it sent), sometimes much later.
            short = kills < 5 or rng.random() < 0.7
            time.sleep(rng.uniform(0, 0.06) if short else rng.uniform(0.1, 1))
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
        kills += 1
    # The last start: whatever is left in the inbox, and the mail queued before the last kill.
    with open(log, "ab") as said:
        finished = subprocess.run([*run, "--once"], stdout=said, stderr=said, timeout=600)
    assert finished.returncode == 0, log.read_text()
    assert waiting(inbox) == [], "a message was never handled"
    assert len(list((inbox / "done").iterdir())) == len(entries)
    assert kills >= 5

    with open_store(where) as store:
        made = contents(store, game_ids)
    expected = reference["store"]
    # Every game, row for row and byte for byte, as the judge that was never killed made it.
    for g in game_ids:
        assert made["games"][g] == expected["games"][g], f"game {g.hex()[:12]} differs"
    # Every message answered once: the reference's, and the resend (the swapped request's
    # first delivery is the reference's own bytes; the message delivered twice adds nothing).
    digest = hashlib.sha256
    assert len(made["answered"]) == len(set(made["answered"]))
    resent = digest(resend.file()[1]).digest()
    assert sorted(made["answered"]) == sorted([*expected["answered"], resent])
    # The same mail queued, plus one refusal (to the swapped request's sender), all sent.
    assert all(sent == 1 for _, sent in made["queued"])
    extra = collections.Counter(m for m, _ in made["queued"])
    extra.subtract(collections.Counter(m for m, _ in expected["queued"]))
    (refusal,) = [m for m, n in extra.items() if n]
    assert extra[refusal] == 1
    to, _subject, text, attachments, kind, picture = msgpack.unpackb(refusal, raw=False)
    assert to == swapped.sender and text.startswith("refused: ") and "stale" in text
    assert kind == "refusal" and picture == ""
    assert attachments == []  # (it lacked nothing: it was early, not late)
    # The mail that went out: all of the reference's and the refusal, each once (a mail
    # written just before a kill is written again over itself, not beside itself).
    mail, reference_mail = sent_mail(outbox), reference["mail"]
    (new,) = set(mail) - set(reference_mail)
    assert new[0] == swapped.sender and new[2] == text and mail[new] == 1
    for sent, count in reference_mail.items():
        assert mail[sent] >= count, f"a mail to {sent[0]} was lost: {sent[1]}"
        assert mail[sent] == count, f"a mail to {sent[0]} was written twice: {sent[1]}"
