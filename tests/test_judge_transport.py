"""The judge's mail transports, against real servers on the loopback address.

SMTP is aiosmtpd delivering into Maildirs (tests/mail_server.py), IMAP is Dovecot (skipped,
saying why, where it is not installed).  Move files are arbitrary bytes here: the transports
carry them and never read them, and bytes such as ``\\r\\n.`` or NUL are the ones a careless
mail path would damage.
"""

from __future__ import annotations

import email
import email.policy
import os
from email.message import EmailMessage

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardstate._armor import armor, dearmor, is_armored
from boardstate._errors import CorruptFile
from boardstate.judge import _outboxes
from boardstate.judge._inboxes import DirectoryInbox, ImapInbox, MaildirInbox
from boardstate.judge._mime import MOVE_TYPE, compose, parse_mail
from boardstate.judge._outboxes import DirectoryOutbox
from boardstate.judge._transport import open_inbox, open_outbox
from boardstate.judge._transport_error import TransportError
from boardstate.judge._types import Outgoing

pytest_plugins = ["mail_server"]  # the fixtures mail_system and imap_server

JUDGE = "judge@example.org"
BOB = "bob@example.org"
MOVE_A = b"\x93\x01\x02\x03 first move\r\n.\r\n\x00\xff" * 20
MOVE_B = bytes(range(256)) * 3
MOVE_C = b"\x81\xa4seat\x01 the armored one"


def outgoing(subject="Duel 26654233: your move", to=BOB) -> Outgoing:
    text = "Alice moved.  Her move is attached, and here it is as text:\n\n"
    text += armor(MOVE_C, "duel-of-the-forces 26654233cc12, records 4-4: alice attacks")
    return Outgoing(to, subject, text, (("alice-4.msgpack", MOVE_A), ("alice-5.msgpack", MOVE_B)))


def assert_carries_the_moves(mail) -> None:
    """The body comes before the attachments in the message, so its armored move first."""
    armored, *attached = mail.moves
    assert is_armored(armored) and dearmor(armored, "mail") == MOVE_C
    assert attached == [MOVE_A, MOVE_B]


def one_line(error: Exception) -> str:
    text = str(error)
    assert "\n" not in text and "\r" not in text
    return text


# -- SMTP into Maildirs ---------------------------------------------------------------------


def test_smtp_to_maildir_round_trip(mail_system):
    outbox = open_outbox(mail_system.smtp_url, f"Boardstate Judge <{JUDGE}>")
    outbox.send(outgoing("first"))
    outbox.send(outgoing("second"))
    outbox.close()
    assert len(mail_system.connections) == 1  # one connection for both

    inbox = mail_system.inbox(BOB)
    first, second = inbox.fetch()
    assert (first.subject, second.subject) == ("first", "second")
    assert first.sender == JUDGE
    assert first.key and first.digest != second.digest
    assert "Alice moved." in first.text
    assert_carries_the_moves(first)
    assert_carries_the_moves(second)

    assert [m.key for m in inbox.fetch()] == [first.key, second.key]  # fetch marks nothing
    inbox.done(first)
    inbox.done(first)  # idempotent
    assert [m.subject for m in inbox.fetch()] == ["second"]
    assert [m.subject for m in MaildirInbox(mail_system.maildir(BOB)).fetch()] == ["second"]
    inbox.done(second)
    assert MaildirInbox(mail_system.maildir(BOB)).fetch() == []
    marked = sorted(os.listdir(mail_system.maildir(BOB) / "cur"))
    assert marked == sorted(f"{m.key}:2,S" for m in (first, second))
    assert os.listdir(mail_system.maildir(BOB) / "new") == []


def test_maildir_keeps_other_flags_and_skips_seen_mail(tmp_path):
    inbox = MaildirInbox(tmp_path / "box")
    for name in ("1.a.host:2,F", "2.b.host:2,RS", ".hidden"):
        (tmp_path / "box" / "cur" / name).write_bytes(b"Subject: x\n\nhello\n")
    (mail,) = inbox.fetch()
    assert mail.key == "1.a.host"
    inbox.done(mail)
    assert sorted(os.listdir(tmp_path / "box" / "cur")) == [
        ".hidden",
        "1.a.host:2,FS",
        "2.b.host:2,RS",
    ]
    assert inbox.fetch() == []


