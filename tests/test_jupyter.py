"""Jupyter: a game, a position in it and a board display as pictures in a notebook.

IPython asks what it displays for ``_repr_html_`` and ``_repr_svg_``: these tests hold those to
well-formed SVG and HTML, escaped names, the pictures the command line draws, and the rule that
a notebook shows nothing hidden (docs/jupyter.md).
"""

from __future__ import annotations

import ast
import html
import importlib.util
import random
import re
import shutil
import tempfile
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import attrs
import pytest

import boardstate as bs
from boardstate import UNKNOWN, Reveal, Secret
from boardstate._png import png_available
from boardstate._records import sealed_values
from boardstate.geometry import render_svg
from boardstate.modules.duel_of_the_forces import MODULE as DUEL
from boardstate.modules.epic_duels import MODULE as EPIC
from boardstate.modules.epic_duels.boards import BOARDS
from boardstate.modules.jedi_duel import MODULE as JEDI
from boardstate.modules.jedi_duel import _cards
from boardstate.testing import random_game

ROOT = Path(__file__).parent.parent
KAMINO = ROOT / "replays" / "epic-duels-kamino.msgpack"
DOC = ROOT / "docs" / "jupyter.md"
SVG_NS = "{http://www.w3.org/2000/svg}"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


# ---------------------------------------------------------------------------------- helpers
class _Html(HTMLParser):
    """HTML read strictly enough for a test: every element closed, in order; text kept."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.tags: list[str] = []
        self.data: list[str] = []

    def handle_starttag(self, tag, attributes) -> None:
        self.tags.append(tag)
        if tag not in VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag, attributes) -> None:
        self.tags.append(tag)

    def handle_endtag(self, tag) -> None:
        assert self.open and self.open[-1] == tag, f"</{tag}> closes {self.open[-1:]}"
        self.open.pop()

    def handle_data(self, data) -> None:
        self.data.append(data)

    @property
    def text(self) -> str:
        return "".join(self.data)


def parse_html(text: str) -> _Html:
    assert isinstance(text, str) and text
    parsed = _Html()
    parsed.feed(text)
    parsed.close()
    assert not parsed.open, f"unclosed: {parsed.open}"
    for svg in re.findall(r"<svg\b.*?</svg>", text, re.S):  # (inline pictures: XML too)
        parse_svg(svg)
    return parsed


def parse_svg(text: str) -> ET.Element:
    assert isinstance(text, str)
    root = ET.fromstring(text)
    assert root.tag == SVG_NS + "svg"
    return root


class _NoPicture:
    """A module's rules without ``svg``: a game that draws no pictures."""

    def __init__(self, rules) -> None:
        self._rules = rules

    def __getattr__(self, name):
        if name == "svg":
            raise AttributeError(name)
        return getattr(self._rules, name)


class _Leaky:
    """Jedi Duel's rules with a picture and a text that write every card the state they are
    given holds (hands and deck, whoever the seat): what they show is what they were given."""

    def __init__(self, rules) -> None:
        self._rules = rules

    def __getattr__(self, name):
        return getattr(self._rules, name)

    @staticmethod
    def _cards(state) -> str:
        held = [c for hand in state.hands for c in hand] + list(state.deck)
        return " ".join(_cards.name(c.value) for c in held if c.value is not UNKNOWN)

    def svg(self, state, seat) -> str:
        return f'<svg xmlns="http://www.w3.org/2000/svg"><text>{self._cards(state)}</text></svg>'

    def render(self, state, seat) -> str:
        return self._cards(state)


def play(game: bs.Game, moves: int, seed: int = 0) -> bs.Game:
    pick = random.Random(seed)
    for _ in range(moves):
        if game.outcome() is not None:
            break
        seat = pick.choice(game.to_act())
        game.play(seat, pick.choice(game.legal(seat)), entropy=pick.randbytes)
    return game


