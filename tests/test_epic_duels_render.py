"""Epic Duels drawn for a seat: the text of ``show``, the SVG picture (``show --svg``), the data
of ``show --json``; and the chess-style axis labels of the geometry drawings they use."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

import boardstate as bs
from boardstate.cli import cli
from boardstate.geometry import Piece, render_svg, render_text
from boardstate.modules.epic_duels import MODULE
from boardstate.modules.epic_duels._notation import card_label
from boardstate.modules.epic_duels._render import piece_marks, render, to_json
from boardstate.modules.epic_duels._space import square_name
from boardstate.modules.epic_duels._state import DEFEND, DIE_NAMES, MOVE, NOWHERE, OVER, put
from boardstate.modules.epic_duels._svg import MINOR_SCALE, PIECE_COLOURS, svg, token_labels
from boardstate.modules.epic_duels.boards import BOARDS
from boardstate.testing import random_game

SVG = "{http://www.w3.org/2000/svg}"
OPTIONS = {"board": "kamino", "characters": "luke,vader"}


class _Found(Exception):
    pass


def game_when(predicate, seeds=range(8), options=OPTIONS) -> bs.Game:
    """The first game (random legal commands) to reach a state where ``predicate`` holds."""
    kept = {}

    def stop(game):
        if predicate(game.state):
            kept["game"] = game
            raise _Found

    for seed in seeds:
        try:
            random_game(MODULE, seed, 2, options=options, check_each=stop)
        except _Found:
            return kept["game"]
    raise AssertionError("no game reached the state wanted")


def seen_by(game: bs.Game, seat):
    return game.decider.view(game.state, seat)


@pytest.fixture(scope="module")
def midgame() -> bs.Game:
    """Kamino, Luke and Leia against Vader and two stormtroopers, the pawns placed, a turn on."""
    return game_when(lambda s: s.phase == MOVE and s.turns >= 3 and any(s.damage))


@pytest.fixture(scope="module")
def finished() -> bs.Game:
    return random_game(MODULE, 1, 2, options={"board": "throne-room"})


# ---------------------------------------------------------------------------------- text
def test_text_has_title_board_with_chess_labels_and_every_character(midgame):
    s = seen_by(midgame, 0)
    text = render(s, 0)
    lines = text.splitlines()
    title = lines[0]
    assert title.startswith(f"Kamino Platform, turn {s.turns}: {s.players[s.turn]}'s turn")
    assert f"die {DIE_NAMES[s.die]}, " in title and "left" in title
    assert title.endswith(f"to act: {s.players[s.queue[0]]} (move)")
    assert lines[1] == "    a b c d e f g h i j"
    assert [line[:4] for line in lines[2:9]] == [f"{n:>3} " for n in range(7, 0, -1)]
    assert lines[9] == lines[1]
    board = s.roster.board
    marks = piece_marks(s)
    for i, c in enumerate(s.roster.chars):
        player = s.players[c.seat]
        if s.square[i] == NOWHERE:
            assert f"  {marks[i]}  {c.id} ({player}): destroyed" in lines
        else:
            where = square_name(board, s.square[i])
            assert (
                f"  {marks[i]}  {c.id} ({player}) at {where}: {c.hp - s.damage[i]}/{c.hp}" in lines
            )
    assert "  ~  water: blocks movement" in lines


def _legend(text: str) -> list[str]:
    """The legend under the map: its terrain kinds, then a line per piece."""
    return text.split("\n\n")[1].splitlines()


def test_the_legend_lists_the_pieces_by_number_not_the_start_squares(midgame):
    """Issue 23, item 6: the legend lists the pieces, each under its number, every character
    in the order of the roster (on the board or not); the twelve named start squares are
    neither listed nor drawn."""
    s = seen_by(midgame, 0)
    text = render(s, 0)
    legend = _legend(text)
    terrain = list(dict.fromkeys(t.name for t in s.roster.board.terrain))
    assert [line.split(":")[0][5:] for line in legend[: len(terrain)]] == terrain
    pieces = legend[len(terrain) :]
    marks = piece_marks(s)
    assert len(pieces) == len(s.roster.chars) == len(set(marks))
    for i, (line, c) in enumerate(zip(pieces, s.roster.chars)):
        assert line.startswith(f"  {marks[i]}  {c.id} ({s.players[c.seat]})")
    assert "".join(marks) == "123456789abcdefghijklmnop"[: len(marks)]
    drawing = "\n".join(text.splitlines()[2:9])
    for square in s.roster.board.named:
        assert f"{square.name} at" not in text
        assert square.symbol not in drawing
    for i in range(len(s.roster.chars)):
        if s.square[i] != NOWHERE:
            col, row = s.roster.board.cells[s.square[i]]
            assert text.splitlines()[2 + row][4 + 2 * col] == marks[i]


@pytest.mark.parametrize(
    "options,players",
    [({"board": "geonosis", "variant": "master"}, 4), ({"variant": "team"}, 6), ({}, 2)],
)
def test_a_piece_keeps_its_number_from_one_render_to_the_next(options, players):
    """However the pieces move (and the order they stand in on the board changes), or leave
    the board, each keeps the number it had: the character's, fixed for the game."""
    seen: dict[str, str] = {}
    orders = set()

    def check(game):
        s = game.state
        if s.roster is None:
            return
        text = render(seen_by(game, 0), 0)
        standing = []
        for line in _legend(text):
            mark, rest = line[2], line[5:]
            if " (" not in rest:
                continue  # a terrain kind
            who = rest.split(" (", 1)[0]
            assert seen.setdefault(who, mark) == mark, (who, mark)
            if " at " in rest:
                standing.append(who)
        cells = {c.id: s.square[i] for i, c in enumerate(s.roster.chars) if s.square[i] >= 0}
        orders.add(tuple(sorted(standing, key=lambda who: cells[who])))

    random_game(MODULE, 5, players, options=options, check_each=check, stop_after=120)
    assert len(orders) > 3  # (the pieces did change places in reading order)
    assert len(seen) == len(set(seen.values())) >= players * 2


