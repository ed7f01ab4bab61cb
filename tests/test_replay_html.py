"""``boardstate replay FILE --html OUT``: one self-contained page that shows no more than its
viewer may see.

Real games of every module (Jedi Duel with three players, Duel of the Forces, Epic Duels; whole
games and games stopped with a choice still face down) are written through the command line
as a player and as a spectator; the page's source, its packed pictures expanded (``expand``:
this file's own code, not the page's script nor the writer's), is then searched for every
value the viewer never saw: the salt of every secret the viewer does not own, and the label of
every card or choice that was never made public nor shown to the viewer.  The browser tests
(``test_browser.py``) drive the same pages in Chromium.
"""

from __future__ import annotations

import base64
import json
import random
import re
import xml.etree.ElementTree as ET
import zlib
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

import boardstate as bs
from boardstate import Reveal, Secret, _html_assets
from boardstate._html import CSP, replay_html
from boardstate._records import Kind, sealed_values
from boardstate.cli import cli

CREATED = "2026-01-01T00:00:00+00:00"


# ------------------------------------------------------------------------------ games
def play(module_id, players, seed, *, stop=None, options=None, module=None) -> bs.Game:
    """A game of random legal commands, to the end or until ``stop(game)``."""
    module = module or bs.get_module(module_id)
    game = bs.Game.new(
        module, players, dict(options or {}), seed=b"html-%d" % seed, created=CREATED
    )
    pick = random.Random(seed)
    for _ in range(20000):
        if game.outcome() is not None or (stop is not None and stop(game)):
            return game
        seat = pick.choice(game.to_act())
        game.play(seat, pick.choice(game.legal(seat)), entropy=pick.randbytes)
    raise AssertionError("the game did not end")


def revealed(game) -> set:
    return {v.value for rec in game.records for v in sealed_values(rec) if type(v) is Reveal}


def fresh_commit_by(seat):
    """Stop right after ``seat`` sealed a choice that no record has made public yet."""

    def stop(game) -> bool:
        rec = game.records[-1]
        return (
            rec.kind == Kind.COMMIT
            and rec.actor == seat
            and rec.sealed.value not in revealed(game)
            and game.outcome() is None
        )

    return stop


def _jedi():
    return play("jedi-duel", ["ann", "ben", "cat"], 3)


def _jedi_midway():
    return play("jedi-duel", ["ann", "ben", "cat"], 11, stop=lambda game: game.seq > 30)


def _forces():
    return play("duel-of-the-forces", ["ann", "ben"], 4)


def _forces_sealed():  # ann's bid is sealed: ben and a spectator must not see it
    return play("duel-of-the-forces", ["ann", "ben"], 5, stop=fresh_commit_by(0))


def _epic():
    return play("epic-duels", ["ann", "ben"], 6)


def _epic_face_down():  # ben's card lies face down in a combat: ann must not see which
    return play("epic-duels", ["ann", "ben"], 7, stop=fresh_commit_by(1))


GAMES = {
    "jedi-duel-3p": _jedi,
    "jedi-duel-3p-midway": _jedi_midway,
    "duel-of-the-forces": _forces,
    "duel-of-the-forces-sealed": _forces_sealed,
    "epic-duels": _epic,
    "epic-duels-face-down": _epic_face_down,
}
_made: dict = {}


def game_named(name) -> bs.Game:
    if name not in _made:
        _made[name] = GAMES[name]()
    return _made[name]


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """name -> the full game file (every opening: the strongest test of what a page leaks)."""
    folder = tmp_path_factory.mktemp("games")
    paths = {}

    def get(name):
        if name not in paths:
            paths[name] = folder / f"{name}.msgpack"
            bs.save_game(game_named(name), paths[name])
        return paths[name]

    return get


def run(*args):
    """The command line; ``(exit status, stdout, stderr)``."""
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def write_page(path, out, viewer=None, *extra) -> str:
    args = ["replay", path, "--html", out, *extra]
    if viewer is not None:
        args += ["--as", viewer]
    status, stdout, stderr = run(*args)
    assert status == 0, stderr
    assert stderr.strip() == f"wrote {out}"
    return Path(out).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def pages(saved, tmp_path_factory):
    """(name, viewer) -> the page the command line writes (made once)."""
    folder = tmp_path_factory.mktemp("pages")
    made = {}

    def get(name, viewer):
        if (name, viewer) not in made:
            out = folder / f"{name}-{viewer or 'spectator'}.html"
            made[name, viewer] = write_page(saved(name), out, viewer)
        return made[name, viewer]

    return get


