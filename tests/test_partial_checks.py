"""What a copy cannot check, it says: a view re-derives what its information allows and names
the records it could check only in part; a game file with a forged deal is refused on use."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import boardstate as bs
from boardstate.cli import cli
from boardstate.testing import CREATED, Kind, encode_records, forge, random_game

JEDI = bs.get_module("jedi-duel")
DOTF = bs.get_module("duel-of-the-forces")


def first_hit_then_draw(game):
    """A record that sets someone's fatigue and then needs the dealer (a draw): a view copy can
    re-derive the damage but not the draw."""
    for rec in game.records[1:]:
        names = [type(e).__event_name__ for e in rec.events]
        if "jedi.fatigue-set" in names and "jedi.cards-drawn" in names[names.index(
            "jedi.fatigue-set"):]:  # fmt: skip
            return rec
    raise AssertionError("no such record")


def view_before(game, record, viewer):
    """``viewer``'s view of the game as it stood before ``record``."""
    header = game.header
    import attrs

    view_header = attrs.evolve(header, seed=None, viewer=viewer)
    data = encode_records(view_header, game.records[: record.seq], openings_for=viewer)
    return bs.load_game(bs.parse_raw(data, "view"))


def move_file(game, records, base):
    import attrs

    header = attrs.evolve(
        game.header, kind="move", seed=None, viewer=None, base_seq=base,
        base_hash=records[base].hash,
    )  # fmt: skip
    return bs.parse_raw(encode_records(header, records[base + 1 :], openings_for=None), "move")


@pytest.mark.parametrize("forgery", ["fatigue", "dropped"])
def test_a_view_refuses_forged_damage_it_can_re_derive(forgery):
    game = random_game(JEDI, 4, players=2)
    target = first_hit_then_draw(game)
    events = list(target.events)
    i = next(k for k, e in enumerate(events) if type(e).__event_name__ == "jedi.fatigue-set")
    if forgery == "fatigue":
        events[i] = type(events[i])(events[i].seat, 21)
    else:
        del events[i]
    forged = forge(game, target.seq, events=tuple(events))
    viewer = 1 - target.actor if target.actor in (0, 1) else 0
    copy = view_before(game, target, viewer)
    honest = view_before(game, target, viewer)
    records, partly = bs.referee_moves(honest, move_file(game, game.records, target.seq - 1))
    assert target.seq in partly  # the draw: checked only in part, and said so
    with pytest.raises(bs.VerificationFailed) as err:
        bs.apply_moves(copy, move_file(game, forged, target.seq - 1))
    assert err.value.code == "not-derived" and err.value.seq == target.seq


def test_what_a_view_cannot_check_is_said_once_in_the_words_of_its_mode(tmp_path):
    """Said when the view is made (and by verify), not again at every apply (issue 26)."""
    game = random_game(JEDI, 4, players=2, stop_after=8)
    target = game.records[-1]
    viewer = 1 - target.actor
    (tmp_path / "full.msgpack").write_bytes(encode_records(game.header, game.records[: target.seq]))
    made = CliRunner().invoke(cli, ["view", str(tmp_path / "full.msgpack"), "--as",
                                    game.players[viewer], "-o", str(tmp_path / "view.msgpack")])  # fmt: skip
    assert made.exit_code == 0, made.output
    assert "note: some records will be checked on the hash chain only: this copy has no seed" in (
        made.output
    )
    (tmp_path / "m.msgpack").write_bytes(bs.encode_moves(game, target.seq - 1))
    result = CliRunner().invoke(cli, ["apply", str(tmp_path / "view.msgpack"),
                                      str(tmp_path / "m.msgpack")])  # fmt: skip
    assert result.exit_code == 0, result.output
    partly = bs.referee_moves(
        view_before(game, target, viewer), bs.parse_raw(bs.encode_moves(game, target.seq - 1))
    )[1]
    assert target.seq in partly  # (checked in part: and not said again)
    assert "in part" not in result.output and "hash chain only" not in result.output
    checked = CliRunner().invoke(cli, ["verify", str(tmp_path / "view.msgpack")])
    assert "checked on the hash chain only: this copy has no seed" in checked.output


def test_a_received_game_file_with_a_forged_deal_is_refused_on_first_use(tmp_path):
    game = bs.Game.new(DOTF, ["alice", "bob"], {}, seed=b"deal", created=CREATED)
    setup = game.records[0]
    drawn = setup.events[0]  # (revision 3: the first villain, drawn when it turns up)
    reordered = (type(drawn)((drawn.card + 1) % 34),) + setup.events[1:]
    forged = forge(game, 0, events=reordered)
    path = tmp_path / "received.msgpack"
    path.write_bytes(encode_records(game.header, forged))
    before = path.read_bytes()
    result = CliRunner().invoke(cli, ["move", str(path), "play 3", "--as", "alice"])
    assert result.exit_code == 1
    assert "does not verify, so nothing is added to it" in result.stderr
    assert path.read_bytes() == before
    assert [r.kind for r in forged] == [Kind.SETUP]
