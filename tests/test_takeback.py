"""Takebacks by agreement (issue 26, item 7): a player asks to take back their last turn, every
other player accepts by mail, and every copy goes back to the state before it.

In each mode: the open hot seat (one ``Game``), the peer mode by move files (``test_peer``'s
``Table``) and the hosted mode (``test_hosted``'s ``Hosted``: the judge makes the records from
the players' requests).  ``verify`` re-derives the takeback like every record; a copy that took
back too early, or another span, makes records the rules refuse, and the verdict names the first.
"""

from __future__ import annotations

import pytest
from peer_draw import MODULE as DRAW
from test_hosted import Hosted
from test_peer import Table

import boardstate as bs
from boardstate._fileformat import encode_game, parse_raw
from boardstate._html import _steps
from boardstate._registry import registered
from boardstate.testing import CREATED, Kind

EPIC = bs.installed_modules()["epic-duels"]
DOTF = bs.installed_modules()["duel-of-the-forces"]


def new(module=EPIC, players=("ann", "ben"), options=None, seed=b"takeback"):
    return bs.Game.new(module, list(players), dict(options or {}), seed=seed, created=CREATED)


def verified(game, **kwargs) -> bs.Verdict:
    return bs.verify(bs.parse_raw(bs.encode_game(game), "takeback"), **kwargs)


def turn(game) -> list:
    """The acting player's whole turn (until another player is to act); its records."""
    (seat,) = game.to_act()
    start = game.seq
    while game.to_act() == (seat,) and game.outcome() is None:
        game.play(seat, game.legal(seat)[0])
    return game.records[start:]


def in_play():
    """A game of two, three turns in (the placements, then a turn of ann's or ben's)."""
    game = new()
    for _ in range(3):
        turn(game)
    return game


def table(game) -> tuple:
    """What a takeback must give back: the state, whose turn, and every seat's commands."""
    return game.state, game.to_act(), [game.legal(s) for s in range(len(game.players))]


def played(records) -> list:
    return [(r.actor, r.command) for r in records if r.kind == Kind.MOVE]


# ---------------------------------------------------------------------------------- open
def test_an_accepted_takeback_gives_back_the_turn_and_the_retaken_turn_new_randomness():
    game = new()
    turn(game)
    turn(game)  # (the placements: ben's, then ann's last ones)
    (seat,) = game.to_act()
    other = 1 - seat
    before = table(game)
    first = game.seq
    original = turn(game)
    assert game.to_act() == (other,)
    (asked,) = game.play(seat, "ask takeback")
    assert bs.describe(game, asked) == (
        f"{game.players[seat]} asks to take back the move '{original[0].command}' "
        f"(record {first}) and what followed"
    )
    (accepted,) = game.play(other, "accept takeback")
    assert table(game) == before
    assert bs.describe(game, accepted) == (
        f"{game.players[other]} accepts: the game goes back to before record {first}; "
        f"to act: {game.players[seat]}"
    )
    assert game.seq == accepted.seq + 1 and game.records[first] is original[0]  # (all kept)
    again = [game.play(seat, command)[0] for _, command in played(original)]
    assert played(again) == played(original)
    assert [r.events for r in again] != [r.events for r in original]  # (new record numbers)
    assert game.states()[accepted.seq] == before[0]
    assert game.position(accepted.seq).state == before[0]
    pictures = [step[-1] for step in _steps(game, seat)]  # (the replay page's)
    assert pictures[accepted.seq] == pictures[first - 1] != pictures[accepted.seq - 1]
    for keep in (True, False):  # (verify keeps no records: the takeback needs none)
        verdict = verified(game, keep_records=keep)
        assert verdict.ok, verdict.failure
        assert verdict.game.state == game.state and verdict.game.to_act() == game.to_act()


@pytest.mark.parametrize("answer", ["refuse takeback", "Withdraw  Takeback"])
def test_a_refused_or_withdrawn_takeback_changes_nothing_and_ends_the_request(answer):
    game = in_play()
    (seat,) = game.to_act()
    asker = 1 - seat
    with pytest.raises(bs.IllegalCommand, match="no takeback is asked") as caught:
        game.play(seat, "accept takeback")
    assert caught.value.code == "no-takeback"
    game.play(asker, "ask takeback")
    with pytest.raises(bs.IllegalCommand, match="the other players answer it"):
        game.play(asker, "accept takeback")
    with pytest.raises(bs.IllegalCommand, match="answered first") as caught:
        game.play(seat, "ask takeback")
    assert caught.value.code == "takeback-asked"
    with pytest.raises(bs.IllegalCommand, match="has asked for no takeback"):
        game.play(seat, "withdraw takeback")
    before = table(game)
    answerer = seat if answer.startswith("refuse") else asker
    (said,) = game.play(answerer, answer)
    word = "refuses" if answerer == seat else "withdraws"
    assert bs.describe(game, said) == f"{game.players[answerer]} {word} the takeback"
    assert said.command == " ".join(answer.lower().split())
    assert table(game) == before
    with pytest.raises(bs.IllegalCommand, match="no takeback is asked"):
        game.play(seat, "accept takeback")
    assert verified(game).ok


