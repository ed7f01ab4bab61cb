"""Jedi Duel by email through the judge, end to end, over a real SMTP server.

The judge reads the Maildir of ``judge@club.test`` and answers through SMTP (aiosmtpd on the
loopback address, tests/mail_server.py, delivering into one Maildir per recipient).  Every
player reads its own Maildir and does what a person at a terminal does: ``boardstate join`` the
invitation, ``boardstate apply`` each move file, ``boardstate legal`` and ``boardstate move``
on its turn, and mails the request back (an attachment, or armored text pasted in the body).
At the end the judge publishes its log and ``boardstate verify LOG --with`` every copy audits it.

Then the mail the judge must refuse, or must not answer twice, each through real mail: not a
request at all, a request under the wrong key or with a forged signature, the same message
delivered twice, a request sent from another player's address, a stale request.

Time: every command a player types re-checks its whole copy (every signature), so a game by
mail costs quadratically in its length.  Two players play to the rules' end (about 110
moves, 13-20 s here); three players would take 25-40 s and six over a minute, so three to six
play 30 moves and then one of them resigns, which ends the game too (the engine's ``resign``,
4-7 s each), and every size is published and audited.
"""

from __future__ import annotations

import json
import random
import smtplib
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

from boardstate._hosted import decode_request
from boardstate.cli import cli
from boardstate.judge import Judge, Outgoing, open_store, serve_once
from boardstate.judge._mime import compose
from boardstate.judge._outboxes import SmtpOutbox
from boardstate.keys import load_private

pytest_plugins = ["mail_server"]  # the fixture mail_system

DOMAIN = "club.test"
JUDGE = f"judge@{DOMAIN}"
NAMES = ("ann", "ben", "cat", "dan", "eve", "fay")


def address(name: str) -> str:
    return f"{name}@{DOMAIN}"


def run(*args) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


