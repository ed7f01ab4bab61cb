"""The judge's input is bounded, and it answers players only (docs/reliability.md, "The judge's
input").

- A mail over ``MAX_MAIL_BYTES`` is not read into memory (its first bytes, for its sender, and
  a running hash); the inbox is read one mail at a time; the sender gets a one-line reason.
- A mail with more than ``MAX_PARTS`` MIME parts is refused before the MIME parser builds them.
- A refused mail is answered only when its sender is a player of some game in the store: junk
  from outside addresses (or with a forged sender) brings no mail from the judge.
"""

from __future__ import annotations

import email.message
import mailbox
import os
import time
import tracemalloc

import pytest

from boardstate.judge import Judge, open_store, serve_once
from boardstate.judge._inboxes import DirectoryInbox, MaildirInbox
from boardstate.judge._mime import MAX_MAIL_BYTES, MAX_PARTS, compose, parse_mail
from boardstate.judge._outboxes import DirectoryOutbox
from boardstate.judge._types import Outgoing

pytest_plugins = ["mail_server"]

PLAYERS = [("ann", "ann@club.test"), ("ben", "ben@club.test")]


@pytest.fixture
def judge(tmp_path):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    made = Judge(open_store(f"sqlite:{tmp_path / 'judge.sqlite'}"), Ed25519PrivateKey.generate())
    made.create("jedi-duel", PLAYERS, created="2026-11-22T00:00:00+00:00")
    for mail_id, _ in made.store.outbox():  # (the invitations: not this test's business)
        made.store.sent(mail_id)
    yield made
    made.store.close()


def _big(sender: str, n: int) -> bytes:
    msg = email.message.EmailMessage()
    msg["From"], msg["Subject"] = sender, f"my move {n}"
    msg.set_content("my move, and a photo of the table")
    photo = os.urandom(8 << 20)
    msg.add_attachment(photo, maintype="image", subtype="jpeg", filename="table.jpg")
    return msg.as_bytes()


def _answers(folder) -> dict[str, list]:
    found: dict[str, list] = {}
    for eml in sorted(folder.glob("*/*.eml")):
        found.setdefault(eml.parent.name, []).append(parse_mail(eml.read_bytes(), eml.name))
    return found


def test_large_mails_are_read_one_at_a_time_and_refused_unread(judge, tmp_path):
    box = mailbox.Maildir(tmp_path / "maildir", create=True)
    for n in range(4):  # 11 MB each
        box.add(_big("ann@club.test", n))
    sizes = [p.stat().st_size for p in (tmp_path / "maildir" / "new").iterdir()]
    assert min(sizes) > 10 * MAX_MAIL_BYTES
    inbox, outbox = MaildirInbox(tmp_path / "maildir"), DirectoryOutbox(tmp_path / "out")
    tracemalloc.start()
    try:
        counts = serve_once(judge, inbox, outbox)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert counts == {"accepted": 0, "refused": 4, "duplicate": 0}
    assert peak < 4 * MAX_MAIL_BYTES, f"{peak:,} bytes held while reading 4 mails of 11 MB"
    answers = _answers(tmp_path / "out")["ann@club.test"]
    assert len(answers) == 4
    for answer in answers:
        first = answer.text.splitlines()[0]
        assert first.startswith("refused: the mail is 11,") and "at most 1,048,576 bytes" in first
    assert inbox.fetch() == []  # (marked done: answered once)
    assert serve_once(judge, inbox, outbox) == {"accepted": 0, "refused": 0, "duplicate": 0}


def test_a_large_file_dropped_in_a_folder_is_refused_unread(judge, tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "ben@club.test--move.msgpack").write_bytes(b"\x00" * (MAX_MAIL_BYTES + 1))
    (mail,) = DirectoryInbox(inbox).fetch()
    assert mail.sender == "ben@club.test" and mail.moves == () and "1,048,577 bytes" in mail.refused
    assert judge.handle(mail) == "refused"
    ((_, answer),) = judge.store.outbox()
    assert answer.to == "ben@club.test" and answer.text.startswith("refused: the mail is")