@pytest.fixture(scope="module")
def parsed(pages):
    """(name, viewer) -> the page read by ``Page`` (read once)."""
    made = {}

    def get(name, viewer):
        if (name, viewer) not in made:
            made[name, viewer] = Page(pages(name, viewer))
        return made[name, viewer]

    return get


# ------------------------------------------------------------------------------ packed pictures
_PACKED = re.compile(
    r'<script type="application/octet-stream" id="pictures">([A-Za-z0-9+/=\s]*)</script>'
)


def expand(page: str) -> list[str]:
    """Every picture packed in the page, put together again the way the page's script does,
    with code of its own: base64, then zlib (the browser's ``DecompressionStream("deflate")``),
    then a line of JSON a picture, ``[new pieces, changes]``; a picture is its pieces in the
    order the changes leave them in, the changes ``at, removed, added, the added...`` in the
    previous picture's order."""
    found = _PACKED.findall(page)
    assert len(found) == 1, "the page packs its pictures in one place"
    text = zlib.decompress(base64.b64decode(found[0])).decode("utf-8")
    assert text.endswith("\n")
    pieces: list[str] = []
    order: list[int] = []
    pictures = []
    for line in text.split("\n")[:-1]:
        new, flat = json.loads(line)
        pieces += new
        made, at, k = [], 0, 0
        while k < len(flat):
            start, removed, added = flat[k : k + 3]
            assert start >= at and start + removed <= len(order)
            made += order[at:start] + flat[k + 3 : k + 3 + added]
            at, k = start + removed, k + 3 + added
        order = made + order[at:]
        pictures.append("".join(pieces[n] for n in order))
    return pictures


def unpacked(page: str) -> str:
    """The page with its packed pictures expanded in their place: all a reader could ever be
    shown of it."""
    found = _PACKED.search(page)
    assert found
    return page[: found.start()] + "\n".join(expand(page)) + page[found.end() :]


def pictures_of(game, seat) -> tuple[list[str], list[int]]:
    """Each picture as the page embeds it, from the module's drawings, once for a run of
    records that draw the same; and per record, the number of its picture."""
    from boardstate._html_svg import picture_html

    made, frames = [], []
    decider = game.decider
    draw = getattr(game.module.rules, "svg", None)
    for state in game.states():
        view = decider.view(state, seat)
        picture = ("svg", draw(view, seat)) if draw else ("text", decider.render(view, seat))
        html = picture_html(picture)
        if not made or made[-1] != html:
            made.append(html)
        frames.append(len(made) - 1)
    return made, frames


# ------------------------------------------------------------------------------ what is hidden
def labels(game, value) -> set[str]:
    """How a page could spell a card or a choice."""
    if isinstance(value, str):
        return {value}
    module = game.module.spec.id
    if module == "jedi-duel":
        from boardstate.modules.jedi_duel import _cards

        return {_cards.name(value), _cards.pretty(value)}
    if module == "epic-duels":
        from boardstate.modules.epic_duels._notation import card_label

        return {card_label(game.state, 0, value)}
    raise AssertionError(f"no labels for {module} values like {value!r}")


def hidden_from(game, viewer):
    """``(secrets the viewer does not own, labels of values the viewer never saw)``."""
    secrets = [
        v for rec in game.records for v in sealed_values(rec) if type(v) is Secret and v.known
    ]
    foreign = [s for s in secrets if viewer is None or not s.owned_by(viewer)]
    seen = revealed(game) | {s.value for s in secrets if viewer is not None and s.owned_by(viewer)}
    shown = set().union(*(labels(game, v) for v in seen)) if seen else set()
    never = {s.value for s in foreign} - seen
    hidden = set().union(*(labels(game, v) for v in never)) - shown if never else set()
    return foreign, hidden


def spellings(salt: bytes) -> set[str]:
    b64, url = base64.b64encode(salt).decode(), base64.urlsafe_b64encode(salt).decode()
    return {salt.hex(), salt.hex().upper(), b64, b64.rstrip("="), url, url.rstrip("=")}