def test_smtp_reconnects_after_the_server_restarts(mail_system):
    outbox = open_outbox(mail_system.smtp_url, JUDGE)
    outbox.send(outgoing("before"))
    mail_system.restart()
    outbox.send(outgoing("after"))  # the kept connection is dead: a new one
    outbox.close()
    assert len(mail_system.connections) == 2
    assert [m.subject for m in mail_system.inbox(BOB).fetch()] == ["before", "after"]


def test_smtp_errors_are_one_line(mail_system):
    mail_system.stop()
    outbox = open_outbox(mail_system.smtp_url, JUDGE)
    with pytest.raises(TransportError) as caught:
        outbox.send(outgoing())
    assert "cannot send to bob@example.org" in one_line(caught.value)
    assert caught.value.code == "transport"


# -- parse_mail -----------------------------------------------------------------------------


def message(text: str, **headers) -> bytes:
    msg = EmailMessage()
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(text)
    return msg.as_bytes()


def test_an_armored_move_in_a_quoted_reply():
    block = armor(MOVE_C, "a long summary line " * 6)  # longer than 78: quoted-printable
    quoted = "".join(f"> {line}\n" for line in block.splitlines())
    text = f"Here you go.\n\nOn Monday, judge wrote:\n> Your move, Bob.\n>\n{quoted}> \n> bye\n"
    mail = parse_mail(message(text, From=f"Bob <{BOB}>", Subject="Re: your move"), "k")
    (move,) = mail.moves
    assert move.decode().startswith("-----BEGIN") and move.decode().endswith("MOVE-----")
    assert dearmor(move, "reply") == MOVE_C
    assert (mail.sender, mail.subject, mail.key) == (BOB, "Re: your move", "k")


def test_two_blocks_and_a_broken_one_in_order():
    one, two = armor(b"one", "first"), armor(b"two", "second")
    broken = armor(b"three", "cut").split("Check:")[0]  # no Check and no END line
    mail = parse_mail(message(f"{one}\ntext\n{broken}\n{two}\nthanks"), "k")
    assert len(mail.moves) == 3
    assert dearmor(mail.moves[0], "m") == b"one"
    assert dearmor(mail.moves[2], "m") == b"two"
    with pytest.raises(CorruptFile, match="without its END"):
        dearmor(mail.moves[1], "m")  # kept, so that the sender hears what went wrong


def test_a_mail_without_moves_and_one_without_from():
    plain = parse_mail(message("just chatting", From=BOB, Subject="hi"), "k")
    assert plain.moves == () and plain.text.strip() == "just chatting"
    anonymous = parse_mail(message("hello", Subject="no sender"), "k")
    assert anonymous.sender == "" and anonymous.subject == "no sender"
    replying = parse_mail(message("x", From=BOB, Reply_To="Games <games@example.org>"), "k")
    assert replying.sender == "games@example.org"


def test_attachments_by_filename_or_type():
    msg = EmailMessage()
    msg["From"] = BOB
    msg.set_content("see attached")
    msg.add_attachment(b"by type", maintype="application", subtype="x-msgpack")
    msg.add_attachment(b"by name", maintype="image", subtype="png", filename="move.png")
    msg.add_attachment(b"inline octets", maintype="application", subtype="octet-stream")
    part = EmailMessage()
    part.set_content("an attached text file")
    part.add_header("Content-Disposition", "attachment")
    msg.attach(part)
    mail = parse_mail(msg.as_bytes().replace(b"\n", b"\r\n"), "k")
    *binary, attached_text = mail.moves  # a text part as sent: CRLF line ends
    assert binary == [b"by type", b"by name", b"inline octets"]
    assert attached_text == b"an attached text file\r\n"
    assert mail.text == "see attached\n"


def test_a_latin1_body_is_decoded():
    raw = b"From: x@y\nContent-Type: text/plain; charset=latin-1\n\nd\xe9j\xe0 vu\n"
    assert parse_mail(raw, "k").text == "d\xe9j\xe0 vu\n"
    raw = raw.replace(b"latin-1", b"no-such-charset")
    assert "vu" in parse_mail(raw, "k").text


def test_garbage_is_a_mail_without_moves():
    for raw in (
        b"",
        b"\x00\xff\xfe garbage \x80",
        b"Content-Type: multipart/mixed\n\n--",
        os.urandom(500),
    ):
        mail = parse_mail(raw, "k")
        assert mail.moves == () and mail.sender == ""


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=400) | st.text(max_size=400).map(str.encode))
def test_parse_mail_never_raises(raw):
    mail = parse_mail(b"From: a@b\nContent-Type: multipart/mixed; boundary=x\n\n--x\n" + raw, "k")
    assert isinstance(mail.moves, tuple)