class Player:
    """One player at their terminal: their Maildir, their copy, the commands they type.

    ``mode`` decides how requests travel: ``"attach"`` (a file attached), ``"body"`` (armored
    text pasted in the body, ``--text``) or ``"mixed"`` (the one, then the other).
    """

    def __init__(self, name: str, folder: Path, mail_system, mode: str = "attach") -> None:
        self.name = name
        self.address = address(name)
        self.folder = folder / name
        self.folder.mkdir(parents=True)
        self.copy = self.folder / "copy.msgpack"
        self.inbox = mail_system.inbox(self.address)
        self.outbox = SmtpOutbox("127.0.0.1", mail_system.port, self.address, timeout=10)
        self.mode = mode
        self.files = 0
        self.sent = 0
        self.moves = 0
        self.to_act: list[str] = []
        self.over = False
        self.refusals: list[str] = []
        self.logs: list[bytes] = []  # the judge's full log, mailed at the end
        self.events: list[str] = []  # "mail" (one read from the judge), "act" (a request sent)

    def path(self, stem: str) -> Path:
        self.files += 1
        return self.folder / f"{self.files:05d}-{stem}"

    def read(self) -> list:
        """The new mail, marked read."""
        mails = self.inbox.fetch()
        for mail in mails:
            self.inbox.done(mail)
        return mails

    # -- what comes in ------------------------------------------------------------------
    def handle(self, mail) -> None:
        self.events.append("mail")
        moves = game_files(mail)
        if mail.text.startswith("refused:"):
            self.refusals.append(mail.text.splitlines()[0])
            for data in moves:  # (a stale request's catch-up)
                self.apply(data)
            return
        assert moves, mail.text
        if not self.copy.exists():  # the invitation
            self.join(moves[0])
            return
        self.apply(moves[0])
        self.logs += moves[1:]  # (at the end: the judge's full log)

    def join(self, invite: bytes) -> None:
        path = self.path("invite.msgpack")
        path.write_bytes(invite)
        request = self.path("join.request")
        text = self.sends_text()
        args = ["--text"] if text else []
        rc, out = run("join", path, "--as", self.name, "-o", self.copy, "--reply", request, *args)
        assert rc == 0, out
        self.mail(request.read_bytes(), text, "join")

    def apply(self, data: bytes) -> tuple[int, str]:
        path = self.path("moves.msgpack")
        path.write_bytes(data)
        rc, out = run("apply", self.copy, path)
        assert rc == 0, out
        last = out.strip().splitlines()[-1]  # "to act: ann, ben", "Game over (...)", ...
        self.over = last.startswith("Game over")
        self.to_act = last.removeprefix("to act: ").split(", ") if "to act:" in last else []
        return rc, out

    # -- what goes out ------------------------------------------------------------------
    def sends_text(self) -> bool:
        return self.mode == "body" or (self.mode == "mixed" and self.sent % 2 == 1)

    def legal(self) -> list[str]:
        rc, out = run("legal", self.copy, "--as", self.name, "--json")
        assert rc == 0, out
        return json.loads(out)["commands"]

    def request(self, command: str, *, text: bool = False) -> bytes:
        """``boardstate move``: the request file's bytes (armored text with ``text``)."""
        out_file = self.path("move.request")
        args = ["--text"] if text else []
        rc, out = run("move", self.copy, "--as", self.name, command, "-o", out_file, *args)
        assert rc == 0, out
        return out_file.read_bytes()

    def mail(self, data: bytes, text: bool, what: str, *, via: Player | None = None) -> None:
        """Mail a request to the judge (from another player's address: ``via``)."""
        self.sent += 1
        self.events.append("act")
        if text:  # armored: pasted into the body
            out = Outgoing(JUDGE, f"my {what}", f"Here it is:\n\n{data.decode()}\nThanks.\n")
        else:
            out = Outgoing(JUDGE, f"my {what}", "Attached.\n", ((f"{what}.msgpack", data),))
        (via or self).outbox.send(out)

    def my_turn(self) -> bool:
        return not self.over and bool(self.to_act) and self.to_act[0] == self.name

    def turn(self, rng: random.Random, act: bool = True) -> int:
        """Read the mail; on one's turn, choose a legal command and mail the request.
        Returns how many mails were read and sent."""
        mails = self.read()
        for mail in mails:
            self.handle(mail)
        if not act or not self.my_turn():
            return len(mails)
        text = self.sends_text()
        self.mail(self.request(rng.choice(self.legal()), text=text), text, "move")
        self.moves += 1
        self.to_act = []  # (sent: the judge's answer comes when the game needs us again)
        return len(mails) + 1

    def close(self) -> None:
        self.outbox.close()


class Club:
    """A judge on the mail server and the players of one Jedi Duel game it referees."""

    def __init__(
        self, tmp_path: Path, mail_system, players: int, modes=None, mail: str = "digest"
    ) -> None:
        self.tmp = tmp_path
        names = NAMES[:players]
        for name in (*names, "judge"):
            assert run("key", "new", name)[0] == 0
        self.store_path = tmp_path / "judge.sqlite"
        self.judge = Judge(open_store(f"sqlite:{self.store_path}"), load_private("judge"))
        players_ = [(n, address(n)) for n in names]
        self.game_id = self.judge.create("jedi-duel", players_, mail=mail)
        self.inbox = mail_system.inbox(JUDGE)
        self.outbox = SmtpOutbox("127.0.0.1", mail_system.port, JUDGE, timeout=10)
        modes = modes or ["attach"] * players
        self.players = [
            Player(n, tmp_path / "players", mail_system, m) for n, m in zip(names, modes)
        ]
        self.by_name = {p.name: p for p in self.players}

    def serve(self) -> dict:
        return serve_once(self.judge, self.inbox, self.outbox)

    def rows(self) -> list[bytes]:
        return self.judge.store.load(self.game_id)[1]

    def play(self, rng: random.Random, limit: int = 10_000) -> int:
        """Rounds of: the judge's pass, then every player reads its mail and, on its turn,
        moves; to the end, or until ``limit`` moves were answered.  Returns the moves made."""
        for _ in range(10 * limit):
            counts = self.serve()
            assert counts["refused"] == 0 and counts["duplicate"] == 0, counts
            moves = sum(p.moves for p in self.players)
            act = moves < limit
            busy = sum(p.turn(rng, act) for p in self.players)
            if all(p.over for p in self.players) or (not act and not busy):
                return moves
            assert busy or counts["accepted"], "the game stalled"
        raise AssertionError("the game did not end")

    def settle(self) -> dict:
        """The judge answers what it has; everybody reads it (and nobody moves)."""
        counts = self.serve()
        for p in self.players:
            p.turn(random.Random(), act=False)
        return counts

    def to_act(self) -> Player:
        (acting,) = [p for p in self.players if p.my_turn()]
        return acting

    def publish(self) -> Path:
        log = self.tmp / "log.msgpack"
        game = self.game_id.hex()[:16]
        rc, out = run(
            "judge", "publish", game, "--store", self.store_path, "--key", "judge", "-o", log
        )
        assert rc == 0, out
        return log

    def close(self) -> None:
        for p in self.players:
            p.close()
        self.outbox.close()
        self.judge.store.close()