_TOKENS = re.compile(r"[A-Za-z0-9+/=_-]{20,}")


def word(label: str):
    return re.compile(r"(?<![\w/])" + re.escape(label) + r"(?![\w/])")


def assert_hides(game, viewer, page: str) -> None:
    """Searched: the page as written, and the page with every packed picture expanded."""
    foreign, hidden = hidden_from(game, viewer)
    assert foreign, "nothing was hidden from this viewer: the test would prove nothing"
    whole = unpacked(page)
    assert len(whole) > len(page) or len(expand(page)) == 1
    data = (page + whole).encode("utf-8")
    tokens = "\n".join(_TOKENS.findall(page + whole))  # (every hex or base64 spelling is one)
    for secret in foreign:
        assert secret.salt not in data
        for text in spellings(secret.salt):
            assert text not in tokens, f"the salt of a hidden secret is in the page ({text})"
    # The labels are short ("JS": the jack of spades): searched in all but the page's fixed
    # style and script, the same in every page (checked here).
    game_part = without_assets(whole)
    assert "<style" not in game_part and "<script" not in game_part
    for label in hidden:
        found = word(label).search(game_part)
        assert found is None, (
            f"{label!r}, never shown to the viewer, is in the page: "
            f"...{game_part[max(0, found.start() - 80) : found.end() + 80]}..."
        )


def without_assets(page: str) -> str:
    """The page less its fixed style and scripts (checked to be there, once each)."""
    for asset in (
        f"<style>{_html_assets.STYLE}</style>",
        f"<script>{_html_assets.SCRIPT}</script>",
        f"<script>{_html_assets.EARLY}</script>",
    ):
        assert page.count(asset) == 1
        page = page.replace(asset, "", 1)
    return page


CASES = [
    ("jedi-duel-3p", "ann"),
    ("jedi-duel-3p", "cat"),
    ("jedi-duel-3p", None),
    ("jedi-duel-3p-midway", "ann"),
    ("jedi-duel-3p-midway", "ben"),
    ("jedi-duel-3p-midway", None),
    ("duel-of-the-forces", "ann"),
    ("duel-of-the-forces", None),
    ("duel-of-the-forces-sealed", "ben"),
    ("duel-of-the-forces-sealed", None),
    ("epic-duels", "ann"),
    ("epic-duels", None),
    ("epic-duels-face-down", "ann"),
    ("epic-duels-face-down", None),
]
# Games stopped midway: cards in hands and piles, and choices face down, that nobody has seen
# yet.  (A whole game makes nearly every card public at some time.)
MIDWAY = {"jedi-duel-3p-midway", "duel-of-the-forces-sealed", "epic-duels-face-down"}


@pytest.mark.parametrize("name,viewer", CASES, ids=[f"{n}-{v or 'spectator'}" for n, v in CASES])
def test_the_page_holds_no_value_the_viewer_never_saw(pages, name, viewer):
    game = game_named(name)
    page = pages(name, viewer)
    seat = None if viewer is None else game.seat(viewer)
    assert_hides(game, seat, page)
    if name in MIDWAY:
        assert hidden_from(game, seat)[1], "no label to search for: the test would prove little"


@pytest.mark.parametrize(
    "name,viewer",
    [
        ("jedi-duel-3p-midway", "ann"),
        ("epic-duels-face-down", "ben"),
        ("duel-of-the-forces-sealed", "ann"),
    ],
)
def test_the_search_finds_what_the_viewer_did_see(saved, tmp_path, name, viewer):
    """The searches above are not blind: the viewer's own cards and choices are in its page,
    the same labels are not in the spectator's (where the game kept them hidden)."""
    game = game_named(name)
    seat = game.seat(viewer)
    mine = write_page(saved(name), tmp_path / "mine.html", viewer)
    public = write_page(saved(name), tmp_path / "public.html")
    own = {
        v.value
        for rec in game.records
        for v in sealed_values(rec)
        if type(v) is Secret and v.owned_by(seat) and v.value not in revealed(game)
    }
    assert own
    own_labels = set().union(*(labels(game, v) for v in own))
    assert any(word(label).search(unpacked(mine)) for label in own_labels)
    _, hidden_from_public = hidden_from(game, None)
    assert own_labels & hidden_from_public
    assert not any(
        word(label).search(unpacked(public)) for label in own_labels & hidden_from_public
    )
    assert mine != public


