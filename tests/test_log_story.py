"""The whole story in the record (issue 27, item 3): ``log``, the move lists and ``apply`` say
every die roll, every card a viewer may know was drawn, and every result, through the modules'
``tell`` hooks; never what the viewer may not know.

Golden files: the ``log`` of every sample game in replays/ as a spectator, and of one sample of
each game as one of its players, under tests/golden/log/.  Regenerate them after a deliberate
change of words with:

    python tests/test_log_story.py
"""

from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
GOLDEN = Path(__file__).parent / "golden" / "log"
SAMPLES = sorted(
    p for p in (ROOT / "replays").glob("*.msgpack") if not re.search(r"-\d{4}(-[a-z]+)?$", p.stem)
)  # (not a move file left by the make scripts while they run)
AS_PLAYER = (  # one sample of each game, as its first player
    "duel-of-the-forces-parlett-english-3p",
    "epic-duels-master-2p",
    "jedi-duel-4p",
)
REGENERATE = "run python tests/test_log_story.py after a deliberate change of words"


def cases() -> list[tuple[Path, str | None]]:
    import boardstate as bs

    out: list[tuple[Path, str | None]] = [(path, None) for path in SAMPLES]
    for stem in AS_PLAYER:
        path = ROOT / "replays" / f"{stem}.msgpack"
        out.append((path, bs.load_game(path).players[0]))
    return out


def golden_path(sample: Path, player: str | None) -> Path:
    return GOLDEN / (f"{sample.stem}--as-{player}.txt" if player else f"{sample.stem}.txt")


def log_text(sample: Path, player: str | None) -> str:
    """``boardstate log SAMPLE [--as PLAYER]``, as the command prints it."""
    from click.testing import CliRunner

    from boardstate.cli import cli

    args = ["log", str(sample)] + (["--as", player] if player else [])
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


# ---------------------------------------------------------------------------- the golden logs
CASES = cases()


@pytest.mark.parametrize(
    ("sample", "player"),
    CASES,
    ids=[golden_path(s, p).stem for s, p in CASES],
)
def test_log_matches_its_golden_file(sample, player):
    path = golden_path(sample, player)
    if not path.exists():
        pytest.fail(f"no golden log {path.name}: {REGENERATE}", pytrace=False)
    expected, actual = path.read_text(), log_text(sample, player)
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), "golden", "now", n=2, lineterm=""
        )
        shown = list(diff)
        pytest.fail(f"{path.name} differs ({REGENERATE}):\n" + "\n".join(shown[:40]), pytrace=False)


def test_every_sample_has_its_golden_log_and_no_other():
    expected = {golden_path(s, p).name for s, p in CASES}
    assert {p.name for p in GOLDEN.glob("*.txt")} == expected


# ---------------------------------------------------------------------------- what is told
def test_a_log_tells_dice_draws_and_results():
    """The complaint of the issue: Jedi Duel's 'luke: take' now says what happened, Epic
    Duels' every roll of the die is in the log, and a player reads their own draws."""
    import boardstate as bs

    sample = ROOT / "replays/jedi-duel-2p.msgpack"
    first = bs.load_game(sample).players[0]
    jedi = log_text(sample, first).splitlines()
    takes = [i for i, line in enumerate(jedi) if re.fullmatch(r"\d+\. \w+: take", line)]
    assert takes
    for i in takes:
        who = jedi[i].split(". ", 1)[1].split(":")[0]
        assert re.fullmatch(
            rf"   ({who}: fatigue \d+ → \d+ .*|{who} takes it: no damage)", jedi[i + 1]
        )
    assert any(line.startswith("   you draw ") for line in jedi)  # (the player's own cards)
    assert any(re.fullmatch(r"   \w+ draws 5 cards", line) for line in jedi)  # (the others')
    epic = log_text(ROOT / "replays/epic-duels-master-2p.msgpack", None)
    rolls = re.findall(r"^   turn (\d+): \w+ rolls ", epic, re.M)
    assert [int(n) for n in rolls] == list(range(1, len(rolls) + 1)) and len(rolls) > 20
    assert re.search(r"^   the die for the first turn: .*: \w+ goes first$", epic, re.M)
    duel = log_text(ROOT / "replays/duel-of-the-forces-ravensburger-2015-2p.msgpack", None)
    assert re.search(r"^   up for grabs: ", duel, re.M)  # (the next duel's card)


def _names(module_id: str, state):
    """``name(value)``: how a module's lines name a card."""
    if module_id == "jedi-duel":
        from boardstate.modules.jedi_duel._cards import name

        return name
    from boardstate.modules.epic_duels._notation import card_label

    return lambda value: card_label(state, 0, value)


def _secrets(value):
    import boardstate as bs

    if isinstance(value, bs.Secret):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _secrets(item)


def _held_by(state, seat: int) -> list:
    """Every secret value ``seat`` holds in ``state`` (its hand, what it was shown)."""
    out = []
    for field in state:
        out += [s.value for s in _secrets(field) if s.known and s.owned_by(seat)]
    return out


DRAWS = {"jedi-duel": "CardsDrawn", "epic-duels": "CardDrawn"}


