"""The engine: pinned randomness, commitments, the file format's defences, the referee."""

from __future__ import annotations

import msgpack
import pytest

import boardstate as bs
from boardstate import encode_game, parse_raw
from boardstate.testing import EventCodes, Kind, Rng, commit, make_record, make_secret, reveal
from boardstate.testing import encode_records as encode_file
from conftest import random_game

DOTF = bs.get_module("duel-of-the-forces")


def test_rng_outputs_are_pinned():
    """These numbers must never change: every game file depends on them."""
    r = Rng(b"boardstate", b"record:1")
    assert r.block().hex() == "eb423135736acae71bd7a70429cb844aa242dd8e55e70f74327cb0803c1d31e4"
    assert [r.randbelow(6) for _ in range(10)] == [3, 1, 2, 0, 2, 1, 4, 3, 4, 2]
    assert r.randbelow(10**30) == 320621580256420532554802479868
    assert r.shuffled(range(10)) == (4, 3, 0, 7, 6, 8, 2, 9, 5, 1)
    assert r.salt().hex() == "2aaed532cb8598d63f458801bfd26e2b"


def test_rng_streams_are_independent_and_uniform():
    a = [Rng(b"s", b"record:1").randbelow(1000) for _ in range(3)]
    assert len(set(a)) == 1  # same stream, same first draw
    assert (
        Rng(b"s", b"record:2").randbelow(1000) != a[0]
        or Rng(b"s", b"record:3").randbelow(1000) != a[0]
    )
    r = Rng(b"s", b"u")
    counts = [0] * 6
    for _ in range(6000):
        counts[r.randbelow(6)] += 1
    assert all(850 < c < 1150 for c in counts)
    with pytest.raises(ValueError):
        r.randbelow(0)


def test_commitment_is_pinned_and_binding():
    assert (
        commit("play luke 5", bytes(16)).hex()
        == "1da5d8a832d4ab5baa73a54a0877800d0c18b8a588ad8acf4c2c705348f4d4f6"
    )
    s = make_secret("play luke 5", bytes(16), 1)
    assert reveal(s).checks()
    assert not bs.Reveal(s.commitment, bytes(16), "play luke 6").checks()
    from boardstate.rules import Table

    with pytest.raises(bs.SecretUnavailable):
        Table(None, None, None).reveal(s.sealed())
    assert Table(None, None, None).reveal(s).value == "play luke 5"


def test_same_seed_same_game_and_file():
    salt = b"\x07" * 32
    created = "2026-01-01T00:00:00+00:00"
    a = bs.Game.new(DOTF, ["a", "b"], {}, seed=b"x", created=created, seed_salt=salt)
    b = bs.Game.new(DOTF, ["a", "b"], {}, seed=b"x", created=created, seed_salt=salt)
    assert encode_file(a.header, a.records) == encode_file(b.header, b.records)
    d = bs.Game.new(DOTF, ["a", "b"], {}, seed=b"x", created=created)
    assert d.header.seed_commitment != a.header.seed_commitment  # a random salt each time
    assert d.state == a.state  # the same game: the dealer is keyed by the seed alone
    c = bs.Game.new(DOTF, ["a", "b"], {}, seed=b"y", created="2026-01-01T00:00:00+00:00")
    assert a.state.stock != c.state.stock


def _file(game) -> bytes:
    return encode_file(game.header, game.records)


@pytest.mark.parametrize(
    "data, error, words",
    [
        (b"", bs.TruncatedFile, "empty"),
        (b"hello world", bs.ForeignFile, "not a boardstate file"),
        (msgpack.packb({"format": "other"}), bs.ForeignFile, "not a boardstate file"),
        (msgpack.packb({"format": "boardstate", "version": 9}), bs.FutureVersion, "v9"),
        (msgpack.packb({"format": "boardstate", "version": 1}), bs.CorruptFile, "corrupt header"),
    ],
)
def test_defensive_reads(data, error, words):
    with pytest.raises(error) as err:
        parse_raw(data, "f.msgpack")
    assert words in str(err.value) and "\n" not in str(err.value)


def test_truncated_and_corrupt_files():
    data = _file(random_game(DOTF, 3, players=2, stop_after=6))
    for cut in (len(data) - 1, len(data) - 40, 60):
        with pytest.raises(bs.TruncatedFile):
            bs.load_game(parse_raw(data[:cut], "t"))
    bad = bytearray(data)
    bad[-5] ^= 0xFF
    with pytest.raises(bs.GameFileError):
        bs.load_game(parse_raw(bytes(bad), "c"))


def test_future_module_version_names_the_version_needed():
    game = random_game(DOTF, 1, players=2, stop_after=2)
    import attrs

    header = attrs.evolve(game.header, module_version="7.2")
    with pytest.raises(bs.FutureVersion) as err:
        parse_raw(encode_file(header, []), "new.msgpack")
    assert "duel-of-the-forces >= 7.0" in str(err.value)


