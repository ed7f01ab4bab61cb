"""``boardstate judge site``: the club's web site of a judge's games, with nothing hidden on it.

A judge's store (SQLite) holds three games, made as in tests/test_judge_crash.py (fixed keys,
seeds and secrets; requests judged in process, the records stored as the judge stores them): a
Jedi Duel of two played to the end, one of three players 30 moves in (hands held, cards in the
deck nobody has seen), and an Epic Duels game waiting for its players to join.  The site is
written through the command line, then:

- the index lists every game, newest first, with its players and where it stands, and links
  to each game's page, which links back; every link of every page leads to a written file;
- no page holds a value a spectator may not see: the salt of every secret in the judge's log,
  the label of every card never shown to all (test_replay_html.py's search, packed pictures
  expanded), the seed, the judge's secret, a player's mail address;
- a game page is the spectator's replay page of the judge's log, byte for byte as
  ``boardstate replay LOG --html`` makes it (but for the link back);
- a second run writes only what changed; a folder that holds something else is refused;
- in headless Chromium the index opens, a click opens a game page that draws and steps, and
  its link leads back (tests/test_browser.py's helpers: skipped saying why without a browser,
  a failure with ``BOARDSTATE_REQUIRE_BROWSER=1``).
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from click.testing import CliRunner
from test_browser import assert_clean_log, browser, open_page  # noqa: F401  (a fixture)
from test_judge_crash import CREATED, _fixed, address, judge_key, play, seats
from test_replay_html import assert_hides, hidden_from, spellings, word

from boardstate._fileformat import encode_game, encode_row
from boardstate.cli import cli
from boardstate.judge import Judge, open_store
from boardstate.judge._site import MARKER

FINISHED, IN_PLAY = 0, 1  # (test_judge_crash's games: two players to the end; three, 30 moves)


def run(*args) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def _store_moves(judge: Judge, game_id: bytes, index: int, label: str) -> None:
    """Play test_judge_crash's game ``index`` in process and store its records as the judge
    does when it accepts a mail (here with no mail to queue)."""
    start = judge.store.head(game_id)
    play(judge, game_id, index, random.Random(index))
    game = judge.game(game_id)
    rows = [encode_row(game.header, r) for r in game.records[start:]]
    judge.store.accept(game_id, start, rows, _fixed(label), [], None)


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    """The store's path and its games (id -> the judge's copy, every secret in it)."""
    folder = tmp_path_factory.mktemp("club")
    path = folder / "judge.sqlite"
    judge = Judge(open_store(str(path)), judge_key())
    made = []
    for index in (FINISHED, IN_PLAY):
        game_id = judge.create(
            "jedi-duel",
            [(name, address(name)) for name in seats(index)],
            created=CREATED,
            seed=_fixed(f"seed {index}"),
            secret=_fixed("the judge's secret"),
        )
        _store_moves(judge, game_id, index, f"mail {index}")
        made.append(game_id)
    made.append(judge.create("epic-duels", [(n, address(n)) for n in ("eve", "fay")]))
    games = {game_id: judge.game(game_id, fresh=True) for game_id in made}
    judge.store.close()
    return path, games


@pytest.fixture(scope="module")
def site(club, tmp_path_factory):
    path, _ = club
    out = tmp_path_factory.mktemp("site") / "club"
    rc, said = run("judge", "site", "--store", path, "-o", out)
    assert rc == 0, said
    assert said == f"wrote {out / 'index.html'}: 3 games (3 pages written, 0 up to date)\n"
    return out


def page_of(site: Path, game_id: bytes) -> Path:
    return site / "games" / f"{game_id.hex()}.html"


class Links(HTMLParser):
    """Every ``href`` and ``src`` of a page."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.found: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.found += [value for name, value in attrs if name in ("href", "src") and value]