def shown(cards, text: str) -> set[int]:
    """The Jedi Duel cards that ``text`` writes, as ``7H`` or ``7♥`` (a word: not inside
    ``#3C3C3C`` or ``10H``)."""
    return {
        card
        for card in cards
        for word in (_cards.name(card), _cards.pretty(card))
        if re.search(rf"(?<![0-9A-Za-z#]){re.escape(word)}(?![0-9A-Za-z])", text)
    }


def hidden_cards(game: bs.Game, seat: int | None) -> set[int]:
    """The cards of ``game``'s log that ``seat`` (None: a spectator) was never shown: dealt or
    drawn as secrets (face down, or into someone's hand), never revealed, not owned by ``seat``."""
    secrets, revealed, own = set(), set(), set()
    for record in game.records:
        for value in sealed_values(record):
            if type(value) is Reveal:
                revealed.add(value.value)
            elif type(value) is Secret and value.known and type(value.value) is int:
                secrets.add(value.value)
                if seat is not None and value.owned_by(seat):
                    own.add(value.value)
    return secrets - revealed - own


def mid_game_jedi(seed: int, players: int) -> bs.Game:
    game = random_game(JEDI, seed, players, stop_after=25)
    assert game.outcome() is None and game.header.seed is not None  # (holds every card)
    return game


# ---------------------------------------------------------------------------------- games
def test_a_game_shows_as_well_formed_svg_and_html():
    game = bs.load_game(KAMINO)
    svg = game._repr_svg_()
    parse_svg(svg)
    # The module's picture of the current table, as a spectator sees it (show --svg).
    assert svg == EPIC.rules.svg(game.decider.view(game.state, None), None)
    page = game._repr_html_()
    parsed = parse_html(page)
    assert "svg" in parsed.tags and "pre" not in parsed.tags
    assert svg.strip() in page
    text = " ".join(parsed.text.split())
    assert "Star Wars Epic Duels" in text and "ann, ben" in text
    assert f"{game.seq} records" in text and "as a spectator sees it" in text
    outcome = game.outcome()
    winners = " and ".join(game.players[w] for w in outcome.winners)
    assert outcome.reason in text and f"Winner: {winners}" in text
    last = game.records[-1]
    assert bs.describe(game, last, None) in text  # the last moves, in words


def test_a_game_in_progress_says_who_acts():
    game = play(bs.Game.new(EPIC, ["ann", "ben"], {}, seed=b"jupyter"), 3)
    text = " ".join(parse_html(game._repr_html_()).text.split())
    acting = ", ".join(game.players[s] for s in game.to_act())
    assert f"To act: {acting}" in text and "Game over" not in text


def test_names_are_escaped_in_html_and_svg(monkeypatch):
    players = ["<b>&", 'ben "<i>"']  # (names of files made before the name grammar, which
    # still read: no outer spaces, no controls; new games refuse them)
    monkeypatch.setattr("boardstate._header.check_new_names", lambda players: None)
    for module in (EPIC, bs.Module(EPIC.spec, _NoPicture(EPIC.rules))):
        game = play(bs.Game.new(module, players, {}, seed=b"names"), 4)
        page = game._repr_html_()
        parsed = parse_html(page)
        assert "b" not in parsed.tags and "i" not in parsed.tags
        assert "&lt;b&gt;&amp;" in page
        assert "<b>&" in parsed.text and 'ben "<i>"' in parsed.text
        assert any(
            line.startswith(("<b>&", 'ben "<i>"')) for line in parsed.text.splitlines()
        )  # (a move in words, by its player)
        seen = parse_html(game.position(seat=0)._repr_html_())
        assert "b" not in seen.tags and "as <b>& sees it" in seen.text
    picture = bs.Game.new(EPIC, players, {}, seed=b"names")._repr_svg_()
    assert "<b>&" in "".join(parse_svg(picture).itertext())