def test_text_names_only_your_own_hand(midgame):
    public = render(seen_by(midgame, None), None)
    for seat in (0, 1):
        other = 1 - seat
        s = seen_by(midgame, seat)
        mine = [card_label(s, seat, c.value) for c in s.hands[seat]]
        text = render(s, seat)
        assert f"  hand: {len(mine)} cards: {', '.join(mine)}" in text.splitlines()
        assert f"  hand: {len(s.hands[other])} cards" in text.splitlines()
        theirs = {card_label(s, other, c.value) for c in midgame.state.hands[other]}
        assert theirs and not any(label in text for label in theirs - _discarded(public))
        # even handed the whole table unsealed, a seat's text is that of its view
        assert render(midgame.state, seat) == text
    assert all(re.fullmatch(r"  hand: \d+ cards?", line) for line in _hands(public))


def _discarded(text: str) -> set[str]:
    """Card labels a text shows publicly (in the discard piles)."""
    return {
        label
        for line in text.splitlines()
        if line.startswith("  discard pile")
        for label in line.split(": ", 1)[-1].replace(" and ", ", ").split(", ")
    }


def _hands(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("  hand: ")]


def test_text_piles_and_discards(midgame):
    s = seen_by(midgame, 1)
    text = render(s, 1)
    for p in s.seats:
        assert f"  draw pile: {len(s.piles[p])} card" in text
        top = s.discards[p][-1:]
        if top:
            assert f"top first: {card_label(s, p, top[0])}" in text


def test_text_shows_held_characters_and_shown_cards(midgame):
    s = seen_by(midgame, 0)
    standing = next(i for i in range(len(s.square)) if s.square[i] != NOWHERE)
    s = s._replace(held=put(s.held, standing, 2), seen=put(s.seen, 0, (-1, s.hands[0][:2])))
    text = render(s, 0)
    assert "held (2 cards to free)" in text
    shown = ", ".join(f"{i + 1} {card_label(s, 0, c.value)}" for i, c in enumerate(s.hands[0][:2]))
    assert f"You see cards of your draw pile: {shown}" in text  # (numbered: 'take 2')
    assert "You see" not in render(seen_by(midgame, 1), 1)
    shown = s._replace(seen=put(s.seen, 0, (1, ())))
    assert "You were shown ben's hand: no cards" in render(shown, 0)


