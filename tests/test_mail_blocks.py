"""Every move of a mail (issue 26, item 4): ``apply`` and ``inspect`` read each armored block of
a mail's text or of a saved mail, quoted or not, and several move files at once; the moves are
refereed in the order of their records (not of the mail), a move already in the game is
skipped, a refused one is listed with its reason and taken back before the next is refereed.
"""

from __future__ import annotations

import json
from email.message import EmailMessage

import msgpack
import pytest
from click.testing import CliRunner

import boardstate as bs
from boardstate._armor import dearmor
from boardstate.cli import cli


def run(*args) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def ok(*args) -> str:
    rc, out, err = run(*args)
    assert rc == 0, out + err
    return out


def applies(*inputs, said=()) -> str:
    """``apply bob.msgpack INPUTS``: accepted, each line of ``said`` in what it prints, and
    bob's copy then holds what alice's does."""
    rc, out, err = run("apply", "bob.msgpack", *inputs)
    assert rc == 0, out + err
    for line in said:
        assert line in out, out
    assert hashes("bob.msgpack") == hashes("alice.msgpack")
    return out


def quoted(text: str, depth: int = 1, mark: str = "> ") -> str:
    """``text`` as a mail program quotes it in a reply (``depth`` replies later)."""
    return "".join(mark * depth + line + "\n" for line in text.splitlines())


def hashes(path) -> list[bytes]:
    return [r.hash for r in bs.load_game(path).records]


def forged(armored: str, record: int = -1) -> str:
    """The armored move again, with one record's hash changed (its armor intact): the move
    reads, and the referee refuses it at that record, after the records before it."""
    unpacker = msgpack.Unpacker(raw=False, use_list=False, strict_map_key=False)
    unpacker.feed(dearmor(armored, "move"))
    header, *rows = list(unpacker)
    row = list(rows[record])
    row[1] = bytes([row[1][0] ^ 1]) + row[1][1:]
    rows[record] = row
    data = b"".join(msgpack.packb(item, use_bin_type=True) for item in [header, *rows])
    return bs.armor(data, "a forged move")


@pytest.fixture
def duel(tmp_path, monkeypatch):
    """Duel of the Forces by mail, open mode: alice's reveal of round 1 (m3.txt, records 2-4)
    and her bid for round 2 (m4.txt, record 5) are written, not yet applied by bob (record 3)."""
    monkeypatch.chdir(tmp_path)
    ok("new", "duel-of-the-forces", "--player", "alice", "--player", "bob", "--seed", "mail-4",
       "-o", "alice.msgpack")  # fmt: skip
    (tmp_path / "bob.msgpack").write_bytes((tmp_path / "alice.msgpack").read_bytes())
    ok("move", "alice.msgpack", "--as", "alice", "play", "luke", "5", "-o", "m1.msgpack")
    ok("apply", "bob.msgpack", "m1.msgpack")
    ok("move", "bob.msgpack", "--as", "bob", "play", "han", "3", "-o", "m2.txt", "--text")
    ok("apply", "alice.msgpack", "m2.txt", "-o", "m3.txt", "--text")
    ok("move", "alice.msgpack", "--as", "alice", "play", "luke", "4", "-o", "m4.txt", "--text")
    assert bs.load_game("bob.msgpack").last_seq == 3
    return {name: (tmp_path / name).read_text() for name in ("m2.txt", "m3.txt", "m4.txt")}


