"""A digest's picture is drawn when its mail is sent, not when its request is judged.

Judging a request queues each reply with the table's SVG (in the request's transaction: all a
crash needs to send it again); ``send_queued`` draws the PNG from it (``_digest.drawn``), puts
it inline before the SVG and says so in the text.  A picture that would not draw costs the mail
its PNG and nothing else.
"""

from __future__ import annotations

import email
import email.policy
import os

import attrs
import msgpack
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import boardstate as bs
from boardstate._fileformat import encode_public, parse_raw
from boardstate.judge import Judge, Mail, Outgoing, open_store, send_queued
from boardstate.judge import _digest as digests
from boardstate.judge._outboxes import DirectoryOutbox

PLAYERS = [("ann", "ann@x.org"), ("ben", "ben@x.org")]


def _public(key) -> bytes:
    raw = serialization.Encoding.Raw, serialization.PublicFormat.Raw
    return key.public_key().public_bytes(*raw)


@pytest.fixture
def joined(tmp_path, monkeypatch):
    """A two-player Jedi Duel whose players have joined (their digests queued, not sent),
    and how many PNGs were drawn meanwhile."""
    drawings: list[int] = []
    real = digests.svg_to_png
    monkeypatch.setattr(digests, "svg_to_png", lambda svg: (drawings.append(1), real(svg))[1])
    judge = Judge(open_store(str(tmp_path / "judge.sqlite")), Ed25519PrivateKey.generate())
    game_id = judge.create("jedi-duel", PLAYERS, seed=b"pictures", secret=bytes(32))
    invite = encode_public(judge.game(game_id))
    for seat, (_, address) in enumerate(PLAYERS):
        copy = bs.load_game(parse_raw(invite, "invite"))
        copy.header = attrs.evolve(copy.header, viewer=seat, peer_secret=os.urandom(32))
        key = Ed25519PrivateKey.generate()
        copy.signer = key.sign
        data = copy.join_request(seat, _public(key)).encode()
        mail = Mail(str(seat), os.urandom(32), address, "", "", (data,))
        assert judge.handle(mail) == "accepted"
    yield judge, drawings
    judge.store.close()


def _sent(tmp_path) -> list:
    """Every digest written into the outbox folder, parsed."""
    return [
        email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        for path in sorted((tmp_path / "out").rglob("*.eml"))
        if "invited" not in path.name
    ]


def test_judging_queues_the_svg_and_sending_draws_the_png(joined, tmp_path):
    judge, drawings = joined
    digests_queued = [m for _, m in judge.store.outbox() if m.kind == "digest"]
    assert digests_queued and drawings == []  # (judged and committed: nothing drawn)
    for queued in digests_queued:
        names = [name for name, _ in queued.attachments]
        assert queued.picture and names[-1] == f"{queued.picture}.svg"
        assert not any(name.endswith(".png") for name in names)
        assert "The table as a picture" not in queued.text
    send_queued(judge.store, DirectoryOutbox(tmp_path / "out", "judge@x.org"))
    assert len(drawings) == len(digests_queued) and judge.store.outbox() == []
    sent = _sent(tmp_path)
    assert len(sent) == len(digests_queued)
    for msg in sent:
        parts = list(msg.walk())
        types = [p.get_content_type() for p in parts if p.get_filename()]
        assert types[-2:] == ["image/png", "image/svg+xml"]  # (the PNG, then its SVG)
        (png,) = [p for p in parts if p.get_content_type() == "image/png"]
        assert png.get_content_disposition() == "inline"
        assert png.get_content().startswith(b"\x89PNG\r\n\x1a\n")
        text = msg.get_body(("plain",)).get_content()
        stem = png.get_filename()[:-4]
        assert text.endswith(
            f"\n\nThe table as a picture: {stem}.png (shown in this mail) and {stem}.svg.\n"
        )


def test_a_picture_that_will_not_draw_costs_the_mail_its_png_only(joined, tmp_path, monkeypatch):
    judge, _ = joined

    def broken(svg: str) -> bytes:
        raise ValueError("no such font")

    monkeypatch.setattr(digests, "svg_to_png", broken)
    queued = len(judge.store.outbox())
    assert sum(send_queued(judge.store, DirectoryOutbox(tmp_path / "out", "judge@x.org")).values())
    assert judge.store.outbox() == [] and queued  # (sent all the same, and noted sent)
    for msg in _sent(tmp_path):
        files = [p.get_filename() for p in msg.walk() if p.get_filename()]
        assert files[-1].endswith(".svg") and not any(f.endswith(".png") for f in files)
        text = msg.get_body(("plain",)).get_content()
        assert text.endswith(
            "(No picture in the mail: the table's SVG would not convert to PNG: "
            f"ValueError: no such font; it is attached as {files[-1]}.)\n"
        )


def test_a_mail_with_no_picture_to_draw_is_sent_as_queued():
    plain = Outgoing("ann@x.org", "hello", "text\n", (("m.msgpack", b"\x93"),), "moves")
    assert digests.drawn(plain) is plain


def test_a_mail_queued_before_pictures_were_drawn_when_sent_is_read_with_none_to_draw():
    from boardstate.judge._store import _pack, _unpack

    queued = Outgoing("ann@x.org", "hi", "text\n", (("t.png", b"\x89PNG"),), "digest", "t")
    assert _unpack(_pack(queued)) == queued
    older = msgpack.packb(["ann@x.org", "hi", "text\n", [["t.png", b"\x89PNG"]], "digest"])
    read = _unpack(older)  # (a judge before this one queued its PNG already drawn)
    assert read.picture == "" and digests.drawn(read) is read