def test_the_game_going_on_ends_the_request():
    game = in_play()
    (seat,) = game.to_act()
    game.play(1 - seat, "ask takeback")
    game.play(seat, game.legal(seat)[0])  # (played on instead of answering)
    with pytest.raises(bs.IllegalCommand, match="no takeback is asked"):
        game.play(seat, "accept takeback")


def test_nothing_to_take_back_and_one_turn_back_at_a_time():
    game = new()
    (seat,) = game.to_act()  # (the die said who places first: the other has not moved)
    with pytest.raises(bs.IllegalCommand, match="no move of the game to take back") as caught:
        game.play(1 - seat, "ask takeback")
    assert caught.value.code == "nothing-to-take-back"
    for _ in range(3):
        turn(game)
    (seat,) = game.to_act()
    game.play(1 - seat, "ask takeback")
    game.play(seat, "accept takeback")
    with pytest.raises(bs.IllegalCommand, match="one turn back"):  # (their turn before: no)
        game.play(1 - seat, "ask takeback")
    game.play(seat, "ask takeback")  # (the other player's last turn still stands)
    game.play(1 - seat, "refuse takeback")
    turn(game)
    assert verified(game).ok


def test_no_takeback_after_the_end():
    game = in_play()
    (seat,) = game.to_act()
    game.play(seat, "ask takeback")
    game.play(1 - seat, "resign")
    with pytest.raises(bs.IllegalCommand, match="the game is over") as caught:
        game.play(1 - seat, "accept takeback")
    assert caught.value.code == "game-over"
    with pytest.raises(bs.IllegalCommand, match="the game is over"):
        game.play(seat, "ask takeback")


def three_players():
    """A free-for-all of three, its pieces placed: the next player begins a turn."""
    game = new(players=("ann", "ben", "cat"), options={"variant": "free-for-all"})
    while not any(type(e).__name__ == "TurnBegan" for e in game.records[-1].events):
        turn(game)
    return game


def test_with_three_players_the_turn_is_taken_back_when_the_last_accepts():
    game = three_players()
    (seat,) = game.to_act()
    before = table(game)
    turn(game)
    others = [s for s in range(3) if s != seat]
    game.play(seat, "ask takeback")
    game.play(others[1], "accept takeback")
    assert game.talk.answering(game.players) == (others[0],)
    assert (
        f"Takeback asked by {game.players[seat]}; to answer (accept or refuse takeback): "
        f"{game.players[others[0]]}" in bs.status_lines(game, seat)
    )
    with pytest.raises(bs.IllegalCommand, match="accepted the takeback already") as caught:
        game.play(others[1], "accept takeback")
    assert caught.value.code == "answered"
    assert game.to_act() != before[1] and game.state != before[0]  # (not yet)
    assert bs.describe(game, game.records[-1]).endswith("accepts the takeback")
    game.play(others[0], "accept takeback")
    assert table(game) == before and not game.talk.answering(game.players)
    assert verified(game).ok


def forged_verdict(game, forge) -> tuple:
    """``game``'s file as a copy would make it that ``forge(copy)`` changed, then one more
    move of the player it makes to act: ``(the verdict, that move's record number)``."""
    copy = bs.load_game(bs.parse_raw(bs.encode_game(game), "copy"))
    forge(copy)
    (seat,) = copy.to_act()
    seq = copy.seq
    copy.play(seat, copy.legal(seat)[0])
    return bs.verify(bs.parse_raw(bs.encode_game(copy), "forged")), seq


def test_a_copy_that_takes_back_without_every_acceptance_fails_verification():
    game = three_players()
    (seat,) = game.to_act()
    turn(game)
    game.play(seat, "ask takeback")
    game.play(next(s for s in range(3) if s != seat), "accept takeback")  # (one of two)

    def early(copy):
        copy.takebacks.take_back(copy, seat, copy.last_seq)

    verdict, seq = forged_verdict(game, early)
    assert not verdict.ok and verdict.failure.seq == seq
    assert verdict.failure.code == "not-your-turn"
    assert f"record {seq}" in str(verdict.failure)