@pytest.mark.parametrize(
    "name",
    [
        "jedi-duel-3p-midway",
        "duel-of-the-forces-sealed",
        "epic-duels-face-down",
        "duel-of-the-forces",
    ],
)
def test_a_players_page_is_the_same_from_the_full_log_or_from_the_players_own_copy(
    pages, saved, tmp_path, name
):
    """What a player's page shows is all derived from what that player's copy holds: written
    from the full log (every opening) or from ann's own copy, the page is the same byte for
    byte; a spectator's page from the public copy of a finished game (no opening at all) is
    too.  (The public copy of a game under way does not load: the engine needs the hand of
    the player to act.)"""
    game = game_named(name)
    own = tmp_path / "ann.msgpack"
    bs.save_game(game, own, viewer=0)
    assert write_page(own, tmp_path / "ann.html", "ann") == pages(name, "ann")
    if game.outcome() is not None:
        public = tmp_path / "public.msgpack"
        public.write_bytes(bs.encode_public(game))
        assert write_page(public, tmp_path / "public.html") == pages(name, None)


# ------------------------------------------------------------------------------ the page
VOID = {"meta", "input", "br", "hr", "img", "link", "wbr", "area", "base", "col", "source"}


class Page(HTMLParser):
    """A strict reading of the page: balanced tags, and the parts the navigation relies on."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.problems: list[str] = []
        self.tags: list[tuple[str, dict]] = []
        self.ids: list[str] = []
        self.items: list[dict] = []  # the move list's <li>
        self.texts: dict = {}  # id -> text, for a few elements
        self._capture: list[tuple[str, int]] = []  # (key, depth)
        self.feed(text)
        self.close()
        if self.stack:
            self.problems.append(f"unclosed: {self.stack}")

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "li" and self.stack[-1:] == ["ol"] and "data-step" in attrs:
            self.items.append({"attrs": attrs, "text": ""})
            self._capture.append((f"li{len(self.items) - 1}", len(self.stack)))
        if attrs.get("id") in ("status", "result") or attrs.get("class") in ("move", "settled"):
            key = attrs.get("id") or f"{attrs['class']}{len(self.items) - 1}"
            self.texts[key] = ""
            self._capture.append((key, len(self.stack)))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if "id" in dict(attrs):
            self.ids.append(dict(attrs)["id"])

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()
        while self._capture and self._capture[-1][1] == len(self.stack):
            self._capture.pop()

    def handle_data(self, data):
        for key, _ in self._capture:
            if key.startswith("li"):
                self.items[int(key[2:])]["text"] += data
            else:
                self.texts[key] += data


@pytest.mark.parametrize("name,viewer", CASES, ids=[f"{n}-{v or 'spectator'}" for n, v in CASES])
def test_the_page_is_well_formed_and_needs_nothing_else(pages, parsed, name, viewer):
    page = pages(name, viewer)
    parsed = parsed(name, viewer)
    assert not parsed.problems, parsed.problems[:5]
    assert page.startswith("<!DOCTYPE html>\n")
    assert len(parsed.ids) == len(set(parsed.ids)), "an id is used twice"
    pictures = expand(page)  # (the page shows one picture at a time, the first in its markup)
    own = set(parsed.ids) - set(Page(pictures[0]).ids)
    for picture in pictures:
        one = Page(f"<div>{picture}</div>")
        assert not one.problems, one.problems[:5]
        assert not set(one.ids) & own and len(one.ids) == len(set(one.ids))
    html = [a for t, a in parsed.tags if t == "html"]
    assert html == [{"lang": "en", "class": "quiet"}]
    metas = [a for t, a in parsed.tags if t == "meta"]
    assert {"charset": "utf-8"} in metas
    assert {"http-equiv": "Content-Security-Policy", "content": CSP} in metas
    assert CSP == (
        "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
    )
    # Nothing to fetch: no address, no src, no stylesheet or frame; links stay in the page.
    # (Searched with every packed picture expanded in its place.)
    lowered = unpacked(page).lower()
    for needle in ("http:", "https:", "src=", "ftp:", "file:", "//www.", "xmlns", "@import"):
        assert needle not in lowered, needle
    for tag, attrs in Page(unpacked(page)).tags:
        assert tag not in ("link", "iframe", "img", "object", "embed", "base", "audio", "video")
        for key, value in attrs.items():
            assert not key.startswith("on"), f"<{tag} {key}>: an inline handler"
            if key in ("href", "xlink:href", "action", "formaction", "poster", "data"):
                assert (value or "").startswith("#"), f"<{tag} {key}={value!r}>"
    # Two scripts, inline, no src; the packed pictures in a data block that never runs.
    scripts = [a for t, a in parsed.tags if t == "script"]
    assert scripts == [{}, {"type": "application/octet-stream", "id": "pictures"}, {}]
    assert page.count("<script") == 3
    without_assets(page)  # (the fixed style and scripts are there, once each)
    assert lowered.count("<svg") == lowered.count("</svg>")


@pytest.mark.parametrize("name,viewer", CASES, ids=[f"{n}-{v or 'spectator'}" for n, v in CASES])
def test_every_record_is_in_the_move_list_with_what_it_settled(pages, parsed, name, viewer):
    game = game_named(name)
    seat = None if viewer is None else game.seat(viewer)
    parsed = parsed(name, viewer)
    items = parsed.items
    assert [int(i["attrs"]["data-step"]) for i in items] == list(range(len(game.records)))
    for i, rec in enumerate(game.records):
        assert parsed.texts[f"move{i}"] == bs.describe(game, rec, seat)
    # The results: each new line of the module's report, where the record settled it.
    reports = [k for k in parsed.texts if k.startswith("settled")]
    if game.decider.report(game.state):
        assert reports
    for key in reports:
        assert parsed.texts[key].strip()
    for i, item in enumerate(items):  # (every number whole: "275.", never "75.")
        assert item["text"].startswith(f"{i}.{parsed.texts[f'move{i}']}")
    ols = [a for t, a in parsed.tags if t == "ol"]
    assert ols == [{"id": "moves", "start": "0"}]
    current = [i for i in items if "current" in i["attrs"].get("class", "")]
    assert len(current) == 1 and current[0]["attrs"]["data-step"] == "0"
    last = len(game.records) - 1
    assert (
        parsed.texts["status"] == f"record 0 of {last}: {bs.describe(game, game.records[0], seat)}"
    )
    status = next(a for t, a in parsed.tags if a.get("id") == "status")
    assert status["aria-live"] == "polite"
    position = next(a for t, a in parsed.tags if a.get("id") == "position")
    assert position["data-step"] == "0"
    frames = [a for t, a in parsed.tags if t == "figure" and "frame" in a.get("class", "")]
    assert frames == [{"class": "frame", "data-frame": "0"}]  # (the first, shown without JS)
    pictures = expand(pages(name, viewer))
    assert (pictures, [int(i["attrs"]["data-frame"]) for i in items]) == pictures_of(game, seat)
    assert f'<div class="picture">{pictures[0]}</div>' in pages(name, viewer)
    outcome = game.outcome()
    if outcome is None:
        assert parsed.texts["result"].startswith("The game goes on (after record ")
    else:
        winners = " and ".join(game.players[w] for w in outcome.winners)
        assert parsed.texts["result"].startswith(f"Game over ({outcome.reason}). Scores: ")
        assert parsed.texts["result"].endswith(f"Winner: {winners}")
    labels_ = [t for t, _ in parsed.tags if t == "button"]
    assert len(labels_) >= 5  # First, Back, Forward, Last, Go: every one with a text label
    for button in ("First", "Back", "Forward", "Last"):
        assert f">{button}</button>" in pages(name, viewer)


def test_the_page_carries_each_picture_once_packed(pages):
    """What steps have in common is carried once: the page (every picture packed, the first
    also in the markup, a line per move) is a fraction of its pictures written out in full."""
    page = pages("duel-of-the-forces", "ann")
    pictures = expand(page)
    assert len(pictures) > 20
    size, full = len(page.encode()), sum(len(p.encode()) for p in pictures)
    assert size * 4 < full, (size, full)


def test_a_module_that_draws_no_pictures_shows_its_text(tmp_path):
    module = bs.get_module("jedi-duel")
    plain = bs.Module(module.spec, _Without(module.rules, "svg"))
    game = play("jedi-duel", ["ann", "ben"], 8, module=plain)
    page = replay_html(game, 0)
    assert "<svg" not in unpacked(page)
    state = game.decider.initial(game.header.options, game.header.players, game.header.revision)
    for ev in game.records[0].events:
        state = game.decider.evolve(state, ev)
    from html import escape

    first = game.decider.render(game.decider.view(state, 0), 0)
    assert f'<div class="picture"><pre>\n{escape(first)}</pre></div>' in page
    pictures = expand(page)
    assert pictures[0] == f"<pre>\n{escape(first)}</pre>"
    assert (pictures, _frames(page)) == pictures_of(game, 0)
    assert len(pictures) > 10 and all(p.startswith("<pre>\n") for p in pictures)


def _frames(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'<li data-step="\d+" data-frame="(\d+)"', page)]


def test_a_modules_svg_is_embedded_inline_and_made_harmless(tmp_path):
    """The engine embeds the module's drawing as it is, less what could run or fetch, with
    its ids prefixed (the page shows one picture at a time: one prefix, none of the page's
    own ids).  What the pictures say is found only once they are expanded: a search of the
    page as written would be blind to it."""
    drawing = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'xmlns:ink="http://www.inkscape.org/namespaces/inkscape" width="40" height="20" '
        'onload="alert(1)" ink:version="1.0">'
        '<title>turn {turn}</title><defs><linearGradient id="g"/><path id="p" d="M0 0"/></defs>'
        "<script>alert(2)</script><foreignObject><div>x</div></foreignObject>"
        '<rect fill="url(#g)" width="4" height="4" onclick="alert(3)"/>'
        '<use xlink:href="#p"/><use href="https://example.org/x.svg#p"/>'
        '<image href="http://example.org/x.png"/><a href="javascript:alert(4)"><text>y</text></a>'
        '<rect style="fill:url(&quot;https://example.org/p&quot;)"/>'
        '<style>@import url("https://example.org/s.css");</style>'
        '<text xml:space="preserve">{turn} &lt;b&gt;</text></svg>'
    )

    class Drawn:
        def __init__(self, rules):
            self._rules = rules

        def __getattr__(self, name):
            return getattr(self._rules, name)

        def svg(self, state, seat):
            return drawing.replace("{turn}", str(state.turns))

    module = bs.get_module("jedi-duel")
    game = play("jedi-duel", ["ann", "ben"], 9, module=bs.Module(module.spec, Drawn(module.rules)))
    page = replay_html(game, None)
    pictures = expand(page)
    assert len(pictures) > 1
    whole = unpacked(page)
    lowered = whole.lower()
    for needle in ("alert", "http", "xmlns", "javascript:", "inkscape", "@import", "<?xml"):
        assert needle not in lowered.replace("http-equiv", ""), needle
    assert lowered.count("<script") == 2 and "foreignobject" not in lowered
    assert whole.count('<linearGradient id="p-g"') == len(pictures) + 1  # (+ the first, inline)
    for picture in pictures:
        assert 'fill="url(#p-g)"' in picture and '<use href="#p-p"' in picture
        assert 'xml:space="preserve"' in picture and "&lt;b&gt;" in picture
        one = Page(picture)
        assert not one.problems and len(one.ids) == len(set(one.ids))
        ET.fromstring(picture)  # each embedded picture is still well-formed XML
    assert not Page(page).problems
    turn = game.state.turns
    assert turn > 1 and f"<title>turn {turn}</title>" in pictures[-1]
    assert f"turn {turn}<" not in page  # (only in the packed pictures)


class _Without:
    """A module's rules without one of their optional parts."""

    def __init__(self, rules, missing: str) -> None:
        self._rules, self._missing = rules, missing

    def __getattr__(self, name):
        if name == self._missing:
            raise AttributeError(name)
        return getattr(self._rules, name)