def test_compose_headers_and_attachments():
    msg = compose(
        outgoing("a subject\r\nBcc: everyone@example.org"),
        JUDGE,
        reply_to="games@example.org",
        in_reply_to="<m1@example.org>",
    )
    assert msg["Subject"] == "a subject Bcc: everyone@example.org"  # folded, not a header
    assert msg["Bcc"] is None
    assert msg["Date"] and msg["Message-ID"].endswith("@example.org>")
    assert (msg["Reply-To"], msg["In-Reply-To"]) == ("games@example.org", "<m1@example.org>")
    parts = [p for p in msg.iter_attachments()]
    assert [(p.get_content_type(), p.get_filename()) for p in parts] == [
        (MOVE_TYPE, "alice-4.msgpack"),
        (MOVE_TYPE, "alice-5.msgpack"),
    ]
    reparsed = email.message_from_bytes(msg.as_bytes(), policy=email.policy.default)
    assert reparsed["To"] == BOB
    with pytest.raises(TransportError):
        compose(Outgoing("bob@example.org\nBcc: x@y", "s", "t"), JUDGE)


# -- plain folders --------------------------------------------------------------------------


def test_directory_outbox_then_inbox(tmp_path):
    outbox = open_outbox(f"dir:{tmp_path / 'out'}", JUDGE)
    outbox.send(outgoing("Duel 1: your move"))
    outbox.send(outgoing("Duel 1: again"))
    folder = tmp_path / "out" / BOB
    assert sorted(os.listdir(folder)) == [
        "0001-Duel_1_your_move.eml",
        "0001-alice-4.msgpack",
        "0001-alice-5.msgpack",
        "0002-Duel_1_again.eml",
        "0002-alice-4.msgpack",
        "0002-alice-5.msgpack",
    ]
    assert (folder / "0002-alice-5.msgpack").read_bytes() == MOVE_B

    drop = tmp_path / "in"
    inbox = open_inbox(f"dir:{drop}")
    (drop / "alice@example.org--move.msgpack").write_bytes(MOVE_A)
    (drop / "reply.eml").write_bytes((folder / "0001-Duel_1_your_move.eml").read_bytes())
    (drop / "pasted.txt").write_text("Bob's move:\n" + armor(MOVE_C, "bob"))
    for name in (".pasted.txt.part", "notes.pdf", "README"):
        (drop / name).write_bytes(b"ignored")
    os.mkdir(drop / "sub.eml")
    for age, name in enumerate(("pasted.txt", "reply.eml", "alice@example.org--move.msgpack")):
        os.utime(drop / name, ns=(10**18, 10**18 + age))

    pasted, reply, dropped = inbox.fetch()
    assert (dropped.key, dropped.sender, dropped.moves) == (
        "alice@example.org--move.msgpack",
        "alice@example.org",
        (MOVE_A,),
    )
    assert pasted.sender == "" and dearmor(pasted.moves[0], "t") == MOVE_C
    assert reply.sender == JUDGE and reply.subject == "Duel 1: your move"
    assert_carries_the_moves(reply)

    inbox.done(reply)
    inbox.done(reply)
    assert [m.key for m in DirectoryInbox(drop).fetch()] == [pasted.key, dropped.key]
    (drop / "reply.eml").write_bytes(b"dropped again")
    inbox.done(reply)
    assert sorted(os.listdir(drop / "done")) == ["reply.eml", "reply.eml.1"]


def test_directory_outbox_leaves_no_partial_file(tmp_path, monkeypatch):
    outbox = DirectoryOutbox(tmp_path, JUDGE)
    outbox.send(outgoing("one"))
    calls = []

    def failing_fsync(fd):
        calls.append(fd)
        if len(calls) == 2:  # the second attachment: the disk is full
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(_outboxes.os, "fsync", failing_fsync)
    with pytest.raises(TransportError, match="No space left"):
        outbox.send(outgoing("two"))
    monkeypatch.undo()
    # no temporary file left, no second message visible; its first attachment is whole
    assert sorted(os.listdir(tmp_path / BOB)) == [
        "0001-alice-4.msgpack",
        "0001-alice-5.msgpack",
        "0001-one.eml",
        "0002-alice-4.msgpack",
    ]
    assert (tmp_path / BOB / "0002-alice-4.msgpack").read_bytes() == MOVE_A
    outbox.send(outgoing("three"))  # numbering goes on past the failed one
    assert (tmp_path / BOB / "0003-three.eml").exists()


# -- IMAP (Dovecot) -------------------------------------------------------------------------