def test_a_copy_that_takes_back_another_span_fails_verification():
    game = three_players()
    (seat,) = game.to_act()
    records = turn(game)
    assert len(records) > 1
    game.play(seat, "ask takeback")
    others = [s for s in range(3) if s != seat]
    game.play(others[0], "accept takeback")
    last = game.seq
    game.play(others[1], "accept takeback")
    honest = table(game)

    def only_the_last_move(copy):  # (the state before the turn's last record instead)
        copy.state = copy.states()[records[-1].seq - 1]
        copy._facts_of = None

    verdict, seq = forged_verdict(game, only_the_last_move)
    assert seq == last + 1 and not verdict.ok and verdict.failure.seq == seq
    assert table(game) == honest


def test_a_sealed_choice_is_taken_back_until_a_choice_before_it_is_turned_over():
    game = new(DOTF, seed=b"sealed")
    before = table(game)
    game.play(0, game.legal(0)[0])  # ann commits first
    game.play(1, game.legal(1)[0])  # ben commits; both are revealed
    assert [r.kind for r in game.records[-2:]] == [Kind.REVEAL, Kind.REVEAL]
    with pytest.raises(bs.IllegalCommand, match="turned over since") as caught:
        game.play(1, "ask takeback")  # (ann's choice, made before ben's, was seen)
    assert caught.value.code == "turned-over"
    game.play(0, "ask takeback")  # (both choices taken back: both are chosen again)
    game.play(1, "accept takeback")
    assert table(game) == before and game.round.commits == {}
    (committed,) = game.play(0, game.legal(0)[1])  # a choice taken back before anyone saw it:
    (asked,) = game.play(0, "ask takeback")
    assert f"({committed.sealed.value})" in bs.describe(game, asked, 0)
    assert committed.sealed.value not in bs.describe(game, asked, 1)
    game.play(1, "accept takeback")
    assert game.round.commits == {} and game.to_act() == (0, 1)
    assert committed.sealed.commitment in game.committed  # (made once: never again)
    game.play(1, game.legal(1)[0])
    game.play(0, game.legal(0)[0])
    assert verified(game).ok


def test_a_takeback_leaves_its_checkpoint_as_it_was():
    """A copy of the game kept by a cut (``_cuts``) shares the takebacks' checkpoints: the game
    takes a checkpoint's sealed round back as a copy, and changes the copy, never the
    checkpoint."""
    game = new(DOTF, seed=b"sealed")
    game.play(0, game.legal(0)[1])
    game.play(0, "ask takeback")
    checkpoint = game.takebacks.last[0]
    commits = dict(checkpoint.round.commits)
    game.play(1, "accept takeback")
    game.play(1, game.legal(1)[0])  # (ben commits in the round taken back)
    assert sorted(game.round.commits) == [1]
    assert checkpoint.round.commits == commits and checkpoint.round is not game.round


# ---------------------------------------------------------------------------------- peer
@pytest.fixture
def peer_table():
    with registered(DRAW):
        table_ = Table(2, secrets=[bytes([1]) * 32, bytes([2]) * 32], rng_seed=1)
        table_.settle()
        yield table_


def draws(peer_table, count: int) -> tuple:
    """``count`` turns of drawing, each mailed to the other: the first copy, and who is next."""
    lead = peer_table.copies[0]
    for _ in range(count):
        (seat,) = lead.to_act()
        peer_table.copies[seat].play(seat, "draw")
        peer_table.settle()
    return lead, lead.to_act()[0]


def test_peer_a_takeback_by_mail_gives_every_copy_the_turn_back_with_fresh_links(peer_table):
    lead, seat = draws(peer_table, 3)
    mover, other = peer_table.copies[seat], peer_table.copies[1 - seat]
    before = [table(copy) for copy in peer_table.copies]
    mover.play(seat, "play 1")  # (the die waits for the other's link)
    with pytest.raises(bs.IllegalCommand, match="while the game is waiting for") as caught:
        mover.play(seat, "ask takeback")
    assert caught.value.code == "waiting"
    peer_table.settle()
    links = {r.sealed[1] for r in lead.records if r.kind == Kind.DEAL and r.sealed[0] == "link"}
    mover.play(seat, "ask takeback")
    peer_table.settle()
    other.play(1 - seat, "accept takeback")
    peer_table.settle()
    assert [table(copy) for copy in peer_table.copies] == before
    (again, *_) = mover.play(seat, "play 1")
    peer_table.settle()
    fresh = [r for r in lead.records[again.seq + 1 :] if r.kind == Kind.DEAL]
    # (the die comes from new links and a new record number: it is drawn again, and may or
    # may not come up the same)
    assert fresh and all(r.sealed[1] not in links for r in fresh if r.sealed[0] == "link")
    assert type(lead.records[-1].events[0]).__name__ == "Rolled"
    for index, copy in enumerate(peer_table.copies):
        verdict = bs.verify(parse_raw(encode_game(copy, viewer=index), f"copy {index}"))
        assert verdict.ok, verdict.failure
    peer_table.play_out()
    copies = [parse_raw(encode_game(c, viewer=i), f"c{i}") for i, c in enumerate(peer_table.copies)]
    report = bs.audit(copies)
    assert report.ok, report.failure