def test_a_game_without_pictures_shows_its_text():
    plain = bs.Module(EPIC.spec, _NoPicture(EPIC.rules))
    game = play(bs.Game.new(plain, ["ann", "ben"], {}, seed=b"text"), 4)
    assert game._repr_svg_() is None  # (IPython then shows the HTML, or the plain repr)
    assert game.position().svg() is None and game.position()._repr_svg_() is None
    page = game._repr_html_()
    parsed = parse_html(page)
    assert "pre" in parsed.tags and "svg" not in parsed.tags
    text = game.decider.render(game.decider.view(game.state, None), None)
    assert text in parsed.text
    assert text == game.position().text()
    # The same game with the module's picture: the SVG, no text.
    drawn = play(bs.Game.new(EPIC, ["ann", "ben"], {}, seed=b"text"), 4)
    assert "svg" in parse_html(drawn._repr_html_()).tags
    assert "pre" not in parse_html(drawn._repr_html_()).tags


# ---------------------------------------------------------------------------------- positions
def test_positions_step_through_a_game():
    game = bs.load_game(KAMINO)
    first, middle, last = game.position(0), game.position(10, seat="ann"), game.position()
    assert (first.index, middle.index, middle.seat, last.index) == (0, 10, 0, game.seq - 1)
    assert game.position(-1) == last and game.position(-1) != first
    for position in (first, middle, last):
        assert parse_svg(position._repr_svg_()) is not None
        parse_html(position._repr_html_())
    assert first.svg() != last.svg() and first.text() != last.text()
    assert last.svg() == game._repr_svg_()
    # The state after record 10: the events of records 0..10, folded.
    decider, header = game.decider, game.header
    state = decider.initial(header.options, header.players, header.revision)
    for record in game.records[:11]:
        for ev in record.events:
            state = decider.evolve(state, ev)
    assert middle.state == state
    assert middle.svg() == EPIC.rules.svg(decider.view(state, 0), 0)
    text = " ".join(parse_html(middle._repr_html_()).text.split())
    assert "after record 10" in text and "as ann sees it" in text
    assert bs.describe(game, game.records[10], 0) in text


def test_a_position_is_immutable_and_keeps_its_state():
    game = play(bs.Game.new(EPIC, ["ann", "ben"], {}, seed=b"keep"), 3)
    position = game.position()
    before = position.svg()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        position.index = 0
    play(game, 3, seed=1)
    assert position.svg() == before != game.position().svg()
    assert position.index < game.position().index
    assert isinstance(position, bs.Position) and "Position" in bs.__all__


def test_a_position_says_what_its_record_settled_as_replay_does():
    from boardstate.cli._common import each_state, settled_line

    game = bs.load_game(ROOT / "replays" / "duel-of-the-forces-ravensburger-2015-2p.msgpack")
    states = each_state(game)
    settled = [settled_line(game, states, i) for i in range(game.seq)]
    assert any(settled) and not all(settled)
    for i, line in enumerate(settled):
        position = game.position(i)
        assert position.report() == line
        assert not line or html.escape(line) in position._repr_html_()


@pytest.mark.parametrize(
    "index,seat", [(10**6, None), (-(10**6), None), ("3", None), (0, 2), (0, -1), (0, "nobody")]
)
def test_a_position_that_is_not_there_is_refused(index, seat):
    game = play(bs.Game.new(EPIC, ["ann", "ben"], {}, seed=b"refused"), 2)
    with pytest.raises((IndexError, bs.InvalidCommand)):
        game.position(index, seat)