def test_a_reveal_and_the_next_bid_in_one_mail_both_apply(duel, tmp_path):
    mail = tmp_path / "mail.txt"
    mail.write_text(
        f"Hi Bob,\n\nmy reveal:\n\n{duel['m3.txt']}\nand my next bid:\n\n{duel['m4.txt']}Ann\n"
    )
    said = [
        "mail.txt, block 1 of 2 (records 2-4): applied",
        "mail.txt, block 2 of 2 (record 5): applied",
        "record 4: alice reveals: play luke 5",
        "record 5: alice commits a sealed choice",
    ]
    applies(mail, said=said)
    shown = json.loads(ok("show", "bob.msgpack", "--as", "bob", "--json"))
    assert shown["engine"]["sealed"]["committed"] == ["alice"]  # (round 2: her bid is in)
    # the same mail again: nothing new, each block said so, the game file untouched
    before = (tmp_path / "bob.msgpack").read_bytes()
    rc, out, err = run("apply", "bob.msgpack", mail)
    assert rc == 1 and "[stale]" in err and err.count("\n") == 1, out + err
    assert out.count("skipped: already in this game") == 2
    assert (tmp_path / "bob.msgpack").read_bytes() == before


def test_a_reply_quoting_the_old_block_above_the_new_one(duel, tmp_path):
    ok("apply", "bob.msgpack", "m3.txt")  # (bob had alice's reveal by itself)
    mail = tmp_path / "reply.txt"
    mail.write_text(
        "On Monday, bob wrote:\n"
        + quoted(duel["m2.txt"], 2, ">")  # (his own move, quoted twice: ">>")
        + "> On Monday, Ann wrote:\n"
        + quoted(duel["m3.txt"], 2)  # ("> > ")
        + "\nHere is my bid for round 2:\n\n"
        + duel["m4.txt"]
    )
    said = [
        "reply.txt, block 1 of 3 (records 2-3): skipped: already in this game",
        "reply.txt, block 2 of 3 (records 2-4): skipped: already in this game",
        "reply.txt, block 3 of 3 (record 5): applied",
    ]
    applies(mail, said=said)


def test_a_top_posted_reply_with_its_blocks_below_in_the_reverse_order(duel, tmp_path):
    """The newest block first (the bid, record 5), the one it follows quoted below (records
    2-4): the moves are refereed in the order of their records, not of the mail."""
    mail = tmp_path / "reply.txt"
    mail.write_text(f"My bid:\n\n{duel['m4.txt']}\nOn Monday, Ann wrote:\n{quoted(duel['m3.txt'])}")
    applies(mail, said=["block 1 of 2 (record 5): applied", "block 2 of 2 (records 2-4): applied"])


def test_move_files_in_any_order_apply_as_one(duel, tmp_path):
    (tmp_path / "m3.msgpack").write_bytes(dearmor(duel["m3.txt"], "m3"))  # (binary, 2-4)
    said = [
        "m4.txt (record 5): applied",
        "m3.msgpack (records 2-4): applied",
        "m1.msgpack (record 1): skipped: already in this game",
    ]
    applies("m4.txt", "m3.msgpack", "m1.msgpack", said=said)


def test_a_damaged_block_is_refused_with_its_reason_and_the_rest_applies(duel, tmp_path):
    lines = duel["m4.txt"].splitlines()
    lines[2] = lines[2][:-4] + ("AAAA" if not lines[2].endswith("AAAA") else "BBBB")
    mail = tmp_path / "mail.txt"
    mail.write_text(duel["m3.txt"] + "\n".join(lines) + "\n")
    rc, out, err = run("apply", "bob.msgpack", mail)
    assert rc == 2, out + err  # (unreadable input)
    assert "mail.txt, block 1 of 2 (records 2-4): applied" in out
    assert "mail.txt, block 2 of 2: refused: the armored move's check does not match" in out
    assert "record 4: alice reveals: play luke 5" in out
    assert err.count("\n") == 1 and "mail.txt, block 2 of 2" in err and "does not match" in err
    assert hashes("bob.msgpack") == hashes("alice.msgpack")[:5]  # (the reveal stands)
    assert ok("verify", "bob.msgpack").startswith("ok: 5 records")
    applies("m4.txt")  # mailed again, undamaged


