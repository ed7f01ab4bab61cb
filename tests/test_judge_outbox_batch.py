"""The judge's queue sent with one sync: ``send_queued`` gives a folder outbox every queued mail
at once (``DirectoryOutbox.send_all``: one ``syncfs`` for all their files) and notes them sent
in one transaction (``Store.sent_together``).  A judge stopped after writing them and before the
store noted them sent writes them again over themselves at its next start: no mail twice."""

from __future__ import annotations

import os

import pytest
from pg_server import fresh_postgres_url, postgres_url  # noqa: F401  (fixtures used by name)

from boardstate.judge import _outboxes, open_store, send_queued
from boardstate.judge._outboxes import DirectoryOutbox
from boardstate.judge._store import StoreError
from boardstate.judge._transport_error import TransportError
from boardstate.judge._types import Outgoing

JUDGE = "judge@example.org"


def mail(to: str, subject: str, move: bytes = b"\x93move") -> Outgoing:
    return Outgoing(to, subject, f"{subject}\n", (("m.msgpack", move),), "moves")


def queue(store, *mails: Outgoing) -> None:
    store.answer(os.urandom(32), list(mails))


def listing(top) -> dict[str, list[str]]:
    return {d.name: sorted(os.listdir(d)) for d in sorted(top.iterdir()) if d.is_dir()}


@pytest.fixture
def store(tmp_path):
    with open_store(f"sqlite:{tmp_path / 'judge.sqlite'}") as opened:
        yield opened


def counting_syncs(monkeypatch) -> list[int]:
    calls: list[int] = []
    real = _outboxes._syncfs()

    def syncfs(fd: int) -> int:
        calls.append(fd)
        return real(fd) if real is not None else 0

    fsync = os.fsync
    monkeypatch.setattr(_outboxes, "_syncfs", lambda: syncfs)
    monkeypatch.setattr(_outboxes.os, "fsync", lambda fd: (calls.append(fd), fsync(fd))[1])
    return calls


def test_the_queue_is_written_with_one_sync_and_noted_sent_in_one_transaction(
    store, tmp_path, monkeypatch
):
    queue(store, mail("ann@x.org", "one"), mail("ben@x.org", "two"), mail("ann@x.org", "three"))
    outbox = DirectoryOutbox(tmp_path / "out", JUDGE)
    syncs = counting_syncs(monkeypatch)
    assert send_queued(store, outbox) == {"moves": 3}
    assert len(syncs) == 1  # (one syncfs, not a fsync per file)
    assert store.outbox() == []
    assert listing(tmp_path / "out") == {
        "ann@x.org": ["0001-m.msgpack", "0001-one.eml", "0002-m.msgpack", "0002-three.eml"],
        "ben@x.org": ["0001-m.msgpack", "0001-two.eml"],
    }
    assert send_queued(store, outbox) == {} and len(syncs) == 1  # (nothing left: no sync)


def test_without_syncfs_each_file_and_folder_is_synced(store, tmp_path, monkeypatch):
    queue(store, mail("ann@x.org", "one"), mail("ben@x.org", "two"))
    syncs = counting_syncs(monkeypatch)
    monkeypatch.setattr(_outboxes, "_syncfs", lambda: None)
    send_queued(store, DirectoryOutbox(tmp_path / "out", JUDGE))
    assert len(syncs) == 4 + 1 + 3  # four files, .keys, and their three folders


def test_a_mail_sent_again_after_a_crash_is_written_over_itself(store, tmp_path, monkeypatch):
    queue(store, mail("ann@x.org", "one"), mail("ann@x.org", "two"))
    outbox = DirectoryOutbox(tmp_path / "out", JUDGE)

    def killed(mail_ids, *, durable=True):  # the judge dies before the store notes them sent
        raise KeyboardInterrupt

    monkeypatch.setattr(store, "sent_together", killed)
    with pytest.raises(KeyboardInterrupt):
        send_queued(store, outbox)
    monkeypatch.undo()
    (tmp_path / "out" / "ann@x.org" / "0002-two.eml").write_bytes(b"torn")  # (a power cut)
    queue(store, mail("ann@x.org", "three"))
    restarted = DirectoryOutbox(tmp_path / "out", JUDGE)  # (a new process: .keys is read)
    assert send_queued(store, restarted) == {"moves": 3}
    folder = tmp_path / "out" / "ann@x.org"
    assert sorted(os.listdir(folder)) == [
        "0001-m.msgpack",
        "0001-one.eml",
        "0002-m.msgpack",
        "0002-two.eml",
        "0003-m.msgpack",
        "0003-three.eml",
    ]
    written = (folder / "0002-two.eml").read_bytes()
    assert written != b"torn" and b"Subject: two" in written