# ------------------------------------------------------------------------------ the pages
def test_the_index_lists_every_game_newest_first_with_where_it_stands(club, site):
    _, games = club
    index = (site / "index.html").read_text("utf-8")
    rows = re.findall(r"<tr><td class=\"game\">.*?</tr>", index)
    assert len(rows) == 3
    newest_first = list(reversed(games))
    for row, game_id in zip(rows, newest_first):
        game = games[game_id]
        assert f'href="games/{game_id.hex()}.html"' in row
        assert f">{game.module.spec.name}</a>" in row and game_id.hex()[:16] in row
        assert f'<td class="players">{", ".join(game.players)}</td>' in row
        assert f'<td class="records">{len(game.records)}</td>' in row
    waiting, in_play, over = rows
    assert "<strong>waiting for joins</strong>: eve, fay" in waiting and ">since 20" in waiting
    to_act = games[newest_first[1]].players[games[newest_first[1]].to_act()[0]]
    assert f"<strong>in play</strong>: to act: {to_act}<" in in_play and ">since 20" in in_play
    outcome = games[newest_first[2]].outcome()
    winner = games[newest_first[2]].players[outcome.winners[0]]
    assert "<strong>over</strong>: Game over (" in over and f"Winner: {winner}<" in over
    assert ">ended 20" in over


def test_every_link_leads_to_a_written_file_and_each_game_page_back_to_the_index(club, site):
    _, games = club
    pages = sorted(site.rglob("*.html"))
    assert pages == sorted([site / "index.html"] + [page_of(site, g) for g in games])
    linked = set()
    for page in pages:
        for link in Links(page.read_text("utf-8")).found:
            parts = urlsplit(link)
            if not parts.path:  # (a step of the replay: #12)
                assert not parts.scheme and not parts.netloc, link
                continue
            assert not parts.scheme and not parts.netloc, f"{page.name} links out: {link}"
            target = (page.parent / unquote(parts.path)).resolve()
            assert target.is_file(), f"{page.name} links to {link}, which is not written"
            linked.add((page, target))
    for game_id in games:
        assert (site / "index.html", page_of(site, game_id).resolve()) in linked
        assert (page_of(site, game_id), (site / "index.html").resolve()) in linked


def test_no_page_holds_a_value_a_spectator_may_not_see(club, site):
    """Every salt of every secret in the judge's log, every card label a spectator never saw,
    the seed and the judge's secret, in every spelling; and no mail address."""
    _, games = club
    index = (site / "index.html").read_text("utf-8")
    pages = {game_id: page_of(site, game_id).read_text("utf-8") for game_id in games}
    assert hidden_from(games[list(games)[IN_PLAY]], None)[1], "no card still hidden: weak test"
    for game_id, game in games.items():
        foreign, hidden = hidden_from(game, None)
        if foreign:  # (the waiting game holds no secret yet: its seed is searched below)
            assert_hides(game, None, pages[game_id])
        for secret in foreign:  # the index too, which draws no pictures
            assert not any(text in index for text in spellings(secret.salt))
        for label in hidden:
            assert word(label).search(index.split("<table", 1)[1]) is None, label
        header = game.header
        assert header.seed and header.peer_secret  # (the judge's copy holds both)
        for value in (header.seed, header.peer_secret):
            for page in [index, *pages.values()]:
                assert value not in page.encode("utf-8")
                assert not any(text in page for text in spellings(value))
        for name in game.players:
            assert all(address(name) not in page for page in [index, *pages.values()])


def test_a_game_page_is_the_spectators_replay_page_of_the_judges_log(club, site, tmp_path):
    """The same page ``boardstate replay LOG --html`` makes of the log the judge publishes,
    but for the link back to the index."""
    _, games = club
    game_id = list(games)[FINISHED]
    log = tmp_path / "log.msgpack"
    log.write_bytes(encode_game(games[game_id]))
    rc, said = run("replay", log, "--html", tmp_path / "replay.html")
    assert rc == 0, said
    replayed = (tmp_path / "replay.html").read_text("utf-8")
    home = '<p><a id="home" href="../index.html">\u2190 All games</a></p>\n'
    on_site = page_of(site, game_id).read_text("utf-8")
    assert home in on_site and on_site.replace(home, "", 1) == replayed
    assert "as a spectator saw it (no hidden card or choice)" in replayed