def test_a_move_refused_halfway_is_taken_back_before_the_next(duel, tmp_path):
    """A move whose last record is forged (records 2-4 refereed, then refused at record 5), and
    a move of another game, then the good moves: the forged move's first records are taken
    back (else the good move holding them would be 'already in the game')."""
    ok("export", "alice.msgpack", "--after", "1", "-o", "all.txt", "--text")  # (records 2-5)
    ok("new", "duel-of-the-forces", "--player", "alice", "--player", "bob", "--seed", "other",
       "-o", "other.msgpack")  # fmt: skip
    ok("move", "other.msgpack", "--as", "alice", "play", "luke", "5", "-o", "other.txt", "--text")
    mail = "mail.txt"
    parts = [forged((tmp_path / "all.txt").read_text()), (tmp_path / "other.txt").read_text()]
    (tmp_path / mail).write_text("".join(parts) + duel["m3.txt"] + duel["m4.txt"])
    rc, out, err = run("apply", "bob.msgpack", mail)
    assert rc == 1, out + err  # (refused by verification)
    assert "block 1 of 4 (records 2-5): refused: record 5 by alice: hash chain broken" in out
    assert "block 2 of 4 (record 1): refused:" in out and "another game" in out
    assert "block 3 of 4 (records 2-4): applied" in out
    assert "block 4 of 4 (record 5): applied" in out
    assert err.startswith("boardstate: verification failed: record 5 by alice: mail.txt, block 1")
    assert "(2 of 4 moves refused, each listed above)" in err and err.count("\n") == 1
    assert hashes("bob.msgpack") == hashes("alice.msgpack")
    assert ok("verify", "bob.msgpack").startswith("ok: 6 records")


def test_inspect_lists_every_block_and_writes_nothing(duel, tmp_path):
    mail = tmp_path / "mail.txt"
    mail.write_text(f"{duel['m4.txt']}\n{quoted(duel['m3.txt'])}")
    out = ok("inspect", mail)
    assert "mail.txt, block 1 of 2: move file for duel-of-the-forces" in out
    assert "1 record(s) after record 4" in out and "3 record(s) after record 1" in out
    assert "record 5: seat 0, sealed choice" in out and "record 4: seat 0, reveal" in out
    before = (tmp_path / "bob.msgpack").read_bytes()
    out = ok("inspect", mail, "bob.msgpack")
    assert "block 1 of 2 (record 5): would apply" in out
    assert "block 2 of 2 (records 2-4): would apply" in out
    assert "record 4: alice reveals: play luke 5" in out
    assert "applies cleanly to bob.msgpack" in out
    ok("inspect", "m1.msgpack", mail, "bob.msgpack")  # (several files, the game last)
    assert (tmp_path / "bob.msgpack").read_bytes() == before
    # a damaged block: listed with its reason, the others still shown; exit 2
    (tmp_path / "bad.txt").write_text(duel["m3.txt"].replace("Check: ", "Check: 0"))
    rc, out, err = run("inspect", "bad.txt", mail, "bob.msgpack")
    assert rc == 2 and err.count("\n") == 1 and "bad.txt" in err, out + err
    assert "bad.txt: would be refused: " in out and "block 1 of 2 (record 5): would apply" in out


def test_a_saved_mail_quoted_printable_with_html_and_an_attachment(duel, tmp_path):
    """A mail client's .eml: the text part quoted-printable (the '=' of base64 and the long
    quoted lines are encoded), an HTML copy of it (not read twice), a move file attached."""
    (tmp_path / "m3.msgpack").write_bytes(dearmor(duel["m3.txt"], "m3"))
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "ann@example.org", "bob@example.org", "Re: duel"
    text = f"Grüße, Bob — my bid:\n\n{duel['m4.txt']}\nYou wrote:\n{quoted(duel['m2.txt'])}"
    msg.set_content(text, cte="quoted-printable")
    msg.add_alternative(f"<p>{text.replace(chr(10), '<br>')}</p>", subtype="html")
    data = (tmp_path / "m3.msgpack").read_bytes()
    msg.add_attachment(data, maintype="application", subtype="octet-stream", filename="m3.msgpack")
    raw = bytes(msg)
    assert b"=3D" in raw or b"=\n" in raw  # (the armored text is encoded in the file)
    (tmp_path / "mail.eml").write_bytes(raw)
    said = [
        "mail.eml, block 1 of 3 (record 5): applied",
        "mail.eml, block 2 of 3 (records 2-3): skipped: already in this game",
        "mail.eml, block 3 of 3 (records 2-4): applied",
    ]
    applies("mail.eml", said=said)


