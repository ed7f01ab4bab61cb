"""Deadlines of a hosted game (issue 26, item 2), with a clock the test moves by hand.

A two-player Jedi Duel is made by the judge with a day a move and a reminder six hours before
the end; the players join and play through the judge's ``serve_once`` (requests in an inbox
held in memory, the judge's mail in a list), each player's copy applying the judge's move files
as ``apply`` does.  The judge reminds the late player once; at the deadline it does what the
header says: waits (and says the time is up, once), forfeits the late player, or lets a bot
move for them from their own view.  Every player's copy re-checks the deadline record from the
judge's times in the log, and refuses one that is forged: too early, for a seat the game does
not wait for, or under a policy the header does not name.
"""

from __future__ import annotations

import hashlib
import os

import attrs
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from test_judge_mail import run

import boardstate as bs
from boardstate._deadline import Deadline, created_stamp, stamp_words
from boardstate._errors import BoardstateError
from boardstate._fileformat import encode_game, encode_moves, encode_public, parse_raw
from boardstate._hosted import decode_request
from boardstate._records import Kind
from boardstate._referee import referee_moves
from boardstate.bots import Bot
from boardstate.judge import Judge, Mail, open_store, serve_once
from boardstate.judge._judge import read_game
from boardstate.keys import new_key

CREATED = "2026-11-22T00:00:00+00:00"
DAY, HOUR = 86400, 3600
NAMES = ("ann", "ben")


class Clock:
    """The judge's clock: Unix seconds, moved by the test."""

    def __init__(self, now: int) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


class Inbox:
    def __init__(self) -> None:
        self.waiting: list[Mail] = []

    def mails(self):
        yield from list(self.waiting)

    def done(self, mail: Mail) -> None:
        self.waiting.remove(mail)


class Outbox:
    def __init__(self) -> None:
        self.sent = []

    def send(self, mail) -> None:
        self.sent.append(mail)


class Club:
    """A judge with one game under a deadline, and its players' copies (in memory)."""

    def __init__(self, tmp_path, policy: str, level: str = "") -> None:
        self.clock = Clock(created_stamp(CREATED) + 60)
        self.store = open_store(str(tmp_path / "judge.sqlite"))
        self.judge = Judge(self.store, Ed25519PrivateKey.generate(), clock=self.clock)
        deadline = Deadline.of(DAY, policy, 6 * HOUR, level)
        self.game_id = self.judge.create(
            "jedi-duel",
            [(n, f"{n}@club.test") for n in NAMES],
            created=CREATED,
            seed=b"deadlines",
            deadline=deadline,
        )
        self.inbox, self.outbox = Inbox(), Outbox()
        invite = encode_public(self.judge.game(self.game_id))
        self.copies = []
        for seat, _name in enumerate(NAMES):
            copy = bs.load_game(parse_raw(invite, "invite"))
            copy.header = attrs.evolve(copy.header, viewer=seat, peer_secret=os.urandom(32))
            key = Ed25519PrivateKey.generate()
            copy.signer = key.sign
            public = key.public_key().public_bytes(
                serialization.Encoding.Raw, serialization.PublicFormat.Raw
            )
            self.copies.append(copy)
            self.send(copy.join_request(seat, public))
        assert self.serve() == {"accepted": 2}
        self.deliver()

    @property
    def game(self):
        return self.judge.game(self.game_id, fresh=True)

    def send(self, request) -> None:
        data = request.encode()
        digest = hashlib.sha256(data).digest()
        self.inbox.waiting.append(Mail(digest.hex(), digest, "x@club.test", "", "", (data,)))

    def serve(self) -> dict:
        """One pass of the judge: what it judged, and (key ``kept``) what its deadlines did."""
        done = serve_once(self.judge, self.inbox, self.outbox)
        said = {what: n for what, n in done.items() if n}
        if done.kept:
            said["kept"] = dict(done.kept)
        return said

    def deliver(self) -> None:
        """Each copy applies the judge's records since its last, as its move file."""
        game = self.game
        for seat, copy in enumerate(self.copies):
            if copy.last_seq < game.last_seq:
                data = encode_moves(game, copy.last_seq, reader=seat)
                referee_moves(copy, parse_raw(data, f"to {NAMES[seat]}"))

    def move(self) -> int:
        """The player to act makes their first legal move through the judge; their seat."""
        seat = self.game.to_act()[0]
        copy = self.copies[seat]
        self.send(copy.request(seat, copy.legal(seat)[0]))
        assert self.serve().get("accepted") == 1
        self.deliver()
        return seat

    def due(self) -> tuple[int, int]:
        """``(seat, when its time runs out)`` of the one seat the game waits for."""
        (found,) = self.game.trust.deadlines(self.game).items()
        return found

    def reminders(self) -> list:
        return [m for m in self.outbox.sent if m.kind == "reminder"]