@pytest.fixture
def club(tmp_path, monkeypatch, mail_system):
    monkeypatch.setenv("BOARDSTATE_KEYS", str(tmp_path / "keys"))
    monkeypatch.chdir(tmp_path)
    made = []

    def make(players: int, modes=None, mail: str = "digest") -> Club:
        made.append(Club(tmp_path, mail_system, players, modes, mail))
        return made[-1]

    yield make
    for table in made:
        table.close()


def game_files(mail) -> list[bytes]:
    """A mail's move and game files, in order: its attachments but the table's pictures (a
    PNG, and the SVG it was drawn from)."""
    return [m for m in mail.moves if not m.startswith((b"\x89PNG", b"<svg", b"<?xml"))]


def new_mail(player: Player) -> list:
    """What arrived in ``player``'s Maildir since it last read (marked read now)."""
    return player.read()


# -------------------------------------------------------------------- whole games by mail
MODES = ("attach", "body", "mixed")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_jedi_duel_by_email_through_the_judge(club, players):
    table = club(players, [MODES[i % 3] for i in range(players)])
    rng = random.Random(players)
    if players == 2:
        moves = table.play(rng)  # to the rules' end
        assert moves > 10
    else:  # 30 moves, then the last player mails a resignation (armored text, out of turn)
        assert table.play(rng, limit=30) == 30
        table.settle()
        last = table.players[-1]
        last.mail(last.request("resign", text=True), True, "resignation")
        if table.settle()["accepted"] == 0:  # (stale: made on a copy without its own last
            assert "stale" in last.refusals.pop()  # move; the catch-up came, and is applied)
            last.mail(last.request("resign", text=True), True, "resignation")
            assert table.settle()["accepted"] == 1
    for p in table.players:
        assert p.over and not p.refusals
        rc, out = run("show", p.copy, "--as", p.name, "--json")
        assert rc == 0, out
        assert json.loads(out)["engine"]["outcome"] is not None
    log = table.publish()
    rc, out = run("verify", log, *[a for p in table.players for a in ("--with", p.copy)])
    assert rc == 0 and out.startswith("audit ok"), out
    assert f"players' copies checked against it: {players}" in out
    for p in table.players:  # (the judge mails its log at the end: the same log)
        assert p.logs in ([], [log.read_bytes()])
    # every request came through: both ways, as the modes said
    assert table.inbox.fetch() == []  # (every mail was handled)
    bodies = attached = 0
    for path in table.inbox.path.joinpath("cur").iterdir():
        raw = path.read_bytes()
        attached += b"filename=" in raw
        bodies += b"-----BEGIN BOARDSTATE MOVE-----" in raw
    assert bodies > players and attached > players