def test_peer_a_refused_takeback_changes_no_copy(peer_table):
    lead, seat = draws(peer_table, 2)
    before = [table(copy) for copy in peer_table.copies]
    peer_table.copies[1 - seat].play(1 - seat, "ask takeback")
    peer_table.settle()
    peer_table.copies[seat].play(seat, "refuse takeback")
    peer_table.settle()
    assert [table(copy) for copy in peer_table.copies] == before
    assert bs.describe(lead, lead.records[-1]).endswith("refuses the takeback")


# ---------------------------------------------------------------------------------- hosted
def hosted_turns(hosted, count: int) -> None:
    """``count`` whole turns, each player placing, moving and drawing (no attack: a turn that
    answers a card laid face down is not one that can be taken back)."""
    judge = hosted.judge
    for _ in range(count):
        (seat,) = judge.to_act()
        while judge.to_act() == (seat,):
            legal = hosted.copies[seat].legal(seat)
            calm = [c for c in legal if c.split()[0] in ("place", "move", "draw")]
            hosted.ask(hosted.copies[seat].request(seat, (calm or legal)[0]))


def hosted_tables(hosted) -> list:
    return [table(hosted.judge)] + [(c.to_act(), c.legal(i)) for i, c in enumerate(hosted.copies)]


def test_hosted_the_judge_makes_the_takeback_from_the_players_requests():
    hosted = Hosted(2, module="epic-duels", seed=3)
    judge = hosted.judge
    hosted_turns(hosted, 3)
    (seat,) = judge.to_act()
    other = 1 - seat
    before = hosted_tables(hosted)
    first = judge.seq
    hosted_turns(hosted, 1)
    with pytest.raises(bs.IllegalCommand, match="no takeback is asked"):
        hosted.copies[other].request(other, "accept takeback")
    played = hosted_tables(hosted)
    hosted.ask(hosted.copies[seat].request(seat, "ask takeback"))
    hosted.ask(hosted.copies[other].request(other, "refuse takeback"))
    assert hosted_tables(hosted) == played
    hosted.ask(hosted.copies[seat].request(seat, "ask takeback"))
    hosted.ask(hosted.copies[seat].request(seat, "withdraw takeback"))
    assert hosted_tables(hosted) == played and judge.to_act() == (other,)
    hosted.ask(hosted.copies[seat].request(seat, "ask takeback"))
    (accepted,) = hosted.ask(hosted.copies[other].request(other, "accept takeback"))
    assert hosted_tables(hosted) == before
    for copy in hosted.copies:
        assert copy.head_hash == judge.head_hash
        assert f"back to before record {first}" in bs.describe(copy, copy.records[-1])
    old = judge.rng(first).randbelow(1 << 60)
    assert judge.rng(judge.seq).randbelow(1 << 60) != old  # (the retaken turn: new numbers)
    hosted.play()
    report = hosted.audit()
    assert report.ok, report.failure


def test_hosted_a_takeback_is_refused_while_a_sealed_choice_seen_would_be_sealed_again():
    hosted = Hosted(2, module="duel-of-the-forces", seed=5)
    judge = hosted.judge
    for seat in (0, 1):  # ann commits, then ben; the judge turns both over
        hosted.ask(hosted.copies[seat].request(seat, hosted.copies[seat].legal(seat)[0]))
    assert judge.records[-1].kind == Kind.REVEAL
    with pytest.raises(bs.IllegalCommand, match="turned over since"):
        hosted.copies[1].request(1, "ask takeback")
    hosted.ask(hosted.copies[0].request(0, "ask takeback"))
    hosted.ask(hosted.copies[1].request(1, "accept takeback"))
    assert judge.round.commits == {} and judge.to_act() == (0, 1)
    for seat in (1, 0):
        hosted.ask(hosted.copies[seat].request(seat, hosted.copies[seat].legal(seat)[0]))
    for copy in hosted.copies:
        assert copy.head_hash == judge.head_hash