def test_text_of_a_combat_keeps_the_attack_card_face_down():
    game = game_when(lambda s: s.phase == DEFEND)
    s = seen_by(game, None)
    attacker, defender = (s.roster.chars[k].id for k in s.combat[:2])
    assert (
        f"Combat: {attacker} attacks {defender}; attack card: face down; defence card: "
        "not chosen yet"
    ) in render(s, None)
    assert to_json(s, None)["combat"]["attack"] == "face down"


def test_text_of_a_card_being_resolved():
    game = game_when(lambda s: bool(s.stack))
    s = seen_by(game, 0)
    frame = s.stack[0]
    assert f"Resolving: {card_label(s, frame[0], frame[1])} ({s.players[frame[0]]}" in render(s, 0)


def test_text_of_a_finished_game(finished):
    s = seen_by(finished, None)
    assert s.phase == OVER
    text = render(s, None)
    assert text.splitlines()[0] == f"Emperor's Throne Room, turn {s.turns}: game over"
    winners = " and ".join(s.players[w] for w in s.winners)
    assert text.splitlines()[-1].startswith(f"Game over: {s.end_reason}; winner")
    assert winners in text.splitlines()[-1]
    outcome = to_json(s, None)["outcome"]
    assert outcome == {"reason": s.end_reason, "winners": [s.players[w] for w in s.winners]}


# ---------------------------------------------------------------------------------- data
def test_json_holds_what_the_seat_may_know(midgame):
    s = seen_by(midgame, 0)
    data = json.loads(json.dumps(to_json(s, 0)))
    assert data["board"] == "kamino" and data["phase"] == "move"
    assert data["turn"] == s.turns and data["die"] == DIE_NAMES[s.die]
    assert data["actions"] == s.actions and data["to_act"] == [s.players[s.queue[0]]]
    for entry, c, square, damage in zip(data["characters"], s.roster.chars, s.square, s.damage):
        assert entry["id"] == c.id and entry["hp"] == c.hp and entry["damage"] == damage
        assert entry["square"] == (
            None if square == NOWHERE else square_name(s.roster.board, square)
        )
    me, other = data["players"]
    assert me["cards"] == [card_label(s, 0, c.value) for c in s.hands[0]]
    assert other["cards"] is None and other["hand"] == len(s.hands[1])
    assert other["discards"] == [[card_label(s, 1, k) for k in s.discards[1]]]
    assert to_json(seen_by(midgame, None), None)["players"][0]["cards"] is None


# ---------------------------------------------------------------------------------- picture
def test_svg_is_well_formed_with_pieces_wounds_and_panel(midgame):
    s = seen_by(midgame, 1)
    root = ET.fromstring(svg(s, 1))
    assert root.tag == f"{SVG}svg"
    pieces = root.findall(f".//{SVG}g[@class='pieces']/{SVG}g")
    standing = [i for i in range(len(s.square)) if s.square[i] != NOWHERE]
    assert len(pieces) == len(standing)
    drawn = {tuple(t.text for t in g.findall(f"{SVG}text")) for g in pieces}
    labels = token_labels(s)
    for i in standing:
        c = s.roster.chars[i]
        assert (labels[i], f"{c.hp - s.damage[i]}/{c.hp}") in drawn
    fills = {g.get("class"): g.find(f"{SVG}circle").get("fill") for g in pieces}
    light, dark = PIECE_COLOURS["light"][0], PIECE_COLOURS["dark"][0]
    assert fills == {"piece side-light": light, "piece side-dark": dark}
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert [c for c in "abcdefghij" if c in texts] == list("abcdefghij")
    assert all(str(n) in texts for n in range(1, 8))
    panel = " ".join(t.text for t in root.find(f"{SVG}g[@class='panel']").iter(f"{SVG}text"))
    assert f"Die: {DIE_NAMES[s.die]}" in panel and f"Turn {s.turns}: " in panel
    legend = " ".join(t.text for t in root.find(f"{SVG}g[@class='legend']").iter(f"{SVG}text"))
    assert "water: blocks movement" in legend and "obstacle: blocks movement and sight" in legend
    for c, label in zip(s.roster.chars, labels):
        assert c.short in panel and label in panel
    assert int(root.get("width")) > len("abcdefghij") * 64
    # (past the set-up, the start squares' names say nothing: the map leaves them out)
    assert not root.findall(f".//{SVG}g[@class='named-squares']/{SVG}text")