def test_another_stores_mail_of_the_same_number_is_another_mail(tmp_path):
    outbox = DirectoryOutbox(tmp_path / "out", JUDGE)
    for n in range(2):
        with open_store(f"sqlite:{tmp_path / f'store{n}.sqlite'}") as store:
            queue(store, mail("ann@x.org", f"game {n}"))
            send_queued(store, outbox)
    assert listing(tmp_path / "out") == {
        "ann@x.org": ["0001-game_0.eml", "0001-m.msgpack", "0002-game_1.eml", "0002-m.msgpack"]
    }


def test_a_torn_line_of_keys_is_skipped(tmp_path):
    outbox = DirectoryOutbox(tmp_path / "out", JUDGE)
    outbox.send_all([("k1", mail("ann@x.org", "one"))])
    with open(tmp_path / "out" / ".keys", "ab") as keys:
        keys.write(b"\nk2\tann@x")  # (a crash mid-line)
    fresh = DirectoryOutbox(tmp_path / "out", JUDGE)
    fresh.send_all([("k2", mail("ann@x.org", "two")), ("k1", mail("ann@x.org", "one"))])
    assert sorted(os.listdir(tmp_path / "out" / "ann@x.org")) == [
        "0001-m.msgpack",
        "0001-one.eml",
        "0002-m.msgpack",
        "0002-two.eml",
    ]


def test_a_failed_write_leaves_no_partial_file_and_nothing_noted_sent(store, tmp_path, monkeypatch):
    queue(store, mail("ann@x.org", "one"), mail("ann@x.org", "two"))
    outbox = DirectoryOutbox(tmp_path / "out", JUDGE)
    real, writes = _outboxes.os.replace, []

    def full_disk(source, target):
        writes.append(target)
        if len(writes) == 3:  # the second mail's attachment
            raise OSError(28, "No space left on device")
        real(source, target)

    monkeypatch.setattr(_outboxes.os, "replace", full_disk)
    with pytest.raises(TransportError, match="No space left"):
        send_queued(store, outbox)
    monkeypatch.undo()
    folder = tmp_path / "out" / "ann@x.org"
    assert sorted(os.listdir(folder)) == ["0001-m.msgpack", "0001-one.eml"]  # (no .tmp left)
    assert len(store.outbox()) == 2
    assert send_queued(store, outbox) == {"moves": 2}  # (the first over itself, no third)
    assert sorted(os.listdir(folder)) == [
        "0001-m.msgpack",
        "0001-one.eml",
        "0002-m.msgpack",
        "0002-two.eml",
    ]


def test_a_number_noted_for_a_mail_whose_files_never_appeared_stays_its_own(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / ".keys").write_bytes(b"\nk9\tann@x.org\t0001\n")  # (then a crash)
    outbox = DirectoryOutbox(tmp_path / "out", JUDGE)
    outbox.send_all([("k1", mail("ann@x.org", "other"))])
    outbox.send(mail("ann@x.org", "alone"))
    outbox.send_all([("k9", mail("ann@x.org", "noted"))])
    assert sorted(os.listdir(tmp_path / "out" / "ann@x.org")) == [
        "0001-m.msgpack",
        "0001-noted.eml",
        "0002-m.msgpack",
        "0002-other.eml",
        "0003-alone.eml",
        "0003-m.msgpack",
    ]


@pytest.fixture(params=["sqlite", "postgres"])
def either_store(request, tmp_path):
    if request.param == "sqlite":
        where = f"sqlite:{tmp_path / 'judge.sqlite'}"
    else:
        where = request.getfixturevalue("fresh_postgres_url")
    with open_store(where) as opened:
        yield opened


def test_sent_together_refuses_an_unknown_mail_and_marks_nothing(either_store):
    store = either_store
    queue(store, mail("ann@x.org", "one"))
    ((mail_id, _),) = store.outbox()
    with pytest.raises(StoreError, match=f"no mail {mail_id + 1} in the outbox"):
        store.sent_together([mail_id, mail_id + 1], durable=False)
    assert store.still_unsent([mail_id, mail_id + 1]) == {mail_id}
    store.sent_together([mail_id, mail_id], durable=False)  # (twice in a list: once)
    assert store.outbox() == [] and store.still_unsent([mail_id]) == set()
    with store._tx(write=False) as tx:  # (the connection is back to synced commits)
        if store._qmark:
            assert tx.one("PRAGMA synchronous")[0] == 2
        else:
            assert tx.one("SHOW synchronous_commit")[0] == "on"