def test_peer_an_acceptance_in_another_players_name_is_refused(peer_table):
    lead, seat = draws(peer_table, 2)
    peer_table.copies[1 - seat].play(1 - seat, "ask takeback")
    peer_table.settle()
    forger = peer_table.copies[1 - seat]  # (accepts for the other player: unsigned)
    forger.play(seat, "accept takeback")
    with pytest.raises(bs.VerificationFailed) as caught:
        peer_table.mail(1 - seat, seat)
    assert caught.value.code == "unsigned" and caught.value.seq == forger.last_seq


# ---------------------------------------------------------------------------------- CLI
def test_by_mail_from_the_command_line(tmp_path):
    from click.testing import CliRunner

    from boardstate.cli import cli

    def run(*args) -> str:
        result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output

    ann, ben = tmp_path / "ann.msgpack", tmp_path / "ben.msgpack"
    game = new(players=("ann", "ben"))
    for _ in range(3):
        turn(game)
    ann.write_bytes(bs.encode_game(game))
    ben.write_bytes(bs.encode_game(game))
    (seat,) = game.to_act()
    mover, other = (ann, ben) if seat == 0 else (ben, ann)
    names = game.players
    legal = run("legal", mover, "--as", names[seat])
    run("move", mover, "--as", names[seat], game.legal(seat)[0], "-o", tmp_path / "m1.msgpack")
    run("apply", other, tmp_path / "m1.msgpack")
    asked = run(
        "move", mover, "--as", names[seat], "ask", "takeback", "-o", tmp_path / "m2.msgpack"
    )
    assert f"{names[seat]} asks to take back the move" in asked
    run("apply", other, tmp_path / "m2.msgpack")
    said = run("move", other, "--as", names[1 - seat], "accept takeback", "-o", tmp_path / "m3")
    assert f"accepts: the game goes back to before record {game.seq}" in said
    assert f"to act: {names[seat]}" in said
    run("apply", mover, tmp_path / "m3")
    assert run("legal", mover, "--as", names[seat]) == legal
    assert "goes back to before record" in run("log", mover)
    assert run("verify", mover).startswith("ok: ")


def test_peer_a_sealed_round_taken_back_in_part_merges_crossing_mail_to_one_log(monkeypatch):
    """Three players bid (Duel of the Forces): ben's bid stands, ann's is taken back before
    cat's is in; ann's new bid and cat's cross in the mail, and every copy merges them into
    one log; the game goes on to the end and the audit re-derives the takeback."""
    import test_peer

    monkeypatch.setattr(test_peer, "MODULE", DOTF)
    peer = Table(3, secrets=[bytes([i]) * 32 for i in (1, 2, 3)], rng_seed=1)
    peer.settle()
    ann, ben, cat = peer.copies
    ben.play(1, ben.legal(1)[0])
    peer.settle()
    ann.play(0, ann.legal(0)[0])
    peer.settle()
    ann.play(0, "ask takeback")
    peer.settle()
    ben.play(1, "accept takeback")
    peer.settle()  # (the engine's words do not commute: two answers that cross are a fork)
    cat.play(2, "accept takeback")
    peer.settle()
    for copy in peer.copies:
        assert sorted(copy.round.commits) == [1] and copy.to_act() == (0, 2)
    ann.play(0, ann.legal(0)[1])
    cat.play(2, cat.legal(2)[0])  # (on the same base: the commitments commute)
    peer.settle()
    assert len({copy.head_hash for copy in peer.copies}) == 1
    while ann.outcome() is None:
        for seat in ann.to_act():
            if seat in peer.copies[seat].to_act():
                peer.copies[seat].play(seat, peer.rng.choice(peer.copies[seat].legal(seat)))
        peer.settle()
    copies = [parse_raw(encode_game(c, viewer=i), f"copy {i}") for i, c in enumerate(peer.copies)]
    report = bs.audit(copies)
    assert report.ok, report.failure


def test_a_copy_read_back_or_cut_short_folds_the_takeback_again():
    game = in_play()
    (seat,) = game.to_act()
    before = table(game)
    turn(game)
    game.play(seat, "ask takeback")
    after = table(game)
    game.play(1 - seat, "accept takeback")
    loaded = bs.load_game(bs.parse_raw(bs.encode_game(game), "copy"))  # (folded, not re-run)
    assert table(loaded) == before and loaded.takebacks.done == game.takebacks.done
    game.truncate(game.seq - 1)  # (the acceptance undone before it was mailed)
    assert table(game) == after and game.talk.asker == seat