def _verified(tmp_path, copy, name: str) -> None:
    path = tmp_path / f"{name}.msgpack"
    path.write_bytes(encode_game(copy))
    verdict = bs.verify(str(path))
    assert verdict.ok, verdict


def test_a_reminder_once_then_a_forfeit_that_every_copy_applies_and_verifies(tmp_path):
    club = Club(tmp_path, "forfeit")
    club.move()
    seat, due = club.due()
    joined = club.game.trust.clock.last  # (the time of the last record: the move just made)
    assert due == joined + DAY
    club.clock.now = due - 6 * HOUR - 1
    assert club.serve() == {}  # (not yet)
    club.clock.now = due - 6 * HOUR
    assert club.serve() == {"kept": {"reminder": 1}}
    (reminder,) = club.reminders()
    assert reminder.to == f"{NAMES[seat]}@club.test" and "your time runs out" in reminder.subject
    assert "you forfeit the game" in reminder.text
    club.clock.now = due - 1
    assert club.serve() == {}  # (reminded once)
    club.clock.now = due
    assert club.serve() == {"kept": {"forfeit": 1}}
    outcome = club.game.outcome()
    assert outcome is not None and outcome.winners == (1 - seat,)
    assert "forfeited (no move by the deadline)" in outcome.reason
    last = club.game.records[-1]
    assert (last.kind, last.actor, last.command, len(last.request)) == (
        Kind.MOVE,
        seat,
        "forfeit",
        1,
    )
    club.deliver()
    for i, copy in enumerate(club.copies):
        assert copy.head_hash == club.game.head_hash
        assert copy.outcome() == outcome
        _verified(tmp_path, copy, NAMES[i])
    _verified(tmp_path, club.game, "judge")
    assert club.serve() == {}  # (the game is over: nothing more to keep)


def test_the_bot_policy_moves_for_the_late_player_and_the_copies_recheck_it(tmp_path, monkeypatch):
    club = Club(tmp_path, "bot", "random")
    seat, due = club.due()
    legal = club.copies[seat].legal(seat)
    seen = []
    choose = Bot.choose

    def spied(bot, game, at):  # (what the bot is given: the seat's view, nothing more)
        seen.append((game.header.seed, game.header.viewer, game.header.peer_secret, at))
        return choose(bot, game, at)

    monkeypatch.setattr(Bot, "choose", spied)
    club.clock.now = due + 5
    assert club.serve() == {"kept": {"bot move": 1}}
    assert seen == [(None, seat, None, seat)]
    last = club.game.records[-1]
    assert last.actor == seat and last.command in legal and len(last.request) == 1
    assert last.request[0] == due + 5  # (the judge's time of the record)
    club.deliver()
    for i, copy in enumerate(club.copies):
        assert copy.head_hash == club.game.head_hash
        _verified(tmp_path, copy, NAMES[i])
    club.move()  # (the game goes on, through the judge as before)


def test_the_wait_policy_only_reminds(tmp_path):
    club = Club(tmp_path, "wait")
    seat, due = club.due()
    head = club.game.seq
    club.clock.now = due - HOUR
    assert club.serve() == {"kept": {"reminder": 1}}
    club.clock.now = due + DAY
    said = serve_once(club.judge, club.inbox, club.outbox).line()  # (what 'judge run' prints)
    assert said == "deadlines: 1 time up; 1 mail sent (1 deadline mail)", said
    assert club.serve() == {}
    assert club.game.seq == head and club.game.outcome() is None
    late = [m for m in club.reminders() if "time is up" in m.subject]
    assert len(late) == 1 and late[0].to == f"{NAMES[seat]}@club.test"
    club.move()  # (a late move is still taken)


def _forged(club, seat: int, command: str, stamp: int):
    """The judge's copy made to sign a deadline record it should not make: the move file a
    cheating judge would send."""
    header, rows = club.store.load(club.game_id)
    game = read_game(header, rows, club.game_id)
    game.signer = club.judge.key.sign
    start = game.seq
    game.trust.answering, game.trust.pinned = (), stamp
    game.append(game.make(Kind.MOVE, seat, command, None, ()))
    return encode_moves(game, start - 1, reader=1 - seat)