# ---------------------------------------------------------------------------------- nothing hidden
@pytest.mark.parametrize("seed,players", [(1, 2), (2, 3), (3, 4)])
def test_a_spectator_sees_no_hidden_card(seed, players):
    game = mid_game_jedi(seed, players)
    hidden = hidden_cards(game, None)
    hands = [{card.value for card in hand} for hand in game.state.hands]
    assert hidden and all(hands)
    # The words are found where a card is shown: a player's own hand, as that player sees it.
    assert shown(hands[0], game.position(seat=0).text()) == hands[0]
    assert shown(hidden, game.position(seat=0).text())
    assert shown(hidden, game.position(seat=0)._repr_html_())  # (the picture, or the text)
    middle = game.position(game.seq // 2)
    for picture in (
        game._repr_html_(),
        game._repr_svg_() or "",
        game.position()._repr_html_(),
        game.position().text(),
        middle._repr_html_(),
        middle.svg() or "",
    ):
        assert not shown(hidden, picture)


@pytest.mark.parametrize("seed,players", [(4, 2), (5, 3)])
def test_a_players_copy_shows_that_players_cards_only(tmp_path, seed, players):
    game = mid_game_jedi(seed, players)
    seat = 1
    path = tmp_path / "copy.msgpack"
    bs.save_game(game, path, viewer=seat)
    copy = bs.load_game(path)
    assert copy.header.viewer == seat
    page = copy._repr_html_()
    text = " ".join(parse_html(page).text.split())
    assert f"as {copy.players[seat]} sees it" in text
    assert copy._repr_svg_() == copy.position(seat=seat).svg()
    if copy._repr_svg_() is None:
        assert copy.position(seat=seat).text() in parse_html(page).text
    hidden = hidden_cards(game, seat)
    mine = {card.value for card in game.state.hands[seat]}
    assert hidden and mine and not hidden & mine
    assert shown(mine, copy.position(seat=seat).text()) == mine
    for picture in (page, copy._repr_svg_() or "", copy.position(0, seat)._repr_html_()):
        assert not shown(hidden, picture)
    # Even asked for another seat, the copy has none of that seat's cards to show.
    other = copy.position(seat=0)
    assert not shown(hidden, other._repr_html_() + other.text())


def test_pictures_are_drawn_from_the_view():
    """Even a module whose drawing writes every card it is given shows a spectator none, and
    a player only their own: the engine gives it the view, never the state."""
    leaky = bs.Module(JEDI.spec, _Leaky(JEDI.rules))
    game = random_game(leaky, 6, 3, stop_after=25)
    assert game.outcome() is None
    hidden = hidden_cards(game, None)
    assert shown(hidden, _Leaky._cards(game.state))  # (the full state: every card)
    for picture in (
        game._repr_html_(),
        game._repr_svg_(),
        game.position(game.seq // 2)._repr_html_(),
        game.position().text(),
    ):
        assert not shown(hidden, picture)
    mine = {card.value for card in game.state.hands[0]}
    seen = game.position(seat=0)
    assert shown(hidden, seen.svg()) == mine == shown(hidden, seen._repr_html_())


def test_a_sealed_choice_stays_sealed(tmp_path):
    game = bs.Game.new(DUEL, ["ann", "ben"], {}, seed=b"sealed")
    choice = game.legal(0)[3]
    game.play(0, choice)
    record = game.records[-1]
    assert record.kind == bs.Kind.COMMIT and record.sealed.value == choice
    spectator = " ".join(parse_html(game._repr_html_()).text.split())
    assert bs.describe(game, record, None) in spectator
    assert choice not in spectator and choice not in (game._repr_svg_() or "")
    texts = []
    for seat in (0, 1):
        path = tmp_path / f"{seat}.msgpack"
        bs.save_game(game, path, viewer=seat)
        texts.append(" ".join(parse_html(bs.load_game(path)._repr_html_()).text.split()))
    assert f"Your sealed choice: {choice}" in texts[0]
    assert bs.describe(game, record, 0) in texts[0]
    assert choice not in texts[1]


# ---------------------------------------------------------------------------------- boards
@pytest.mark.parametrize("scene", sorted(BOARDS))
def test_a_board_shows_as_its_svg(scene):
    board = BOARDS[scene]
    picture = board._repr_svg_()
    assert picture == render_svg(board)
    assert parse_svg(picture).find(SVG_NS + "title").text == board.title


# ---------------------------------------------------------------------------------- IPython
def test_ipython_picks_the_reprs():
    formatters = pytest.importorskip(
        "IPython.core.formatters",
        reason="IPython is not installed (boardstate does not depend on it)",
    )
    display = formatters.DisplayFormatter()
    game = bs.load_game(KAMINO)
    data, _ = display.format(game)
    assert data["text/html"] == game._repr_html_()
    assert data["image/svg+xml"] == game._repr_svg_()
    position = game.position(10, seat="ann")
    data, _ = display.format(position)
    assert data["text/html"] == position._repr_html_()
    assert data["image/svg+xml"] == position.svg()
    data, _ = display.format(BOARDS["kamino"])
    assert data["image/svg+xml"] == render_svg(BOARDS["kamino"])
    plain = play(bs.Game.new(bs.Module(EPIC.spec, _NoPicture(EPIC.rules)), ["a", "b"], {}), 2)
    data, _ = display.format(plain)
    assert "image/svg+xml" not in data and "<pre" in data["text/html"]


# ---------------------------------------------------------------------------------- the docs
def _shown(value) -> list:
    """What a notebook shows for a cell's last value: the value, or for ``interact``'s
    function (ipywidgets) the slider and the position it draws, at either end of the slider."""
    widget = getattr(value, "widget", None)
    if widget is None:
        return [value]
    slider = widget.children[0]
    drawn = []
    for index in (slider.min, slider.max):
        slider.value = index  # (the widget calls the function again, as a reader's drag would)
        assert widget.result.index == index, (widget.result, index)
        drawn.append(widget.result)
    return drawn


def test_the_docs_example_runs(tmp_path, monkeypatch):
    """docs/jupyter.md's cells, run in order as a notebook would (from a folder holding the
    sample game): every cell's last expression, and every object a cell hands IPython's
    ``display``, displays as HTML or SVG.  The cells that need IPython or ipywidgets run when
    they are installed (ipywidgets' slider: each end of it draws the position it names), the
    PNG's when cairosvg loads.  Run twice, the example writes nothing into the folder it runs
    in and nothing over a file it wrote before: a new temporary folder each time."""
    (tmp_path / "replays").mkdir()
    shutil.copy(KAMINO, tmp_path / "replays" / KAMINO.name)
    monkeypatch.chdir(tmp_path)
    temporary = tmp_path / "temporary"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    before = sorted(tmp_path.rglob("*"))
    _run_the_docs_example(monkeypatch)
    first = sorted(temporary.rglob("*"))
    assert first and all(p.stat().st_size for p in first if p.is_file())
    written = {p: p.read_bytes() for p in first if p.is_file()}
    _run_the_docs_example(monkeypatch)
    assert set(tmp_path.rglob("*")) == {*before, *temporary.rglob("*")}
    assert len(list(temporary.iterdir())) == 2  # (a folder for each run)
    assert all(path.read_bytes() == data for path, data in written.items())


def _run_the_docs_example(monkeypatch):
    displayed: list = []
    if importlib.util.find_spec("IPython") is not None:
        import IPython.display

        monkeypatch.setattr(IPython.display, "display", lambda *values: displayed.extend(values))
    cells = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert len(cells) >= 4
    names: dict = {}
    shown_objects = []
    ran = 0
    for cell in cells:
        needs = re.findall(r"^from (IPython|ipywidgets)\b", cell, re.M)
        if any(importlib.util.find_spec(name) is None for name in needs):
            continue  # (stepping through with IPython's display or a slider: when installed)
        if ".png(" in cell and not png_available():
            continue  # (the PNG: when cairosvg loads)
        ran += 1
        tree = ast.parse(cell)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, "<cell>", "exec"), names)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), names)
            if value is not None:
                shown_objects += _shown(value)
    assert len(shown_objects) >= 4
    # (the slider itself, when ipywidgets hands it to display, is checked by what it draws)
    displayed = [v for v in displayed if not type(v).__module__.startswith("ipywidgets.")]
    if importlib.util.find_spec("IPython") is not None:
        assert len(displayed) >= 2  # (the loop over the positions)
    if importlib.util.find_spec("ipywidgets") is not None and png_available():
        assert ran == len(cells)
    for value in shown_objects + displayed:
        svg = getattr(value, "_repr_svg_", lambda: None)()
        page = getattr(value, "_repr_html_", lambda: None)()
        assert svg is not None or page is not None, value
        if svg is not None:
            parse_svg(svg)
        if page is not None:
            parse_html(page)