def test_imap_fetches_unseen_and_marks_done(imap_server):
    for subject in ("first", "second"):
        imap_server.deliver(BOB, compose(outgoing(subject), JUDGE).as_bytes())
    inbox = open_inbox(imap_server.url(BOB))
    assert isinstance(inbox, ImapInbox)
    first, second = inbox.fetch()
    assert (first.subject, second.subject) == ("first", "second")
    assert first.sender == JUDGE
    assert_carries_the_moves(first)
    assert [m.key for m in inbox.fetch()] == [first.key, second.key]  # BODY.PEEK: still unseen

    inbox.done(first)
    inbox.done(first)
    assert [m.subject for m in inbox.fetch()] == ["second"]
    inbox.close()
    restarted = imap_server.inbox(BOB)
    assert [m.subject for m in restarted.fetch()] == ["second"]
    restarted.done(second)
    assert restarted.fetch() == []
    restarted.close()

    conn = imap_server.client(BOB)
    typ, data = conn.uid("FETCH", "1:*", "(FLAGS)")
    conn.logout()
    assert typ == "OK" and all(b"\\Seen" in line for line in data)


def test_imap_bad_password_is_one_line_without_it(imap_server):
    inbox = ImapInbox("127.0.0.1", imap_server.port, BOB, "wrong-password", ssl=False, timeout=10)
    with pytest.raises(TransportError) as caught:
        inbox.fetch()
    assert "wrong-password" not in one_line(caught.value)


# -- URLs -----------------------------------------------------------------------------------


def test_urls(tmp_path):
    assert open_inbox(f"maildir:{tmp_path}/box").path == tmp_path / "box"
    assert (tmp_path / "box" / "new").is_dir()
    assert open_inbox(f"maildir://{tmp_path}/box2").path == tmp_path / "box2"
    assert isinstance(open_inbox(f"dir:{tmp_path}/drop"), DirectoryInbox)

    imap = open_inbox("imaps://bob%40example.org:p%40ss@mail.example.org/Games%20In")
    assert (imap.host, imap.port, imap.user, imap._password) == (
        "mail.example.org",
        993,
        BOB,
        "p@ss",
    )
    assert (imap.folder, imap.ssl, imap.starttls) == ("Games In", True, False)
    imap = open_inbox("imap://bob@example.org:pw@localhost:1143?starttls=1")
    assert (imap.user, imap.port, imap.folder, imap.ssl, imap.starttls) == (
        BOB,
        1143,
        "INBOX",
        False,
        True,
    )

    smtp = open_outbox("smtp://relay.example.org:2525?starttls=1", JUDGE)
    assert (smtp.host, smtp.port, smtp.user, smtp.starttls, smtp.ssl) == (
        "relay.example.org",
        2525,
        None,
        True,
        False,
    )
    smtp = open_outbox("smtps://judge:secret@relay.example.org", JUDGE)
    assert (smtp.port, smtp.user, smtp._password, smtp.ssl, smtp.sender) == (
        465,
        "judge",
        "secret",
        True,
        JUDGE,
    )
    assert open_outbox(f"dir:{tmp_path}/out", JUDGE).sender == JUDGE


BAD_INBOXES = [
    "",
    "ftp://example.org",
    "maildir:",
    "dir:",
    "imap://mail.example.org/INBOX",  # no user and password
    "imap://judge:secret@/INBOX",
    "imaps://judge:secret@mail.example.org:99999/INBOX",
    "imaps://judge:secret@mail.example.org:port/INBOX",
    "imap://judge:secret@mail.example.org/INBOX?tls=1",
    "smtp://judge:secret@relay.example.org",  # an outbox
]
BAD_OUTBOXES = [
    "",
    "maildir:/tmp/box",  # an inbox
    "dir:",
    "smtp://judge:secret@relay.example.org?tls=1",
    "smtp://judge:secret@relay.example.org?starttls=yes",
    "smtp://judge:secret@relay.example.org/path",
    "smtps://judge:secret@relay.example.org:0x19",
]


@pytest.mark.parametrize("url", BAD_INBOXES)
def test_bad_inbox_urls(url):
    with pytest.raises(TransportError) as caught:
        open_inbox(url)
    assert "secret" not in one_line(caught.value)


@pytest.mark.parametrize("url", BAD_OUTBOXES)
def test_bad_outbox_urls(url):
    with pytest.raises(TransportError) as caught:
        open_outbox(url, JUDGE)
    assert "secret" not in one_line(caught.value)
