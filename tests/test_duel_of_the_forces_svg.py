"""Duel of the Forces drawn as an SVG picture (``boardstate show --svg``), in every edition and
rules revision: well formed and standalone, the villain up for grabs, the viewer's own hand face
up and every other hand as backs, no stock card and no sealed bid in it, scores, captured piles
and last bids, whose turn and the winner in the title, the sides apart in greyscale."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections import Counter
from itertools import combinations
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

import boardstate as bs
from boardstate.cli import cli
from boardstate.modules.duel_of_the_forces import MODULE, SPEC
from boardstate.modules.duel_of_the_forces._render import card_text
from boardstate.modules.duel_of_the_forces._rules import EDITIONS
from boardstate.modules.duel_of_the_forces._scoring import score
from boardstate.modules.duel_of_the_forces._state import (
    BID,
    NOT_BIDDING,
    OFFER,
    OVER,
    R2,
    R2_DECISION,
)
from boardstate.modules.duel_of_the_forces._svg import svg

SVG = "{http://www.w3.org/2000/svg}"
RULES = MODULE.rules
REVISIONS = tuple(range(SPEC.oldest_revision, SPEC.revision + 1))
MODULES = {r: bs.Module(attrs.evolve(SPEC, revision=r), RULES) for r in REVISIONS}
ROOT = Path(__file__).parent
SAMPLES = [
    *sorted((ROOT / "fixtures" / "duel-of-the-forces-revision-1").glob("*.msgpack")),
    *sorted((ROOT / "fixtures" / "duel-of-the-forces-revision-2").glob("*.msgpack")),
    *sorted((ROOT.parent / "replays").glob("duel-of-the-forces-*.msgpack")),
]


# ---------------------------------------------------------------------------------- games
def game_of(players, seed: int, options=None, revision=SPEC.revision) -> bs.Game:
    return bs.Game.new(MODULES[revision], list(players), dict(options or {}), seed=b"svg-%d" % seed)


def step(game: bs.Game, pick: random.Random) -> None:
    """One random command of one seat (a sealed bid is one seat's, the others follow)."""
    seat = pick.choice(game.to_act())
    game.play(seat, pick.choice(game.legal(seat)), entropy=pick.randbytes)


def positions(players, seed: int, options=None, revision=SPEC.revision) -> list:
    """The states of one random game through the engine, before every command, and the end."""
    game = game_of(players, seed, options, revision)
    pick = random.Random(seed)
    kept = []
    while game.outcome() is None:
        kept.append(game.state)
        step(game, pick)
    return kept + [game.state]


def play_until(predicate, players=("ann", "ben", "cat"), seed: int = 1) -> bs.Game:
    game = game_of(players, seed)
    pick = random.Random(seed)
    while not predicate(game.state):
        assert game.outcome() is None
        step(game, pick)
    return game


@pytest.fixture(scope="module")
def played() -> list:
    return positions(["ann", "ben", "cat"], 1)


@pytest.fixture(scope="module")
def midgame() -> bs.Game:
    return play_until(lambda s: s.rounds >= 5 and s.phase == BID)


@pytest.fixture(scope="module")
def finished() -> bs.Game:
    return play_until(lambda s: s.phase == OVER)


def drawn(state, seat):
    """(the picture, its parsed root) of ``state`` as ``seat`` sees it."""
    picture = svg(RULES.view(state, seat), seat)
    return picture, ET.fromstring(picture)


def texts(element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


def title_of(card) -> str:
    return card.find(f"{SVG}title").text


def cards(element, kind: str = "") -> list[ET.Element]:
    return [
        g
        for g in element.iter(f"{SVG}g")
        if g.get("class", "").split()[:1] == ["card"]
        and (not kind or kind in g.get("class", "").split())
    ]


def player(root, seat: int) -> ET.Element:
    return root.find(f".//{SVG}g[@id='player-{seat}']")


def part(row, name: str) -> ET.Element:
    return row.find(f"{SVG}g[@class='{name}']")


def luminance(colour: str) -> float:
    """The relative luminance (WCAG) of ``#rrggbb``."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def check_document(picture: str, root) -> None:
    assert root.tag == f"{SVG}svg" and picture.startswith("<svg")
    assert root.get("role") == "img" and root.get("font-family") == "sans-serif"
    width, height = int(root.get("width")), int(root.get("height"))
    assert root.get("viewBox") == f"0 0 {width} {height}" and width > 0 and height > 0
    assert [child.tag for child in root[:2]] == [f"{SVG}title", f"{SVG}desc"]
    assert root[0].text.startswith("Duel of the Forces (") and root[1].text
    tags = {el.tag.split("}")[1] for el in root.iter()}
    assert not tags & {"script", "image", "use", "a", "foreignObject", "style", "font"}
    assert not any("href" in key for el in root.iter() for key in el.attrib)
    assert picture.count("http") == 1  # the namespace, and no other address
    assert "url(" not in picture and "@import" not in picture
    for card in cards(root):  # every card: a shape, a title, words
        assert card.find(f"{SVG}rect") is not None and title_of(card)
        if "back" in card.get("class").split():
            assert title_of(card) == "card back"
        else:
            assert texts(card) and texts(card)[0]


def _rebel_title(state, seat: int, card: int) -> str:
    if card == R2:
        return "R2-D2"
    icons = state.cards.icon_map[state.heroes[seat]][card - 1]
    return f"{state.heroes[seat].capitalize()} {card} ({icons} icon{'' if icons == 1 else 's'})"


def check_what_is_seen(state, seat) -> None:
    """Faces for the viewer's own hand, backs for every other; no stock card, no opening."""
    view = RULES.view(state, seat)
    picture, root = drawn(state, seat)
    check_document(picture, root)
    assert svg(state, seat) == picture  # (the full state draws the same: nothing more is read)
    for i, hand in enumerate(state.hands):
        drawn_hand = part(player(root, i), "hand")
        if i == seat:
            faces = cards(drawn_hand, "face")
            assert [title_of(c) for c in faces] == [_rebel_title(state, i, c) for c in hand]
            assert [texts(c)[0] for c in faces] == ["R2-D2" if c == R2 else str(c) for c in hand]
            assert not cards(drawn_hand, "back")
        else:
            assert not cards(drawn_hand, "face")
            assert len(cards(drawn_hand, "back")) == len(hand)
    # Empire cards face up: exactly those on the table (the villain up, R2-D2's card, the
    # set-aside ones, one per kind captured), never one of the stock.
    deck = state.cards.deck
    up = int(state.villain is not None and state.phase != OVER)
    up += int(state.phase == R2_DECISION and state.r2_card is not None)
    kinds = sum(len({(deck[c].name, deck[c].points) for c in pile}) for pile in state.captured)
    empire = cards(root, "villain") + cards(root, "vader")
    assert len(empire) == up + len(state.set_aside) + kinds
    for full, seen in zip(state.stock, view.stock):  # revisions 1-2: a face-down stock
        if hasattr(full, "commitment"):
            assert not seen.known
            assert full.salt.hex() not in picture and full.commitment.hex() not in picture


# ---------------------------------------------------------------------------------- every kind
@pytest.mark.parametrize("revision", REVISIONS)
@pytest.mark.parametrize("edition", EDITIONS)
def test_every_edition_and_revision_draws(edition, revision):
    phases = set()
    for n, seed in ((2, 11), (4, 12)):
        players = ["ann", "ben", "cat", "dan"][:n]
        states = positions(players, seed, {"edition": edition}, revision)
        for state in states[::3] + states[-1:]:
            assert state.edition == edition and state.revision == revision
            phases.add(state.phase)
            for seat in [*range(n), None]:
                check_what_is_seen(state, seat)
    assert {BID, OVER} <= phases


@pytest.mark.parametrize("path", SAMPLES, ids=[f"{p.parent.name}/{p.name}" for p in SAMPLES])
def test_the_sample_games_draw(path):
    game = bs.load_game(path)
    for seat in [*range(len(game.players)), None]:
        check_what_is_seen(game.state, seat)


def test_the_samples_cover_every_edition_and_the_older_revisions():
    games = [bs.load_game(p) for p in SAMPLES]
    assert {(g.state.edition, g.header.revision) for g in games} >= {
        (e, r) for e in EDITIONS for r in REVISIONS
    }


def test_the_same_state_draws_the_same_bytes(midgame, tmp_path):
    path = tmp_path / "g.msgpack"
    bs.save_game(midgame, path)
    again = bs.load_game(path)
    for seat in (0, 2, None):
        assert drawn(midgame.state, seat)[0] == drawn(again.state, seat)[0]
        assert drawn(midgame.state, seat)[0] == drawn(midgame.state, seat)[0]


def test_player_names_are_escaped(monkeypatch):
    # (a name from a file made before the name grammar: new games refuse it, files still read)
    monkeypatch.setattr("boardstate._header.check_new_names", lambda players: None)
    game = bs.Game.new(MODULE, ["<ann&co>", 'ben"b"'], {}, seed=b"svg-names")
    picture, root = drawn(game.state, 0)
    assert "<ann&co>" in root.find(f"{SVG}title").text and "<ann&co>" not in picture
    assert "&lt;ann&amp;co&gt;" in picture
    assert any('ben"b"' in t for t in texts(root))


# ---------------------------------------------------------------------------------- what is seen
def test_a_spectator_sees_no_hand_face(played):
    for state in played[::4]:
        _, root = drawn(state, None)
        for seat in range(3):
            assert not cards(part(player(root, seat), "hand"), "face")
        assert "(you)" not in " ".join(texts(root))


def test_a_sealed_bid_stays_out_of_every_picture():
    game = bs.Game.new(MODULE, ["ann", "ben", "cat"], {}, seed=b"svg-sealed")
    assert game.state.phase == BID and len(game.to_act()) == 3
    before = {seat: drawn(game.state, seat)[0] for seat in (0, 1, 2, None)}
    game.play(1, "play 7", entropy=lambda n: b"\x5a" * n)
    secret = game.round.commits[1]
    assert secret.known and secret.value is not None
    for seat in (0, 1, 2, None):
        after = drawn(game.state, seat)[0]
        assert after == before[seat]  # ben's bid changes nothing anyone is shown
        assert secret.salt.hex() not in after and secret.commitment.hex() not in after


# ---------------------------------------------------------------------------------- the table
def test_the_title_names_whose_turn():
    seen = set()
    for seed in range(6):
        for s in positions(["ann", "ben", "cat"], 20 + seed):
            _, root = drawn(s, 0)
            title = root.find(f"{SVG}title").text
            assert title.startswith(f"Duel of the Forces (Ravensburger 2015), round {s.rounds}: ")
            acting = [s.players[i] for i in RULES.to_act(s)]
            if s.phase == BID and acting:
                assert title.endswith(" to bid") and all(name in title for name in acting)
            elif s.phase == R2_DECISION:
                assert f"{s.players[s.r2_seat]} to keep or give" in title
            elif s.phase == OFFER:
                assert title.endswith(f"{s.players[s.asked]} to choose")
            for seat in range(3):
                head = player(root, seat).find(f"{SVG}text").text
                assert head.startswith("\u25b6 ") == (seat in RULES.to_act(s))
            seen.add(s.phase)
    assert {BID, R2_DECISION, OFFER, OVER} <= seen


def test_the_end_names_the_winner(finished):
    outcome = finished.outcome()
    names = [finished.players[w] for w in outcome.winners]
    for seat in (0, None):
        _, root = drawn(finished.state, seat)
        title = root.find(f"{SVG}title").text
        assert "game over, winner" in title and all(name in title for name in names)
        for i in range(3):
            head = player(root, i).find(f"{SVG}text").text
            assert ("winner" in head) == (i in outcome.winners)
        assert finished.state.end_reason in " ".join(texts(root))


def test_the_villain_scores_captures_and_last_bids(played):
    bids_seen = 0
    for s in played:
        _, root = drawn(s, 1)
        up = cards(root, "up-for-grabs")
        if s.villain is not None and s.phase != OVER:
            assert [title_of(c) for c in up] == [card_text(s, s.villain)]
        else:
            assert not up and "none up" in texts(root)
        assert f"{len(s.stock)} card" in " ".join(texts(root.find(f"{SVG}g[@class='table']")))
        for seat in range(3):
            row = player(root, seat)
            assert f"score {score(s.captured[seat], s.cards.deck, s.edition)}" in texts(row)[0]
            counts = Counter(card_text(s, c) for c in s.captured[seat])
            drawn_pile = [title_of(c) for c in cards(part(row, "captured"))]
            assert drawn_pile == [
                text + (f", {n} cards" if n > 1 else "") for text, n in counts.items()
            ]
            bid = [t for t in texts(row) if t.startswith("last bid: ")]
            if s.bids:
                b = s.bids[seat]
                words = "no bid" if b == NOT_BIDDING else "R2-D2" if b == R2 else None
                words = words or f"{s.heroes[seat].capitalize()} {b}"
                assert bid == [f"last bid: {words}"]
                bids_seen += 1
            else:
                assert not bid
    assert bids_seen


# ---------------------------------------------------------------------------------- greyscale
def test_the_sides_are_apart_in_greyscale(played):
    fills, inks = {}, {}
    for state in played:
        _, root = drawn(state, 0)
        for card in cards(root, "face"):
            kind = card.get("class").split()[2]
            fills.setdefault(kind, set()).add(card.find(f"{SVG}rect").get("fill"))
            inks.setdefault(kind, set()).update(t.get("fill") for t in card.iter(f"{SVG}text"))
    sides = ("rebel", "villain", "vader")
    assert set(sides) <= set(fills)
    assert all(len(fills[s]) == 1 and len(inks[s]) == 1 for s in sides)
    for a, b in combinations(sides, 2):
        (fa,), (fb,) = fills[a], fills[b]
        assert contrast(fa, fb) >= 1.5, (a, b)  # apart when printed in grey
    for side in sides:
        ((fill,), (ink,)) = fills[side], inks[side]
        assert contrast(fill, ink) >= 4.5, side  # the label reads on its card


# ---------------------------------------------------------------------------------- the command
def test_show_svg_writes_the_seats_picture(midgame, tmp_path):
    path = tmp_path / "duel.msgpack"
    bs.save_game(midgame, path)
    target = tmp_path / "pos.svg"
    args = ["show", str(path), "--as", "ann", "--svg", "-o", str(target)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert target.read_text(encoding="utf-8") == drawn(midgame.state, 0)[0]
    spectator = CliRunner().invoke(cli, ["show", str(path), "--svg"])
    assert spectator.exit_code == 0 and spectator.stdout == drawn(midgame.state, None)[0]