@pytest.mark.parametrize(
    "stem", ["jedi-duel-4p", "epic-duels-master-2p", "epic-duels-free-for-all-3p"]
)
def test_a_player_reads_their_own_draws_and_no_one_elses(stem):
    """Record by record, as each player: each of their draws is named, each other player's is
    counted; and no line names a card of another seat's secrets that this player does not
    hold then, nor a spectator reads (every hidden card name of the other seats searched)."""
    import boardstate as bs
    from boardstate._words import told

    game = bs.load_game(ROOT / "replays" / f"{stem}.msgpack")
    module_id = game.module.spec.id
    name = _names(module_id, game.state)
    states = game.states()
    searched = 0
    for seat, player in enumerate(game.players):
        for record in game.records:
            lines = told(game, record, seat)
            text = "\n".join(lines)
            public = "\n".join(told(game, record, None))
            before = states[record.seq - 1] if record.seq else None
            mine = set(_held_by(states[record.seq], seat))
            if before is not None:
                mine |= set(_held_by(before, seat))
            for event in record.events:
                for secret in _secrets(tuple(type(event).__event_fields__(event))):
                    if secret.owned_by(seat):
                        mine.add(secret.value)
            mine_names = {name(v) for v in mine}
            for event in record.events:
                if type(event).__name__ == DRAWS[module_id]:
                    cards = event.cards if module_id == "jedi-duel" else (event.card,)
                    if event.seat == seat:
                        drawn = ", ".join(name(c.value) for c in cards)
                        assert drawn in text and "you draw" in text, (record.seq, lines)
                    else:
                        assert f"{game.players[event.seat]} draws" in text, (record.seq, lines)
                hidden = {
                    name(s.value)
                    for s in _secrets(tuple(type(event).__event_fields__(event)))
                    if s.known and not s.owned_by(seat)
                }
                for card in hidden - mine_names:
                    searched += 1
                    if _named(card, text):
                        assert _named(card, public), (
                            f"record {record.seq} names {card} to {player}: {lines}"
                        )
    assert searched > 100


def _named(card: str, text: str) -> bool:
    return re.search(rf"(?<![\w/]){re.escape(card)}(?![\w/])", text) is not None


@pytest.mark.parametrize("stem", ["jedi-duel-4p", "epic-duels-master-2p"])
def test_the_full_file_tells_a_player_what_their_own_copy_tells(stem, tmp_path):
    """Told from the full log (which holds every secret) as a player, each record reads as it
    does from that player's own view of the game, which holds only their secrets."""
    import boardstate as bs

    game = bs.load_game(ROOT / "replays" / f"{stem}.msgpack")
    for seat in range(len(game.players)):
        path = tmp_path / f"{seat}.msgpack"
        bs.save_game(game, path, viewer=seat)
        copy = bs.load_game(path)
        for full, own in zip(game.records, copy.records, strict=True):
            assert bs.describe(game, full, seat) == bs.describe(copy, own, seat)


def test_in_the_peer_mode_the_shares_tell_what_they_decided(monkeypatch):
    """A peer game's dice and draws ride on the shares of the randomness that complete the
    decision: their line says them (as the copy's player may know them)."""
    import test_peer

    import boardstate as bs

    monkeypatch.setattr(test_peer, "MODULE", bs.get_module("epic-duels"))
    table = test_peer.Table(2, rng_seed=3)
    table.play_out()
    game = table.copies[0]  # (alice's own copy: bob's cards are not in it)
    lines = bs.records_said(game, game.records, 0)
    shares = [line for line in lines if "shares of the randomness" in line]
    assert any(re.search(r" — .*turn \d+: \w+ rolls ", line) for line in shares)
    assert any("you draw " in line for line in shares)
    assert any("bob draws " in line for line in shares)


def test_a_module_reads_no_secret_its_viewer_does_not_hold():
    """The engine seals the events before the module's ``tell`` sees them: a hand dealt to
    ben is 'ben draws 5 cards' to ann and to a spectator, and ben's cards to ben."""
    import boardstate as bs
    from boardstate.modules.jedi_duel._cards import name
    from boardstate.modules.jedi_duel._state import CardsDrawn

    module = bs.get_module("jedi-duel")
    game = bs.Game.new(module, ["ann", "ben"], {}, seed=b"the story", created="2026-01-01")
    decider = game.decider
    header = game.header
    before = decider.initial(header.options, header.players, header.revision)
    events = game.records[0].events
    dealt = next(e for e in events if type(e) is CardsDrawn and e.seat == 1)
    assert all(c.known for c in dealt.cards)  # (the full log holds them)
    for viewer in (None, -1, 0):
        assert "ben draws 5 cards" in decider.tell(before, events, viewer)
    said = decider.tell(before, events, 1)
    assert f"you draw {', '.join(name(c.value) for c in dealt.cards)}" in said


def test_teller_refuses_what_it_cannot_tell():
    from boardstate.modules.jedi_duel._state import EVENTS, CardsDrawn
    from boardstate.rules import Teller

    teller = Teller(EVENTS)
    teller.on(CardsDrawn)(lambda s, e, seat: "drawn")
    with pytest.raises(TypeError, match="has a handler already"):
        teller.on(CardsDrawn)(lambda s, e, seat: None)
    with pytest.raises(TypeError, match="not one of this teller's events"):
        teller.on(int)
    with pytest.raises(TypeError, match="needs at least one event type"):
        teller.on()


def test_a_run_of_events_is_told_at_once():
    from boardstate.rules import Teller, event

    @event("t.step")
    class Step:
        n: int

    @event("t.other")
    class Other:
        pass

    teller = Teller((Step, Other))
    teller.on(Step, run=True)(lambda s, run, seat: f"{len(run)} steps from {s}")
    tell = teller.teller(lambda s, e: s + (e.n if type(e) is Step else 0))
    events = (Step(1), Step(2), Other(), Step(4))
    assert tell(0, events, None) == ("2 steps from 0", "1 steps from 3")


# ---------------------------------------------------------------------------- regenerate
def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for old in GOLDEN.glob("*.txt"):
        old.unlink()
    for sample, player in cases():
        path = golden_path(sample, player)
        path.write_text(log_text(sample, player))
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