def test_a_text_of_several_moves_is_never_read_as_its_first(duel, tmp_path):
    """Every other reader of one move refuses a text of two, rather than read the first."""
    two = (duel["m3.txt"] + duel["m4.txt"]).encode()
    with pytest.raises(bs.GameFileError, match="holds 2 armored moves") as caught:
        bs.parse_raw(two, "mail.txt")
    assert caught.value.code == "several-moves"
    (tmp_path / "two.txt").write_bytes(two)
    with pytest.raises(bs.GameFileError, match="holds 2 armored moves"):
        bs.read_raw(tmp_path / "two.txt")
    read = bs.read_mailed(tmp_path / "two.txt")
    assert [m.raw.header.base_seq for m in read] == [1, 4]


# A peer game: alice's bid (a1) and bob's (b1) cross in the mail; bob's copy merges a1 and
# reveals his bid (b2).  Alice has neither b1 nor b2 yet.
CROSSING_BIDS = """
new duel-of-the-forces --player alice --player bob --as alice -o alice.msgpack
join alice-invite.msgpack --as bob -o bob.msgpack --reply j1
apply alice.msgpack j1 -o j2
apply bob.msgpack j2 -o j3
move alice.msgpack --as alice play luke 2 -o a1.txt --text
move bob.msgpack --as bob play han 3 -o b1.txt --text
apply bob.msgpack a1.txt -o b2.txt --text
"""


def test_a_peer_copy_takes_a_thread_of_crossing_bids_and_signs_its_reveal(tmp_path, monkeypatch):
    """Peer mode: bob's reply (his bid merged with alice's, and his reveal) on top, his first
    bid quoted below, and a forged copy of the reply first: the forged one is taken back (the
    copy read again and its signer set again), the reply applies, alice's own reveal falls due
    and is signed; the copy is the one applying the two mails one by one makes."""
    monkeypatch.setenv("BOARDSTATE_KEYS", str(tmp_path / "keys"))
    monkeypatch.chdir(tmp_path)
    for player in ("alice", "bob"):
        ok("key", "new", player)
    for line in CROSSING_BIDS.strip().splitlines():
        ok(*line.split())
    (tmp_path / "one-by-one.msgpack").write_bytes((tmp_path / "alice.msgpack").read_bytes())
    b1, b2 = (tmp_path / "b1.txt").read_text(), (tmp_path / "b2.txt").read_text()
    (tmp_path / "thread.txt").write_text(f"{forged(b2)}\n{b2}\nOn Monday, bob wrote:\n{quoted(b1)}")
    rc, out, err = run("apply", "alice.msgpack", "thread.txt", "-o", "a2.txt")
    assert rc == 1, out + err
    assert "block 1 of 3 (records 5-7): refused: record 7 by bob 'play han 3': hash chain" in out
    assert "block 2 of 3 (records 5-7): applied" in out
    assert "record 8: alice reveals: play luke 2" in out and (tmp_path / "a2.txt").exists()
    ok("apply", "one-by-one.msgpack", "b1.txt", "-o", "x1")
    ok("apply", "one-by-one.msgpack", "b2.txt", "-o", "x2")
    assert hashes("alice.msgpack") == hashes("one-by-one.msgpack")
    assert ok("verify", "alice.msgpack").startswith("ok: ")
    rc, out, err = run("apply", "bob.msgpack", "a2.txt")  # bob takes her reveal (and may
    alice = hashes("alice.msgpack")  # add his share of the randomness after hers)
    assert rc == 0 and hashes("bob.msgpack")[: len(alice)] == alice, out + err