# -------------------------------------------------------------------- what is refused
@pytest.fixture
def table(club):
    """Two players, a few moves in, every mail read: ann or ben is to act."""
    made = club(2)
    made.play(random.Random(7), limit=4)
    made.settle()
    return made


def _garbage(table, player):
    return Outgoing(JUDGE, "move", "see attached", (("move.msgpack", bytes(range(256)) * 4),))


def _nothing(table, player):
    return Outgoing(JUDGE, "my move", "I play 'stance 5', thanks.\n")


def _move_file(table, player):  # the last move file the judge sent, sent back
    last = sorted(player.folder.glob("*-moves.msgpack"))[-1]
    return Outgoing(JUDGE, "move", "", (("moves.msgpack", last.read_bytes()),))


def _wrong_key(table, player):  # a request re-signed with a key the player did not join with
    assert run("key", "new", "mallory")[0] == 0
    request = decode_request(player.request(player.legal()[0]), "request")
    signed = attrs.evolve(request, signature=load_private("mallory").sign(request.message()))
    return Outgoing(JUDGE, "move", "", (("move.msgpack", signed.encode()),))


def _damaged_text(table, player):  # armored text with a line changed on the way
    text = player.request(player.legal()[0], text=True).decode()
    lines = text.splitlines()
    lines[2] = lines[2][:10] + ("A" if lines[2][10] != "A" else "B") + lines[2][11:]
    return Outgoing(JUDGE, "move", "\n".join(lines) + "\n")


REFUSED = {
    _garbage: "request 1 is not a request",
    _nothing: "the mail holds no request",
    _move_file: "request 1 is not a request",
    _wrong_key: "request does not verify",
    _damaged_text: "check does not match",
}


@pytest.mark.parametrize("make", list(REFUSED), ids=lambda f: f.__name__.strip("_"))
def test_a_mail_that_is_not_a_valid_request_is_refused_in_one_line(table, make):
    player = table.to_act()
    other = next(p for p in table.players if p is not player)
    rows, copy = table.rows(), player.copy.read_bytes()
    player.outbox.send(make(table, player))
    assert table.serve() == {"accepted": 0, "refused": 1, "duplicate": 0}
    (answer,) = new_mail(player)
    first, second, *_ = answer.text.splitlines()
    assert first.startswith("refused: ") and REFUSED[make] in first, first
    assert second == "Nothing was changed."
    assert answer.moves == ()  # (no catch-up: the sender lacked nothing)
    assert new_mail(other) == []
    assert table.rows() == rows and player.copy.read_bytes() == copy
    assert table.judge.store.outbox() == []  # (the refusal went out; nothing else is queued)
    # the game goes on: the same player's real move is accepted
    player.mail(player.request(player.legal()[0]), False, "move")
    assert table.serve()["accepted"] == 1
    assert len(table.rows()) > len(rows)


def test_the_same_message_delivered_twice_is_answered_once(table, mail_system):
    player = table.to_act()
    rows = table.rows()
    data = player.request(player.legal()[0])
    out = Outgoing(JUDGE, "move", "", (("m.msgpack", data),))
    raw = compose(out, player.address).as_bytes()  # (flattened once: one boundary)

    def deliver() -> None:  # a relay that delivers the same raw message again
        with smtplib.SMTP("127.0.0.1", mail_system.port, timeout=10) as smtp:
            smtp.sendmail(player.address, [JUDGE], raw)

    deliver()
    deliver()
    assert len(list((mail_system.maildir(JUDGE) / "new").iterdir())) == 2
    assert table.serve() == {"accepted": 1, "refused": 0, "duplicate": 1}
    replies = [len(new_mail(p)) for p in table.players]  # one set of replies: to whoever
    assert max(replies) == 1 and sum(replies) >= 1  # is to act now (digests), once each
    signature = decode_request(data, "request").signature

    def records_of_the_request() -> list[int]:
        game = table.judge.game(table.game_id)
        return [r.seq for r in game.records if r.request[1:] == (signature,)]

    assert records_of_the_request() == [len(rows)]
    assert len(table.rows()) == len(rows) + 1
    deliver()  # once more, after it was answered: nobody hears of it
    assert table.serve() == {"accepted": 0, "refused": 0, "duplicate": 1}
    assert all(new_mail(p) == [] for p in table.players)
    # The same request in another message (a resend: new headers, new bytes) is not the same
    # mail; the request inside is used once, so it is refused, and the game still has it once.
    player.outbox.send(out)
    assert table.serve() == {"accepted": 0, "refused": 1, "duplicate": 0}
    (answer,) = new_mail(player)
    assert answer.text.startswith("refused: ") and "used before" in answer.text
    assert records_of_the_request() == [len(rows)]
    assert len(table.rows()) == len(rows) + 1