def test_a_mail_of_many_mime_parts_is_refused_before_it_is_parsed(judge, tmp_path):
    parts = b"".join(b"--b\n\n" for _ in range(20_000))
    raw = (
        b"From: ann@club.test\nSubject: parts\n"
        b"Content-Type: multipart/mixed; boundary=b\n\n" + parts + b"--b--\n"
    )
    assert len(raw) < MAX_MAIL_BYTES  # (small: the parts, not the size, are the problem)
    started = time.process_time()
    mail = parse_mail(raw, "k")
    spent = time.process_time() - started
    assert spent < 0.3, f"{spent:.2f} s of CPU for one mail"
    assert mail.sender == "ann@club.test" and mail.moves == ()
    assert mail.refused == f"the mail has more than {MAX_PARTS} MIME parts (send the request alone)"
    assert judge.handle(mail) == "refused"
    ((_, answer),) = judge.store.outbox()
    assert (
        answer.to == "ann@club.test" and answer.text.splitlines()[0] == f"refused: {mail.refused}"
    )
    # Parts the dash count lets through are still counted: nested multiparts, 70 leaves.
    leaves = b"".join(b"--c\nContent-Type: text/plain\n\nhi\n" for _ in range(70))
    nested = (
        b"From: ann@club.test\nContent-Type: multipart/mixed; boundary=c\n\n" + leaves + b"--c--\n"
    )
    assert "MIME parts" in parse_mail(nested, "n").refused
    # A mail of a few parts (text, html, an attachment) is read as before.
    ordinary = Outgoing("judge@club.test", "move", "see attached", (("move.msgpack", b"x"),))
    read = parse_mail(compose(ordinary, "ann@club.test").as_bytes(), "o")
    assert read.refused == "" and read.moves == (b"x",)


def test_refusals_go_to_players_only(judge, tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for n in range(200):  # junk from outside addresses, some with a player's name in Reply-To
        reply = "" if n % 2 else "Reply-To: someone@outside.test\n"
        raw = f"From: spam{n}@outside.test\n{reply}Subject: hello {n}\n\nbuy now {n}\n"
        (inbox / f"junk-{n:04d}.eml").write_text(raw)
    (inbox / "zz-player.eml").write_text("From: Ann <ANN@Club.Test>\nSubject: hi\n\nhello\n")
    forged = "From: ben@club.test\nReply-To: victim@outside.test\nSubject: x\n\nhello\n"
    (inbox / "zz-forged.eml").write_text(forged)
    counts = serve_once(judge, DirectoryInbox(inbox), DirectoryOutbox(tmp_path / "out"))
    assert counts == {"accepted": 0, "refused": 202, "duplicate": 0}
    answers = _answers(tmp_path / "out")
    assert list(answers) == ["ann@club.test"]  # one answer, to the player; none outside
    assert answers["ann@club.test"][0].text.startswith("refused: the mail holds no request")
    # Every message is still answered once (in the store), so none is judged again.
    assert serve_once(judge, DirectoryInbox(inbox), DirectoryOutbox(tmp_path / "out")) == {
        "accepted": 0,
        "refused": 0,
        "duplicate": 0,
    }


def test_imap_reads_a_large_mail_by_its_size_and_header_only(judge, imap_server, tmp_path):
    imap_server.deliver("judge", _big("ben@club.test", 1))
    small = Outgoing("judge@club.test", "hello", "no request here")
    imap_server.deliver("judge", compose(small, "ann@club.test").as_bytes())
    inbox = imap_server.inbox("judge")
    big, ordinary = inbox.fetch()
    assert big.sender == "ben@club.test" and big.subject == "my move 1" and big.moves == ()
    assert big.refused.startswith("the mail is 11,")
    assert ordinary.refused == "" and ordinary.text.startswith("no request here")
    counts = serve_once(judge, inbox, DirectoryOutbox(tmp_path / "out"))
    assert counts == {"accepted": 0, "refused": 2, "duplicate": 0}
    assert inbox.fetch() == []
    inbox.close()
    assert sorted(_answers(tmp_path / "out")) == ["ann@club.test", "ben@club.test"]