# ------------------------------------------------------------------------------ again, refusals
def test_a_second_run_writes_only_the_games_with_new_records(club, site, tmp_path):
    """A store holding the game in play up to record 10, its site; the rest of its records
    stored, the site again: that page (and the index) written, the others kept."""
    path, games = club
    in_play = list(games)[IN_PLAY]
    source = open_store(str(path))
    store = open_store(str(tmp_path / "judge.sqlite"))
    for game_id in games:
        header, rows = source.load(game_id)
        kept = rows[:10] if game_id == in_play else rows
        store.add_game(game_id, header, kept, source.players(game_id))
    out = tmp_path / "site"
    assert run("judge", "site", "--store", tmp_path / "judge.sqlite", "-o", out)[0] == 0
    written = {p: p.stat().st_mtime_ns for p in out.rglob("*.html")}
    assert "10</td>" in (out / "index.html").read_text("utf-8")
    again = ("judge", "site", "--store", tmp_path / "judge.sqlite", "-o", out)
    rc, said = run(*again, "--title", "The Kamino club")
    assert rc == 0 and "3 games (0 pages written, 3 up to date)" in said, said
    assert all(p.stat().st_mtime_ns == t for p, t in written.items() if p.parent.name == "games")
    assert "<h1>The Kamino club</h1>" in (out / "index.html").read_text("utf-8")
    store.accept(in_play, 10, source.load(in_play)[1][10:], _fixed("the rest"), [])
    store.close()
    source.close()
    rc, said = run(*again)
    assert rc == 0 and "3 games (1 page written, 2 up to date)" in said, said
    assert page_of(out, in_play).stat().st_mtime_ns != written[page_of(out, in_play)]
    assert page_of(out, in_play).read_bytes() == page_of(site, in_play).read_bytes()
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]


def test_a_folder_holding_something_else_is_refused_in_one_line(club, tmp_path):
    path, _ = club
    foreign = tmp_path / "photos"
    foreign.mkdir()
    (foreign / "kamino.jpg").write_bytes(b"not ours")
    rc, said = run("judge", "site", "--store", path, "-o", foreign)
    assert rc == 2 and said.count("\n") == 1, said
    assert "is not empty and holds no site of 'boardstate judge site'" in said
    assert sorted(p.name for p in foreign.iterdir()) == ["kamino.jpg"]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run("judge", "site", "--store", path, "-o", empty)[0] == 0
    assert (empty / MARKER).is_file() and (empty / "index.html").is_file()
    a_file = tmp_path / "index.html"
    a_file.write_text("mine")
    rc, said = run("judge", "site", "--store", path, "-o", a_file)
    assert rc == 2 and said.count("\n") == 1 and a_file.read_text() == "mine", said


# ------------------------------------------------------------------------------ in a browser
def test_the_site_in_a_browser_index_to_game_and_back(browser, club, site):  # noqa: F811
    from selenium.webdriver.common.by import By

    _, games = club
    browser.get((site / "index.html").resolve().as_uri())
    assert browser.title == "Club games"
    links = browser.find_elements(By.CSS_SELECTOR, "#games a")
    assert [a.text for a in links] == [games[g].module.spec.name for g in reversed(games)]
    finished = list(games)[FINISHED]
    links[2].click()
    assert browser.current_url == page_of(site, finished).resolve().as_uri()
    open_page(browser, page_of(site, finished))  # (its pictures unpacked: the script ran)
    status = browser.find_element(By.ID, "status")
    browser.find_element(By.ID, "forward").click()
    assert status.text.startswith("record 1 of ")
    assert browser.find_element(By.ID, "result").is_displayed() is False  # (no spoiler yet)
    browser.find_element(By.ID, "home").click()
    assert browser.current_url == (site / "index.html").resolve().as_uri()
    assert len(browser.find_elements(By.CSS_SELECTOR, "#games a")) == 3
    assert_clean_log(browser)
