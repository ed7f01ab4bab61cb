"""Header fields the format bounds (issue 24, item 9): ``version`` is the trust mode's own (open
v1, peer v2, hosted v3: an open game claiming v2 was read), and ``shared`` names a record of
the file (checked once the records are counted: a record past the end was read), and a view's
``viewer`` is consistent with its openings (a view holding another player's was read)."""

from __future__ import annotations

import attrs
import pytest
from test_hardening_files import OLD_SAMPLE, SAMPLES, craft, refused, run, write

import boardstate as bs
from boardstate._errors import ViewerMismatch
from boardstate._fileformat import encode_file, encode_game, encode_public, parse_raw


@pytest.mark.parametrize("command", ["verify", "show", "replay"])
@pytest.mark.parametrize(
    "changes, words",
    [
        ({"version": 2}, "version: v2 is not an open game's"),
        ({"version": 3}, "version: v3 is not an open game's"),
        ({"shared": 63}, "shared: record 63, but the last record is 62"),
        ({"shared": 10**6}, "shared: record 1000000"),
    ],
)
def test_a_header_field_out_of_its_bounds_is_corrupt(tmp_path, changes, words, command):
    path = write(tmp_path, "forged.msgpack", craft(OLD_SAMPLE.read_bytes(), **changes))
    line = refused(run(command, path))
    assert words in line and "corrupt" in line, line


def test_shared_at_the_last_record_reads(tmp_path):
    path = write(tmp_path, "ok.msgpack", craft(OLD_SAMPLE.read_bytes(), shared=62))
    rc, out, err = run("verify", path)
    assert rc == 0, err


# ------------------------------------------------- a view's viewer consistent with its openings
# (``_records.may_open``: a view holds its viewer's values only; a file without viewer or seed
# holds no opening; a full log and a player's own copy hold what their maker knows.)
def _views(data: bytes) -> dict:
    return {
        "ann's view with ben's hand": craft(data, seed=None, viewer=0),
        "ben's view with ann's hand": craft(data, seed=None, viewer=1),
        "a spectator's copy with openings": craft(data, seed=None),
    }


@pytest.mark.parametrize("command", ["verify", "show", "replay"])
@pytest.mark.parametrize("which", list(_views(OLD_SAMPLE.read_bytes())))
def test_a_view_holding_openings_its_viewer_may_not_see_is_refused(tmp_path, which, command):
    path = write(tmp_path, "forged.msgpack", _views(OLD_SAMPLE.read_bytes())[which])
    line = refused(run(command, path))
    assert "[not-for-viewer]" in line and "record 0 opens a value" in line, line
    assert str(path) in line, line


def test_the_refusal_is_a_corrupt_file_with_its_own_code():
    for data in _views(OLD_SAMPLE.read_bytes()).values():
        with pytest.raises(bs.CorruptFile) as info:
            bs.load_game(parse_raw(data, "forged"))
        assert isinstance(info.value, ViewerMismatch) and info.value.code == "not-for-viewer"


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_every_players_view_of_every_sample_reads(sample):
    game = bs.load_game(sample)
    for seat in range(len(game.players)):
        view = bs.load_game(parse_raw(encode_game(game, viewer=seat), "view"))
        assert view.header.viewer == seat and view.seq == game.seq
    assert bs.verify(parse_raw(encode_game(game, viewer=0), "view")).ok


def test_a_view_written_by_the_cli_reads(tmp_path):
    out = tmp_path / "ann.msgpack"
    assert run("view", OLD_SAMPLE, "--as", "ann", "-o", out)[0] == 0
    for command in ("verify", "show", "replay"):
        rc, _, err = run(command, out)
        assert rc == 0, err


@pytest.fixture
def peer_game(monkeypatch):
    from test_threat_model import CREATED, DRAW, table

    import boardstate._header as header_module
    from boardstate._registry import registered

    monkeypatch.setattr(header_module, "_now", lambda: CREATED)
    with registered(DRAW):
        t = table(2, rng_seed=4)
        t.play_out()
        yield t.copies[0]  # ann's own copy (her private secret, her openings, her letters)


def test_a_peer_copy_and_its_views_read_and_a_forged_view_is_refused(peer_game):
    game = peer_game
    mine = encode_game(game)  # (her own copy: what her machine knows, viewer 0)
    assert bs.verify(parse_raw(mine, "ann's copy")).ok
    bs.load_game(parse_raw(mine, "ann's copy"))
    for seat in (0, 1):  # (views: no private secret unless her own, openings filtered)
        bs.load_game(parse_raw(encode_game(game, viewer=seat), "view"))
    bs.load_game(parse_raw(encode_public(game), "public"))
    theirs = attrs.evolve(game.header, viewer=1, peer_secret=None)  # ann's openings, ben's view
    public = attrs.evolve(game.header, viewer=None, peer_secret=None)
    for header in (theirs, public):
        data = encode_file(header, game.records)
        with pytest.raises(ViewerMismatch) as info:
            bs.load_game(parse_raw(data, "forged"))
        assert str(info.value).startswith("forged: corrupt: record ")
        with pytest.raises(ViewerMismatch):
            bs.verify(parse_raw(data, "forged"))