@pytest.mark.parametrize("module_id", ["jedi-duel", "epic-duels"])
def test_player_names_are_escaped(module_id, monkeypatch):
    evil = "<img/src=x/onerror=alert(1)>&amp;</script><b"
    # (a name from a file made before the name grammar: new games refuse it, files still read)
    monkeypatch.setattr("boardstate._header.check_new_names", lambda players: None)
    game = play(module_id, [evil, "ben"], 10, stop=lambda g: g.seq > 12 and 0 in g.to_act())
    page = replay_html(game, 0)
    parsed = Page(page)
    assert not parsed.problems
    assert [t for t, _ in parsed.tags if t in ("img", "b")] == []
    assert not any(k.startswith("on") for _, attrs in parsed.tags for k in attrs)
    assert page.count("</script>") == 3
    whole = Page(unpacked(page))
    assert not whole.problems and [t for t, _ in whole.tags if t in ("img", "b")] == []
    assert "&lt;img/src=x/onerror=alert(1)&gt;&amp;amp;&lt;/script&gt;&lt;b" in page
    assert parsed.texts["result"].endswith(evil) or evil in parsed.texts["result"]


# ------------------------------------------------------------------------------ the command
def test_the_page_is_not_written_over_an_existing_file_without_force(saved, tmp_path):
    game_file = saved("duel-of-the-forces")
    out = tmp_path / "replay.html"
    out.write_text("mine")
    status, stdout, stderr = run("replay", game_file, "--html", out)
    assert status == 2
    assert (
        stderr.count("\n") == 1 and "exists; not overwriting it" in stderr and "--force" in stderr
    )
    assert out.read_text() == "mine"
    status, _, stderr = run("replay", game_file, "--html", out, "--force")
    assert status == 0, stderr
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_spoilers_make_a_page_that_opens_with_every_move_and_the_result(saved, tmp_path):
    """By default the page's script shows the moves up to the current one and the result at
    the last (the browser tests step through it); ``--spoilers`` opens it with everything
    shown, the button "Show everything" pressed.  Nothing else differs."""
    game_file = saved("duel-of-the-forces")
    quiet = write_page(game_file, tmp_path / "quiet.html")
    shown = write_page(game_file, tmp_path / "shown.html", None, "--spoilers")
    assert quiet.count('<html lang="en" class="quiet">') == 1 and '<html lang="en">' not in quiet
    assert shown.count('<html lang="en">') == 1 and "quiet" not in without_assets(shown)
    pressed = '<button type="button" id="everything" aria-pressed="{}">Show everything</button>'
    assert pressed.format("false") in quiet and pressed.format("true") in shown
    assert (
        shown.replace('<html lang="en">', '<html lang="en" class="quiet">').replace(
            pressed.format("true"), pressed.format("false")
        )
        == quiet
    )