def test_the_from_header_authenticates_nothing(table):
    player = table.to_act()
    seat = table.players.index(player)
    other = next(p for p in table.players if p is not player)
    rows = table.rows()
    # A valid request sent from the other player's address is the signer's move.
    player.mail(player.request(player.legal()[0]), False, "move", via=other)
    assert table.serve() == {"accepted": 1, "refused": 0, "duplicate": 0}
    game = table.judge.game(table.game_id)
    assert game.records[len(rows)].actor == seat
    answered = 0
    for p in table.players:  # the usual answers, by the store's addresses: no refusal
        for mail in new_mail(p):  # (a digest to whoever is to act now)
            assert not mail.text.startswith("refused")
            p.handle(mail)
            answered += 1
    assert answered >= 1
    # A request whose signature does not cover it, from the signer's own address: refused.
    rows = table.rows()
    note = decode_request(player.request("note good luck"), "request")
    forged = attrs.evolve(note, command="resign")  # (ann's signed note made a resignation)
    player.outbox.send(Outgoing(JUDGE, "move", "", (("m.msgpack", forged.encode()),)))
    assert table.serve() == {"accepted": 0, "refused": 1, "duplicate": 0}
    (answer,) = new_mail(player)
    assert answer.text.startswith(f"refused: {player.name}'s request does not verify")
    assert new_mail(other) == []
    assert table.rows() == rows
    assert table.judge.game(table.game_id).outcome() is None


def test_a_stale_request_is_refused_with_a_catch_up_to_apply(table):
    player = table.to_act()
    rows = table.rows()
    choices = player.legal()
    before = player.copy.read_bytes()  # (the copy as it was before the first request)
    player.mail(player.request(choices[0]), False, "move")
    assert table.serve()["accepted"] == 1
    # Before reading the answer, the player changes their mind: a request from the old copy.
    player.copy.write_bytes(before)
    second = player.request(choices[1] if len(choices) > 1 else "note changed my mind", text=True)
    assert second.startswith(b"-----BEGIN BOARDSTATE MOVE-----")
    player.mail(second, True, "move")
    after = table.rows()
    assert len(after) > len(rows)
    assert table.serve() == {"accepted": 0, "refused": 1, "duplicate": 0}
    assert table.rows() == after
    *answers, refusal = new_mail(player)  # (an answer if the player is still to act)
    assert len(answers) <= 1
    assert refusal.text.startswith("refused: ") and "stale" in refusal.text.splitlines()[0]
    (catch_up,) = refusal.moves
    rc, out = player.apply(catch_up)  # the catch-up brings the copy up to date
    assert rc == 0
    game = table.judge.game(table.game_id)
    rc, out = run("show", player.copy, "--as", player.name, "--json")
    assert json.loads(out)["engine"]["records"] == game.seq
    for answer in answers:  # the first answer is then already in the copy
        path = player.path("moves.msgpack")
        path.write_bytes(game_files(answer)[0])
        rc, out = run("apply", player.copy, path)
        assert rc == 1 and "stale" in out
    for p in table.players:  # and the game goes on
        if p is not player:
            p.turn(random.Random(), act=False)
    assert table.play(random.Random(8), limit=sum(p.moves for p in table.players) + 4)
    assert all(p.refusals == [] for p in table.players)