def test_unknown_module_is_a_clear_error():
    import attrs

    game = random_game(DOTF, 1, players=2, stop_after=1)
    data = encode_file(attrs.evolve(game.header, module="chess"), game.records)
    with pytest.raises(bs.GameFileError) as err:
        parse_raw(data, "chess.msgpack")
    assert "no installed module 'chess'" in str(err.value)


def test_event_upcaster_reads_an_old_schema():
    """A file written with schema 1 of an event reads into schema 2 through its upcaster."""
    import attrs

    from boardstate.rules import event

    @event("test.moved", 2, upcasters={1: lambda f: (f[0], 0)})
    class Moved:
        square: int
        distance: int

    old = EventCodes([Moved], [["test.moved", 1]])
    (decode,) = old.decoders
    assert decode((5,)) == Moved(5, 0)
    assert not old.current and not old.encodes(Moved(5, 0))  # (migrate before appending)
    assert EventCodes([Moved]).current
    with pytest.raises(bs.FutureVersion):
        EventCodes([Moved], [["test.moved", 3]])
    with pytest.raises(bs.CorruptFile):
        EventCodes([Moved], [["test.jumped", 1]])
    assert attrs.has(Moved)


def test_engine_checks_turn_and_game_over():
    game = bs.Game.new(DOTF, ["a", "b"], {}, seed=b"t")
    game.play(0, "play 3")
    with pytest.raises(bs.IllegalCommand) as err:
        game.play(0, "play 4")
    assert err.value.code == "not-your-turn" and "already committed" in err.value.reason
    finished = random_game(DOTF, 5, players=2)
    with pytest.raises(bs.IllegalCommand) as err:
        finished.play(0, "play 1")
    assert err.value.code == "game-over"


def test_sealed_bid_is_committed_not_revealed_until_all_commit():
    game = bs.Game.new(DOTF, ["a", "b", "c"], {}, seed=b"t")
    records = game.play(0, "play luke 5")
    assert [r.kind for r in records] == [2]  # a commitment only
    assert b"play luke 5" not in records[0].body
    game.play(1, "play han 2")
    assert game.phase() is not None and not game.phase().all_committed
    records = game.play(2, "play leia 1")
    assert [r.kind for r in records] == [2, 3, 3, 3]  # last commit, then every reveal
    assert records[-1].events  # the last reveal resolves the duel


def test_referee_reports_an_illegal_committed_bid():
    """A player who commits to a card they do not hold is caught at the reveal."""
    game = bs.Game.new(DOTF, ["a", "b"], {}, seed=b"t", created="2026-01-01T00:00:00+00:00")
    # forge: commit to 'play luke 9' by hand, as a cheating client might
    secret = make_secret("play luke 9", bytes(16), 1)
    game.append(game.make(Kind.COMMIT, 0, "", secret.sealed(), ()))
    game.play(1, "play han 2")  # bob commits and reveals; alice's reveal is due
    opening = reveal(secret)
    game.append(game.make(Kind.REVEAL, 0, "", opening, ()))
    verdict = bs.verify(parse_raw(_file(game), "forged"))
    assert not verdict.ok
    failure = verdict.failure
    assert failure.seq == 4 and failure.actor == "a" and "play luke 9" in failure.command
    assert failure.code == "syntax"


def test_verify_without_the_seed_checks_the_chain():
    game = random_game(DOTF, 2, players=2)
    view = encode_game(game, viewer=0)
    verdict = bs.verify(parse_raw(view, "view"))
    assert verdict.ok and verdict.rederived < verdict.records
    assert verdict.outcome == game.outcome()


def test_atomic_write_leaves_old_file_on_failure(tmp_path, monkeypatch):
    path = tmp_path / "g.msgpack"
    path.write_bytes(b"old")
    import os

    def boom(*a):
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(bs.GameFileError, match=r"disk full\); nothing was changed"):
        bs.atomic_write(path, b"new content")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["g.msgpack"]


def test_forged_first_record_that_is_not_the_setup_is_refused():
    """A forger who recomputes the chain still cannot start a game with anything but the setup."""
    game = bs.Game.new(DOTF, ["a", "b"], {}, seed=b"f", created="2026-01-01T00:00:00+00:00")
    secret = make_secret("play luke 1", bytes(16), 1)
    opening = reveal(secret)
    for kind, sealed in ((Kind.COMMIT, secret.sealed()), (Kind.REVEAL, opening), (Kind.MOVE, None)):
        forged = make_record(game.codes, game.header.game_id, 0, kind, 0, "", sealed, ())
        verdict = bs.verify(parse_raw(encode_file(game.header, [forged]), "forged"))
        assert not verdict.ok and verdict.failure.code == "bad-kind"
    late_setup = make_record(game.codes, game.records[0].hash, 1, Kind.SETUP, -1, "", None, ())
    verdict = bs.verify(parse_raw(encode_file(game.header, [game.records[0], late_setup]), "f"))
    assert not verdict.ok and verdict.failure.code == "bad-kind"