def test_the_page_is_never_written_over_the_game_file(saved, tmp_path):
    game_file = tmp_path / "game.msgpack"
    game_file.write_bytes(saved("duel-of-the-forces").read_bytes())
    before = game_file.read_bytes()
    for extra in ([], ["--force"]):
        status, _, stderr = run("replay", game_file, "--html", game_file, *extra)
        assert status == 2
        assert stderr.count("\n") == 1 and "reads" in stderr
        assert game_file.read_bytes() == before


@pytest.mark.parametrize(
    "content", [b"", b"not a game at all\n", b"\x92\x01\x02", b"<!DOCTYPE html>"], ids=repr
)
def test_a_bad_game_file_is_one_line_and_writes_nothing(tmp_path, content):
    bad = tmp_path / "bad.msgpack"
    bad.write_bytes(content)
    out = tmp_path / "replay.html"
    status, stdout, stderr = run("replay", bad, "--html", out)
    assert status != 0
    assert stderr.count("\n") == 1 and stderr.startswith("boardstate: ")
    assert "Traceback" not in stderr and "internal error" not in stderr
    assert not out.exists()


def test_bad_usage_is_one_line(saved, tmp_path):
    game_file = saved("duel-of-the-forces")
    out = tmp_path / "replay.html"
    cases = [
        ("replay", tmp_path / "missing.msgpack", "--html", out),
        ("replay", game_file, "--html", out, "--as", "nobody"),
        ("replay", game_file, "--force"),
        ("replay", game_file, "--spoilers"),
        ("replay", game_file, "--html", out, "--to", "3"),
        ("replay", game_file, "--html", tmp_path),
    ]
    for args in cases:
        status, _, stderr = run(*args)
        assert status == 2, (args, stderr)
        assert stderr.count("\n") == 1 and stderr.startswith("boardstate: "), (args, stderr)
        assert not out.exists()


def test_replay_without_html_still_prints_the_steps(saved):
    status, stdout, _ = run("replay", saved("duel-of-the-forces"), "--to", "2")
    assert status == 0
    assert stdout.startswith("--- record 2: ")