@pytest.mark.parametrize(
    ("policy", "forged", "why"),
    [
        ("forfeit", "early", "before their time runs out"),
        ("forfeit", "other seat", "whom the game does not wait for"),
        ("wait", "on time", "where the header's policy is 'wait'"),
        ("bot", "on time", "(a forfeit) where the header's policy is 'bot'"),
    ],
)
def test_a_forged_deadline_record_is_refused_by_a_players_copy(tmp_path, policy, forged, why):
    club = Club(tmp_path, policy, "random" if policy == "bot" else "")
    seat, due = club.due()
    target = 1 - seat if forged == "other seat" else seat
    data = _forged(club, target, "forfeit", due - 1 if forged == "early" else due)
    reader = club.copies[1 - target]
    with pytest.raises(BoardstateError, match="bad-deadline|deadline") as caught:
        referee_moves(reader, parse_raw(data, "forged"))
    assert why in str(caught.value)


def test_a_player_cannot_ask_to_forfeit_nor_the_judge_stamp_back_in_time(tmp_path):
    club = Club(tmp_path, "forfeit")
    seat, due = club.due()
    copy = club.copies[seat]
    with pytest.raises(BoardstateError, match="no player asks for one"):
        copy.request(seat, "forfeit")
    # A record stamped before the last record's time: refused whatever it is.
    first = copy.legal(seat)[0]
    request = decode_request(copy.request(seat, first).encode(), "request")
    game = read_game(*club.store.load(club.game_id), club.game_id)
    game.signer = club.judge.key.sign
    game.trust.now = lambda: 0  # (the judge's clock put back: time_now keeps the last time)
    start = game.seq
    game.judge(request)
    assert game.records[-1].request[-1] == game.trust.clock.last
    game.trust.pinned = created_stamp(CREATED) - 1
    game.trust.answering = ()
    game.append(game.make(Kind.MOVE, 1 - seat, "note hello", None, ()))
    data = encode_moves(game, start - 1, reader=1 - seat)
    with pytest.raises(BoardstateError, match="judge's time of the record"):
        referee_moves(club.copies[1 - seat], parse_raw(data, "back in time"))


def test_the_digest_and_judge_list_say_when_the_time_runs_out(tmp_path):
    club = Club(tmp_path, "forfeit")
    seat, due = club.due()
    when = stamp_words(due)
    digests = [m for m in club.outbox.sent if m.kind == "digest" and "your turn" in m.subject]
    assert digests and f"Your time for this move runs out at {when}" in digests[-1].text
    club.store.close()
    rc, out = run("judge", "list", "--store", tmp_path / "judge.sqlite")
    assert rc == 0 and f"deadline: {NAMES[seat]} {when} (then forfeit)" in out, out
    # A player's list of games says it too, from the copy's own log.
    (tmp_path / "mine").mkdir()
    for other, copy in enumerate(club.copies):
        (tmp_path / "mine" / f"{NAMES[other]}.msgpack").write_bytes(encode_game(copy))
    rows = bs.list_games([tmp_path / "mine"])
    assert {row.deadline for row in rows} == {f"{when} (then forfeit)"}
    rc, out = run("games", tmp_path / "mine")
    assert rc == 0 and out.count(f"; time runs out {when} (then forfeit)") == len(NAMES), out


def test_judge_new_takes_a_deadline_and_refuses_a_bad_one_in_one_line(tmp_path):
    key = new_key("judge", tmp_path)[0]
    store = tmp_path / "j.sqlite"
    common = ["judge", "new", "jedi-duel", "--player", "ann=a@x.test", "--player", "ben=b@x.test"]
    common += ["--store", store, "--key", key]
    rc, out = run(*common, "--deadline", "2d", "--at-deadline", "bot", "--remind", "6h")
    assert rc == 0, out
    assert "deadline: 2 days a move; a reminder 6 hours before; then a bot (easy)" in out
    for bad, why in [
        (["--deadline", "3x"], "--deadline '3x': expected a number and a unit"),
        (["--deadline", "30s"], "the time per move must be a minute to a year"),
        (["--deadline", "1d", "--remind", "2d"], "the reminder goes before the deadline"),
        (["--remind", "1h"], "--remind and --bot-level go with --deadline"),
    ]:
        rc, out = run(*common, *bad)
        assert rc != 0 and why in out and "Traceback" not in out, (bad, out)
        assert len(out.strip().splitlines()) == 1, out