def test_svg_marks_held_characters_and_the_end(midgame, finished):
    s = seen_by(midgame, 0)
    standing = next(i for i in range(len(s.square)) if s.square[i] != NOWHERE)
    root = ET.fromstring(svg(s._replace(held=put(s.held, standing, 3)), 0))
    assert len(root.findall(f".//{SVG}circle[@class='held']")) == 1
    over = ET.fromstring(svg(seen_by(finished, None), None))
    assert "game over" in " ".join(t.text or "" for t in over.iter(f"{SVG}text"))


# ---------------------------------------------------------------------------------- accessible
def luminance(colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb`` (or ``#rgb``, white, black): 0 black to 1 white."""
    colour = {"white": "#ffffff", "black": "#000000"}.get(colour, colour)
    if len(colour) == 4:
        colour = "#" + "".join(c * 2 for c in colour[1:])
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours' lightness (1: alike in greyscale, 21: black on white)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def terrain_looks(root) -> dict[str, tuple[str, str | None]]:
    """Terrain name -> (its colour, the design of its pattern or None) as the picture draws it."""
    patterns = {p.get("id"): p for p in root.iter(f"{SVG}pattern")}
    looks = {}
    for rect in root.findall(f".//{SVG}g[@class='cells']/{SVG}rect"):
        fill = rect.get("fill")
        if fill.startswith("url(#"):
            pattern = patterns[fill[5:-1]]
            look = (pattern.find(f"{SVG}rect").get("fill"), pattern.get("class"))
        else:
            look = (fill, None)
        assert looks.setdefault(rect.get("class").split(" ", 1)[1], look) == look
    return looks


def fresh(scene: str, seat=0):
    """The set-up of a duel on ``scene``, seen by ``seat``."""
    game = bs.Game.new(MODULE, ["ann", "ben"], {"board": scene}, seed=b"x")
    return seen_by(game, seat)


GREY_APART = 2.0  # the contrast ratio two terrain kinds must have at least


@pytest.mark.parametrize("scene", ["kamino", "throne-room", "geonosis", "carbon-chamber"])
def test_terrain_kinds_of_a_board_differ_in_greyscale(scene):
    """Each pair of terrain kinds on a board differs in lightness and in pattern."""
    looks = terrain_looks(ET.fromstring(svg(fresh(scene), 0)))
    assert set(looks) == {t.name for t in BOARDS[scene].terrain} and len(looks) >= 2
    names = sorted(looks)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert contrast(looks[a][0], looks[b][0]) >= GREY_APART, (scene, a, b)
            assert looks[a][1] != looks[b][1], (scene, a, b)


def test_throne_room_mist_and_kamino_water_do_not_look_alike():
    mist = terrain_looks(ET.fromstring(svg(fresh("throne-room"), 0)))["mist"]
    water = terrain_looks(ET.fromstring(svg(fresh("kamino"), 0)))["water"]
    assert contrast(mist[0], water[0]) >= GREY_APART
    assert mist[1] and water[1] and mist[1] != water[1]
    # the boards' own colours are near in lightness: the picture chooses others
    board_mist = next(t.fill for t in BOARDS["throne-room"].terrain if t.name == "mist")
    board_water = next(t.fill for t in BOARDS["kamino"].terrain if t.name == "water")
    assert contrast(board_mist, board_water) < GREY_APART


@pytest.mark.parametrize("scene", ["kamino", "throne-room", "geonosis", "carbon-chamber"])
def test_legend_names_every_terrain_kind_of_the_board(scene):
    root = ET.fromstring(svg(fresh(scene), 0))
    legend = root.find(f"{SVG}g[@class='legend']")
    named = [t.text.split(":")[0] for t in legend.findall(f"{SVG}text[@class='terrain-legend']")]
    assert sorted(named) == sorted({t.name for t in BOARDS[scene].terrain})
    looks = terrain_looks(root)
    for swatch in legend.findall(f"{SVG}rect"):  # each beside a swatch drawn as its squares are
        kind = swatch.get("class").split()[1]
        cell = root.find(f".//{SVG}g[@class='cells']/{SVG}rect[@class='terrain {kind}']")
        assert swatch.get("fill") == cell.get("fill") and kind in looks


def test_svg_has_a_title_and_says_the_position_in_words(midgame):
    s = seen_by(midgame, 0)
    root = ET.fromstring(svg(s, 0))
    assert root.get("role") == "img"
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert title.text == f"Kamino Platform, turn {s.turns}: {s.players[s.turn]}'s turn"
    assert root.get("aria-labelledby").split() == [title.get("id"), desc.get("id")]
    words = desc.text
    assert f"Last die roll {DIE_NAMES[s.die]}: " in words
    for i, c in enumerate(s.roster.chars):
        if s.square[i] != NOWHERE:
            where = square_name(s.roster.board, s.square[i])
            left = f"{c.hp - s.damage[i]} of {c.hp} wound points left"
            assert f"{c.name} ({c.short}, {s.players[c.seat]}, " in words
            assert f"on {where}, {left}" in words
    assert "Terrain: floor (open, plain); water (blocks movement, wavy lines); " in words
    assert f"{s.players[0]} (you): {len(s.hands[0])} cards in hand" in words
    over = seen_by(random_game(MODULE, 1, 2, options={"board": "throne-room"}), None)
    over_root = ET.fromstring(svg(over, None))
    winner = over.players[over.winners[0]]
    assert over_root.find(f"{SVG}title").text.endswith(f"game over, winner: {winner}")
    assert f"The game ended: {over.end_reason}." in over_root.find(f"{SVG}desc").text


def _die(root):
    panel = root.find(f"{SVG}g[@class='panel']")
    return panel.find(f"{SVG}g[@class='die-face']")


@pytest.mark.parametrize("face", range(len(DIE_NAMES)))
def test_die_face_shows_the_last_roll(midgame, face):
    s = seen_by(midgame, 0)._replace(die=face)
    die = _die(ET.fromstring(svg(s, 0)))
    number = die.find(f"{SVG}text[@class='die-number']").text
    assert number == DIE_NAMES[face].split("-")[0]
    assert (die.find(f"{SVG}text[@class='die-all']") is not None) == DIE_NAMES[face].endswith("ALL")
    assert die.find(f"{SVG}title").text == f"die: {DIE_NAMES[face]}"
    assert die.find(f"{SVG}rect") is not None


def test_die_is_kept_at_the_end_and_absent_before_any_roll(finished):
    over = seen_by(finished, None)
    root = ET.fromstring(svg(over, None))
    assert _die(root).find(f"{SVG}title").text == f"die: {DIE_NAMES[over.die]}"
    panel = [t.text for t in root.find(f"{SVG}g[@class='panel']").iter(f"{SVG}text")]
    assert f"Last roll: {DIE_NAMES[over.die]}" in panel
    assert _die(ET.fromstring(svg(fresh("geonosis"), 0))) is None


def test_wounds_left_are_text_and_a_bar(finished):
    s = seen_by(finished, None)
    panel = ET.fromstring(svg(s, None)).find(f"{SVG}g[@class='panel']")
    wounds = [t.text for t in panel.findall(f"{SVG}text[@class='wounds']")]
    bars = panel.findall(f"{SVG}g[@class='wound-bar']")
    assert len(wounds) == len(bars) == len(s.roster.chars)
    for i, (c, text, bar) in enumerate(zip(s.roster.chars, wounds, bars)):
        left = c.hp - s.damage[i] if s.alive(i) else 0
        assert text == (f"{left}/{c.hp}" if s.alive(i) else "destroyed")
        drawn = bar.find(f"{SVG}rect[@class='left']")
        track = bar.find(f"{SVG}rect")
        assert (drawn is None) == (left <= 0)
        if drawn is not None:
            assert int(drawn.get("width")) == round(int(track.get("width")) * left / c.hp)
    assert any(text == "destroyed" for text in wounds)  # (this game destroys someone)


def test_sides_differ_without_colour():
    """Duel: pale blue discs with black labels against dark red discs with white ones, apart in
    greyscale; a free-for-all's further players get other shapes."""
    root = ET.fromstring(svg(fresh("kamino"), 0))
    sides = {}
    for g in root.findall(f".//{SVG}g[@class='pieces']/{SVG}g"):
        token, label = g.find(f"{SVG}*[@class='token']"), g.find(f"{SVG}text")
        sides.setdefault(g.get("class"), (token.get("fill"), label.get("fill")))
    (light, light_ink), (dark, dark_ink) = sides["piece side-light"], sides["piece side-dark"]
    assert contrast(light, dark) > 10 and contrast(light, light_ink) > 10
    assert contrast(dark, dark_ink) > 10
    game = random_game(MODULE, 2, 4, options={"board": "geonosis"}, stop_after=60)
    drawn = ET.fromstring(svg(seen_by(game, 0), 0))
    tokens = {
        g.get("class"): g.find(f"{SVG}*[@class='token']")
        for g in drawn.findall(f".//{SVG}g[@class='pieces']/{SVG}g")
    }
    looks = {side: (token.tag, token.get("fill")) for side, token in tokens.items()}
    shapes = [tag for tag, _ in looks.values()]
    assert len(looks) == 4 and shapes.count(f"{SVG}circle") == 2 and len(set(shapes)) == 3
    circles = [looks[side][1] for side in looks if looks[side][0] == f"{SVG}circle"]
    assert sorted(circles) == sorted(fill for fill, _ in PIECE_COLOURS.values())


def _tokens(root) -> dict[str, tuple[ET.Element, ET.Element]]:
    """Per piece (by its ``<title>``'s first word: the character's short name), its token and
    its group."""
    found = {}
    for g in root.findall(f".//{SVG}g[@class='pieces']/{SVG}g"):
        found[g.find(f"{SVG}title").text.split()[0]] = (g.find(f"{SVG}*[@class='token']"), g)
    return found


@pytest.mark.parametrize(
    "options,players",
    [
        ({"board": "geonosis", "characters": "obi-wan,dooku"}, 2),
        ({"variant": "team", "board": "kamino", "characters": "luke,vader,yoda,maul,han,boba"}, 6),
    ],
)
def test_tokens_tell_the_characters_apart(options, players):
    """Each character's token carries its own initials (and its pawn's number), its side's
    colour, and a minor's token is smaller than a main character's."""
    game = random_game(MODULE, 3, players, options=options, stop_after=12)
    s = seen_by(game, 0)
    labels = token_labels(s)
    assert len(set(labels)) == len(labels)  # (no two characters alike)
    root = ET.fromstring(svg(s, 0))
    tokens = _tokens(root)
    radius = {}
    for i, c in enumerate(s.roster.chars):
        if s.square[i] == NOWHERE:
            continue
        token, group = tokens[c.short]
        assert group.find(f"{SVG}text[@class='label']").text == labels[i]
        radius[i] = float(token.get("r"))
    assert {labels[i] for i in radius} == set(labels)  # (everyone placed)
    mains = {radius[i] for i in radius if s.roster.chars[i].main}
    minors = {radius[i] for i in radius if not s.roster.chars[i].main}
    assert len(mains) == len(minors) == 1 and minors.pop() == mains.pop() * MINOR_SCALE


def test_initials_of_every_character():
    s = fresh("kamino")
    assert token_labels(s) == ("OWK", "CT1", "CT2", "CD", "SBD1", "SBD2")
    game = bs.Game.new(
        MODULE,
        ["ann", "ben", "cat", "dan", "eve", "fay"],
        {"variant": "team", "characters": "yoda,vader,mace,maul,han,emperor"},
        seed=b"x",
    )
    labels = dict(zip((c.id for c in game.state.roster.chars), token_labels(game.state)))
    assert labels["yoda"] == "Yo" and labels["vader"] == "DV" and labels["mace"] == "MW"
    assert labels["emperor"] == "EP" and labels["han"] == "HS" and labels["chewbacca"] == "Ch"
    assert [labels[f"clone-trooper-{n}"] for n in (1, 2, 3, 4)] == ["CT1", "CT2", "CT3", "CT4"]
    assert labels["stormtrooper-1"] == "St1" and labels["royal-guard-2"] == "RG2"


def test_wound_tracks_by_the_tokens_show_the_wound_points_left(finished, midgame):
    """Each standing character's token has a track under it: the part left of the full."""
    for s in (seen_by(midgame, 0), seen_by(finished, None)):
        tokens = _tokens(ET.fromstring(svg(s, None)))
        for i, c in enumerate(s.roster.chars):
            if s.square[i] == NOWHERE:
                assert c.short not in tokens
                continue
            track = tokens[c.short][1].find(f"{SVG}g[@class='track']")
            left = c.hp - s.damage[i]
            assert (int(track.get("data-left")), int(track.get("data-full"))) == (left, c.hp)
            whole, part = track.find(f"{SVG}rect"), track.find(f"{SVG}rect[@class='left']")
            width = float(whole.get("width"))
            assert (part is None) == (left <= 0)
            if part is not None:
                assert float(part.get("width")) == pytest.approx(width * left / c.hp, abs=0.01)
    assert any(s.damage)


def test_svg_reads_nothing_hidden(midgame):
    """The picture of the whole table (every card's value at hand) is the picture of the view."""
    for seat in (0, 1, None):
        seen = svg(seen_by(midgame, seat), seat)
        assert svg(midgame.state, seat) == seen
        assert svg(seen_by(midgame, seat), seat) == seen  # and the same each time


# ---------------------------------------------------------------------------------- the command
@pytest.fixture(scope="module")
def game_file(midgame, tmp_path_factory):
    path = tmp_path_factory.mktemp("show") / "game.msgpack"
    bs.save_game(midgame, path)
    return path


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_show_svg_prints_the_seats_picture(game_file, midgame):
    result = run("show", game_file, "--as", "ann", "--svg")
    assert result.exit_code == 0, result.output
    assert result.stdout == svg(seen_by(midgame, 0), 0)
    ET.fromstring(result.stdout)
    text = run("show", game_file, "--as", "ben")
    assert text.exit_code == 0 and text.stdout.startswith("Kamino Platform, turn ")


def test_show_out_named_svg_draws_without_the_flag(game_file, tmp_path, midgame):
    target = tmp_path / "pos.svg"
    assert run("show", game_file, "--as", "ann", "-o", target).exit_code == 0
    assert target.read_text(encoding="utf-8") == svg(seen_by(midgame, 0), 0)
    text = tmp_path / "pos.txt"
    assert run("show", game_file, "--as", "ann", "-o", text).exit_code == 2


def test_show_svg_out_writes_once_and_refuses_to_overwrite(game_file, tmp_path):
    target = tmp_path / "table.svg"
    first = run("show", game_file, "--as", "ben", "--svg", "-o", target)
    assert first.exit_code == 0 and target.read_text(encoding="utf-8").startswith("<svg")
    target.write_text("mine", encoding="utf-8")
    again = run("show", game_file, "--as", "ben", "--svg", "--out", target)
    assert again.exit_code == 2 and "exists; not overwriting it" in again.output
    assert target.read_text(encoding="utf-8") == "mine"
    forced = run("show", game_file, "--svg", "-o", target, "--force")
    assert forced.exit_code == 0 and target.read_text(encoding="utf-8").startswith("<svg")
    own = run("show", game_file, "--svg", "-o", game_file, "--force")
    assert own.exit_code == 2 and "the file the command reads" in own.output


def test_show_svg_of_a_game_that_draws_nothing(tmp_path):
    game = bs.Game.new(bs.get_module("rock-paper-scissors"), ["ann", "ben"], {}, seed=b"x")
    path = tmp_path / "duel.msgpack"
    bs.save_game(game, path)
    result = run("show", path, "--svg")
    assert result.exit_code == 2
    assert result.output == "boardstate: error: rock-paper-scissors draws no pictures\n"
    assert run("show", path, "-o", tmp_path / "x.svg").exit_code == 2  # (.svg: a picture)
    assert not (tmp_path / "x.svg").exists()
    assert run("show", path, "--svg", "--json").exit_code == 2


# ---------------------------------------------------------------------------------- geometry
def test_geometry_chess_labels_and_notes():
    board = BOARDS["geonosis"]
    pieces = {(8, 3): Piece("obi-wan", "ann", "16/18"), (3, 3): Piece("sbd1", "ben")}
    text = render_text(board, pieces, labels="chess")
    lines = text.splitlines()
    assert lines[1] == lines[9] == "    a b c d e f g h i j"
    assert lines[2].startswith("  7 ") and lines[8].startswith("  1 ")
    assert "  O  obi-wan at i4" in lines
    assert text.endswith("  1  sbd1 (ben) at d4\n  2  obi-wan (ann) at i4: 16/18\n")
    assert render_text(board, pieces).splitlines()[1] == "    0 1 2 3 4 5 6 7 8 9"
    root = ET.fromstring(
        render_svg(board, pieces, labels="chess", colours={"ann": ("white", "black")})
    )
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "a" in texts and "j" in texts and "7" in texts and "0" not in texts
    assert "16/18" in texts
    tokens = root.findall(f".//{SVG}g[@class='pieces']//{SVG}*[@class='token']")
    assert "white" in {t.get("fill") for t in tokens} and len({t.get("fill") for t in tokens}) == 2
    with pytest.raises(bs.BoardstateError) as error:
        render_text(board, labels="roman")
    assert error.value.code == "bad-option"


def test_geometry_text_with_the_callers_marks_and_without_the_named_squares():
    board = BOARDS["geonosis"]
    pieces = {(8, 3): Piece("obi-wan", "ann"), (3, 3): Piece("sbd1", "ben")}
    text = render_text(board, pieces, labels="chess", marks={(8, 3): "1", (3, 3): "O"}, named=False)
    lines = text.splitlines()
    assert lines[5] == "  4 . . . O . . . . 1 ."  # (O: free once the named squares are not drawn)
    assert text.endswith("  1  obi-wan (ann) at i4\n  O  sbd1 (ben) at d4\n")  # (in marks' order)
    assert " at " not in "".join(lines[:-2]) and "L" not in text
    assert "  O  obi-wan at i4" in render_text(board, pieces, labels="chess").splitlines()
    for marks in ({(8, 3): "1"}, {(8, 3): "1", (3, 3): "1"}, {(8, 3): "#", (3, 3): "2"}):
        with pytest.raises(bs.BoardstateError) as error:
            render_text(board, pieces, marks=marks, named=False)
        assert error.value.code == "bad-option"
    with pytest.raises(bs.BoardstateError):
        render_text(board, pieces, marks={(8, 3): "1", (3, 3): "O"})  # (O: obi-wan's square)


def test_random_states_render_without_error():
    """Every state of a short game renders for both players and a spectator."""
    pick = random.Random(3)

    def check(game):
        if pick.random() < 0.2:
            for seat in (0, 1, None):
                s = seen_by(game, seat)
                render(s, seat)
                to_json(s, seat)
        if pick.random() < 0.02:
            ET.fromstring(svg(seen_by(game, 0), 0))

    random_game(
        MODULE,
        4,
        2,
        options={"board": "carbon-chamber", "characters": "han,boba"},
        check_each=check,
        stop_after=150,
    )


def test_the_pictures_root_is_the_boards_drawings_as_it_was_written(midgame):
    """The picture holds the board's drawing as an element (not its text parsed back, issue 29)
    and writes its root as before: the drawing's attributes, then ``xmlns`` (where the parsed
    drawing had it)."""
    opening = svg(seen_by(midgame, 0), 0).split(">", 1)[0]
    names = re.findall(r' ([\w:-]+)="', opening)
    assert opening.startswith("<svg ")
    assert names == [
        "width",
        "height",
        "viewBox",
        "font-family",
        "role",
        "aria-labelledby",
        "xmlns",
    ]
