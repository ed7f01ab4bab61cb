"""The replay page (``boardstate replay FILE --html OUT``) in a real browser: Debian's headless
Chromium, driven by Selenium through Debian's chromedriver.

The page is opened from disk (``file://``), stepped through with the keys, the buttons, a click
in the move list and the jump field; at each step the position shown, the current move and the
status line are checked against what Python computed, and a screenshot is saved (under
pytest's temporary folder; also in ``$BOARDSTATE_SCREENSHOTS`` when set).  The browser's log
must stay clean: a blocked load (the page's Content-Security-Policy) or a script error fails.

Needs ``chromium`` and ``chromium-driver`` (apt) and ``selenium`` (the ``test`` extra).  When
one is missing the tests are skipped, saying what is missing; with
``BOARDSTATE_REQUIRE_BROWSER=1`` (CI) they fail instead.
"""

from __future__ import annotations

import importlib.util
import os
import random
import re
import shutil
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

import boardstate as bs
from boardstate.cli import cli

REQUIRED = os.environ.get("BOARDSTATE_REQUIRE_BROWSER", "") not in ("", "0")
# Debian's packages; BOARDSTATE_CHROMIUM / BOARDSTATE_CHROMEDRIVER name others (exactly).
CHROMIUM = ("BOARDSTATE_CHROMIUM", "/usr/bin/chromium", "chromium")
CHROMEDRIVER = ("BOARDSTATE_CHROMEDRIVER", "/usr/bin/chromedriver", "chromedriver")
FLAGS = (
    "--headless=new",
    "--no-sandbox",  # (CI runs as root: Chromium's sandbox refuses root)
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--window-size=1280,900",
)


def _executable(which) -> str | None:
    """The program's path: the one the environment names, else Debian's, else on PATH."""
    variable, debian, name = which
    given = os.environ.get(variable)
    for path in [given] if given else [debian, shutil.which(name)]:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def _wanted(which) -> str:
    variable, debian, _ = which
    return os.environ.get(variable) or debian


def _missing() -> str:
    """What the browser tests lack ('' when nothing)."""
    lacking = []
    if importlib.util.find_spec("selenium") is None:
        lacking.append("the Python package selenium (pip install -e '.[test]')")
    if _executable(CHROMIUM) is None:
        lacking.append(f"{_wanted(CHROMIUM)} (apt-get install chromium)")
    if _executable(CHROMEDRIVER) is None:
        lacking.append(f"{_wanted(CHROMEDRIVER)} (apt-get install chromium-driver)")
    return "; ".join(lacking)


def _cannot_run(why: str):
    message = f"the browser tests cannot run: {why}"
    if REQUIRED:
        pytest.fail(f"{message} (BOARDSTATE_REQUIRE_BROWSER is set)", pytrace=False)
    pytest.skip(f"{message}; set BOARDSTATE_REQUIRE_BROWSER=1 to make this a failure")


def _start(tmp_path_factory, *, javascript: bool = True):
    """A headless Chromium (JavaScript off: as a reader who turned it off)."""
    why = _missing()
    if why:
        _cannot_run(why)
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = _executable(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if not javascript:
        options.add_experimental_option(
            "prefs", {"profile.managed_default_content_settings.javascript": 2}
        )
    service = Service(_executable(CHROMEDRIVER))
    try:
        driver = webdriver.Chrome(options=options, service=service)
    except WebDriverException as exc:
        _cannot_run(f"Chromium did not start ({str(exc.msg or exc).strip().splitlines()[0]})")
    driver.set_page_load_timeout(60)
    return driver


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = _start(tmp_path_factory)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    """Save a screenshot under pytest's temporary folder (and in $BOARDSTATE_SCREENSHOTS)."""
    folders = [tmp_path_factory.mktemp("screenshots")]
    if os.environ.get("BOARDSTATE_SCREENSHOTS"):
        extra = Path(os.environ["BOARDSTATE_SCREENSHOTS"])
        extra.mkdir(parents=True, exist_ok=True)
        folders.append(extra)

    def shoot(driver, name: str) -> None:
        for folder in folders:
            path = folder / f"{name}.png"
            assert driver.save_screenshot(str(path)), f"no screenshot {path}"
            assert path.stat().st_size > 1000

    return shoot


# ------------------------------------------------------------------------------ games, pages
def play(module_id, players, seed, *, stop_after=None, options=None) -> bs.Game:
    game = bs.Game.new(
        bs.get_module(module_id), players, dict(options or {}), seed=b"browser-%d" % seed
    )
    pick = random.Random(seed)
    while game.outcome() is None and (stop_after is None or game.seq <= stop_after):
        seat = pick.choice(game.to_act())
        game.play(seat, pick.choice(game.legal(seat)), entropy=pick.randbytes)
    return game


def write_page(tmp_path, game, viewer, *extra) -> Path:
    path, out = tmp_path / "game.msgpack", tmp_path / "replay.html"
    bs.save_game(game, path)
    return write_page_of(path, out, viewer, *extra)


def write_page_of(path: Path, out: Path, viewer, *extra) -> Path:
    args = ["replay", str(path), "--html", str(out), *extra] + (["--as", viewer] if viewer else [])
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.stderr
    return out


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


class Expected:
    """What Python says each step of the page shows, as ``seat`` sees it (each picture drawn
    when a test first asks for it)."""

    def __init__(self, game, seat) -> None:
        self.game, self.seat = game, seat
        self.last = len(game.records) - 1
        decider = game.decider
        self._draw = getattr(game.module.rules, "svg", None)
        self.moves = [bs.describe(game, rec, seat) for rec in game.records]
        self._views = [decider.view(state, seat) for state in game.states()]
        self._pictures = {}
        self.draws = self._draw is not None
        self.spoilers = False  # (the page was written with --spoilers, or the button pressed)
        outcome = game.outcome()
        if outcome is None:
            self.result = f"The game goes on (after record {self.last})"
        else:
            winners = " and ".join(game.players[w] for w in outcome.winners)
            self.result = f"Game over ({outcome.reason})"
            self.winners = f"Winner: {winners}"

    def picture(self, i: int) -> str:
        """The text of the picture after record ``i``, as a browser's textContent reads it."""
        if i not in self._pictures:
            view, seat = self._views[i], self.seat
            if self._draw is None:
                text = self.game.decider.render(view, seat)
            else:
                text = "".join(ET.fromstring(self._draw(view, seat)).itertext())
            self._pictures[i] = _squeeze(text)
        return self._pictures[i]

    def status(self, i: int) -> str:
        return f"record {i} of {self.last}: {self.moves[i]}"


_SNAPSHOT = """
const position = document.getElementById("position");
const frames = Array.from(position.querySelectorAll(".frame"))
  .filter((f) => !f.hidden && f.getClientRects().length > 0);
const current = Array.from(document.querySelectorAll("#moves > li.current"));
const picture = frames.length === 1 ? frames[0].querySelector(".picture") : null;
const svg = picture ? picture.querySelector("svg") : null;
const box = svg ? svg.getBoundingClientRect() : null;
const item = current.length === 1 ? current[0] : null;
const list = document.getElementById("moves");
const shown = (el) => el.getClientRects().length > 0;
let inView = false, numberWhole = false;
if (item) {
  const a = item.getBoundingClientRect(), b = list.getBoundingClientRect();
  inView = a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  const n = item.querySelector(".n"), c = n.getBoundingClientRect();
  numberWhole = c.left >= b.left - 0.5 && n.scrollWidth <= Math.ceil(c.width) + 1;
}
return {
  ready: position.getAttribute("data-ready"),
  step: position.getAttribute("data-step"),
  frames: frames.length,
  current: current.map((li) => li.getAttribute("data-step")),
  ariaCurrent: Array.from(document.querySelectorAll('#moves > li[aria-current="step"]'))
    .map((li) => li.getAttribute("data-step")),
  currentText: item ? item.querySelector(".move").textContent : null,
  currentNumber: item ? item.querySelector(".n").textContent : null,
  numberWhole: numberWhole,
  currentInView: inView,
  listed: Array.from(document.querySelectorAll("#moves > li")).filter(shown)
    .map((li) => li.getAttribute("data-step")),
  status: document.getElementById("status").textContent,
  picture: picture ? picture.textContent : null,
  svgSize: box ? [box.width, box.height] : null,
  result: document.getElementById("result").textContent,
  resultShown: shown(document.getElementById("result")),
  text: document.body.innerText,
  jump: document.getElementById("jump").value,
  controls: !document.getElementById("controls").hidden,
  everything: document.getElementById("everything").getAttribute("aria-pressed"),
};
"""


def check_step(driver, expected: Expected, i: int) -> dict:
    """The page shows record ``i``: its picture alone, the move current and in view, the
    status; the moves up to it and no later one, the result only at the last record (or
    everything, once asked for)."""
    seen = driver.execute_script(_SNAPSHOT)
    assert seen["ready"] == "yes"
    assert seen["step"] == str(i), seen["status"]
    assert seen["current"] == [str(i)] and seen["ariaCurrent"] == [str(i)]
    assert seen["currentText"] == expected.moves[i]
    assert seen["currentNumber"] == f"{i}." and seen["numberWhole"], f"move {i}'s number cut"
    assert seen["currentInView"], f"the current move {i} is scrolled out of the list"
    assert seen["status"] == expected.status(i)
    assert seen["frames"] == 1, f"{seen['frames']} positions shown at once"
    assert _squeeze(seen["picture"]) == expected.picture(i), f"the wrong position at step {i}"
    if expected.draws:
        width, height = seen["svgSize"]
        assert width > 100 and height > 100, seen["svgSize"]
    assert seen["jump"] == str(i)
    assert seen["controls"]
    assert seen["everything"] == ("true" if expected.spoilers else "false")
    if expected.spoilers:
        assert seen["listed"] == [str(k) for k in range(expected.last + 1)]
    else:
        assert seen["listed"] == [str(k) for k in range(i + 1)], "a later move is listed"
    assert seen["result"].startswith(expected.result)
    if expected.spoilers or i == expected.last:
        assert seen["resultShown"] and expected.result in seen["text"]
    else:
        assert not seen["resultShown"] and expected.result not in seen["text"]
        assert "Winner" not in seen["text"], "the winner is shown before the end"
    return seen


def press(driver, key, times: int = 1) -> None:
    from selenium.webdriver.common.by import By

    body = driver.find_element(By.TAG_NAME, "body")
    for _ in range(times):
        body.send_keys(key)


def assert_clean_log(driver) -> None:
    """Nothing blocked by the Content-Security-Policy, no script error, nothing fetched."""
    entries = driver.get_log("browser")
    bad = [e for e in entries if e.get("level") in ("SEVERE", "WARNING")]
    assert not bad, bad


_READY = "return document.getElementById('position').getAttribute('data-ready')"


def open_page(driver, page: Path, at: str = "") -> float:
    """Open the page (at ``#N``: that record); the seconds until its pictures were unpacked."""
    start = time.perf_counter()
    driver.get(page.resolve().as_uri() + at)
    if at:  # (only the address's fragment changed: the page is not loaded again by itself)
        driver.refresh()
    while driver.execute_script(_READY) is None:
        assert time.perf_counter() - start < 30, "the pictures were never unpacked"
        time.sleep(0.005)
    seconds = time.perf_counter() - start
    assert driver.title.endswith("(replay)")
    assert driver.execute_script(_READY) == "yes"
    return seconds


# ------------------------------------------------------------------------------ the tests
def test_stepping_through_a_jedi_duel_as_a_player(browser, shots, tmp_path):
    """Three players, seen by ann: the keys, the buttons, a click in the list, the jump field."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    game = play("jedi-duel", ["ann", "ben", "cat"], 1)
    expected = Expected(game, 0)
    last = expected.last
    assert last > 40
    open_page(browser, write_page(tmp_path, game, "ann"))
    check_step(browser, expected, 0)
    shots(browser, "jedi-duel-ann-000-start")

    press(browser, Keys.ARROW_RIGHT, 5)
    check_step(browser, expected, 5)
    shots(browser, "jedi-duel-ann-005-arrow-right")
    press(browser, Keys.ARROW_RIGHT)
    check_step(browser, expected, 6)
    press(browser, Keys.ARROW_LEFT, 2)
    check_step(browser, expected, 4)

    press(browser, Keys.END)
    check_step(browser, expected, last)
    shots(browser, f"jedi-duel-ann-{last:03}-end")
    press(browser, Keys.ARROW_RIGHT)  # at the end: stays
    check_step(browser, expected, last)
    press(browser, Keys.ARROW_LEFT)
    check_step(browser, expected, last - 1)
    press(browser, Keys.HOME)
    check_step(browser, expected, 0)
    press(browser, Keys.ARROW_LEFT)  # at the start: stays
    check_step(browser, expected, 0)

    press(browser, Keys.END)  # (every move listed: none is after the last)
    middle = last // 2  # a click in the move list jumps there
    item = browser.find_element(By.CSS_SELECTOR, f'#moves > li[data-step="{middle}"] .move')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", item)
    item.click()
    check_step(browser, expected, middle)
    shots(browser, f"jedi-duel-ann-{middle:03}-clicked")
    press(browser, Keys.ARROW_RIGHT)  # the keys go on from there
    check_step(browser, expected, middle + 1)

    field = browser.find_element(By.ID, "jump")  # the jump field: type a record, Enter
    target = last // 3
    field.clear()
    field.send_keys(str(target), Keys.ENTER)
    check_step(browser, expected, target)
    shots(browser, f"jedi-duel-ann-{target:03}-jumped")
    field.clear()
    field.send_keys(str(last + 50), Keys.ENTER)  # past the end: the last record
    check_step(browser, expected, last)

    browser.find_element(By.ID, "first").click()
    check_step(browser, expected, 0)
    browser.find_element(By.ID, "forward").click()
    browser.find_element(By.ID, "forward").click()
    check_step(browser, expected, 2)
    browser.find_element(By.ID, "back").click()
    check_step(browser, expected, 1)
    browser.find_element(By.ID, "last").click()
    check_step(browser, expected, last)
    assert browser.find_element(By.ID, "forward").get_attribute("disabled") is not None
    assert expected.winners in browser.find_element(By.ID, "result").text
    shots(browser, "jedi-duel-ann-last-result")
    assert_clean_log(browser)


def test_an_epic_duel_seen_by_a_spectator_draws_every_step(browser, shots, tmp_path):
    """A module that draws SVG, opened at a record given in the address (#N)."""
    from selenium.webdriver.common.keys import Keys

    game = play("epic-duels", ["ann", "ben"], 2, stop_after=60)
    expected = Expected(game, None)
    assert expected.draws
    last = expected.last
    page = write_page(tmp_path, game, None)
    open_page(browser, page)
    check_step(browser, expected, 0)
    shots(browser, "epic-duels-spectator-000-start")
    for i in range(1, 13):
        press(browser, Keys.ARROW_RIGHT)
        check_step(browser, expected, i)
    shots(browser, "epic-duels-spectator-012")
    press(browser, Keys.END)
    check_step(browser, expected, last)
    shots(browser, f"epic-duels-spectator-{last:03}-end")
    for i in range(last - 1, last - 6, -1):
        press(browser, Keys.ARROW_LEFT)
        check_step(browser, expected, i)
    press(browser, Keys.HOME)
    check_step(browser, expected, 0)
    open_page(browser, page, "#20")  # (a new address: the page opens there)
    check_step(browser, expected, 20)
    shots(browser, "epic-duels-spectator-020-address")
    assert_clean_log(browser)


def test_no_spoilers_until_the_end_or_until_asked(browser, shots, tmp_path):
    """Before the last record the list shows no later move and the result is not on the
    screen; "Show everything" shows them all, and again hides them; a page written with
    ``--spoilers`` opens with everything shown."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    game = play("duel-of-the-forces", ["ann", "ben"], 4)
    expected = Expected(game, 0)
    last = expected.last
    assert last > 20 and game.outcome() is not None
    page = write_page(tmp_path, game, "ann")
    open_page(browser, page)
    check_step(browser, expected, 0)
    press(browser, Keys.ARROW_RIGHT, 7)
    check_step(browser, expected, 7)
    shots(browser, "duel-of-the-forces-ann-007-no-spoilers")
    button = browser.find_element(By.ID, "everything")
    assert button.text == "Show everything"
    button.click()
    expected.spoilers = True
    check_step(browser, expected, 7)
    shots(browser, "duel-of-the-forces-ann-007-everything")
    press(browser, Keys.ARROW_RIGHT)  # (the keys step on, everything still shown)
    check_step(browser, expected, 8)
    button.click()
    expected.spoilers = False
    check_step(browser, expected, 8)
    press(browser, Keys.END)
    check_step(browser, expected, last)
    assert expected.winners in browser.find_element(By.ID, "result").text
    press(browser, Keys.ARROW_LEFT)
    check_step(browser, expected, last - 1)
    assert_clean_log(browser)

    shown = write_page_of(tmp_path / "game.msgpack", tmp_path / "shown.html", "ann", "--spoilers")
    expected.spoilers = True
    open_page(browser, shown)
    check_step(browser, expected, 0)
    shots(browser, "duel-of-the-forces-ann-000-spoilers")
    press(browser, Keys.ARROW_RIGHT, 3)
    check_step(browser, expected, 3)
    assert_clean_log(browser)


# The largest page of the sample games (bench/bench_replay_pages.py: every file in replays/, as
# every viewer): Master Play for four, 945 records, as cat saw it.  Before: 42.5 MB.
# (the longest sample game: made under Epic Duels' rules revision 3, 945 records, and kept
# among the fixtures when revision 4's samples replaced it in replays/)
LARGEST = (
    Path(__file__).resolve().parent
    / "fixtures"
    / "epic-duels-revision-3"
    / "epic-duels-master-4p.msgpack"
)
LARGEST_VIEWER = "cat"
MOST_BYTES = 1_500_000
MOST_SECONDS = 1.0  # (a step: the key pressed, the picture put together, laid out and drawn)

_NEXT_FRAME = "requestAnimationFrame(() => setTimeout(arguments[arguments.length - 1], 0));"


def test_the_largest_sample_page_is_small_and_each_step_takes_under_a_second(
    browser, shots, tmp_path
):
    """The page of the largest sample game: at most 1.5 MB; it opens (its pictures unpacked)
    and steps, each step timed from the key or the jump to the next frame drawn: the first 40
    records one by one, 60 jumps spread over the game, the last 20 backwards; move 275 shows
    its number whole."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    page = write_page_of(LARGEST, tmp_path / "largest.html", LARGEST_VIEWER)
    size = page.stat().st_size
    assert size <= MOST_BYTES, f"{size:,} bytes"
    game = bs.load_game(LARGEST)
    expected = Expected(game, game.seat(LARGEST_VIEWER))
    last = expected.last
    assert last > 900
    opened = open_page(browser, page)
    assert opened < 3 * MOST_SECONDS, f"{opened:.2f} s to open"
    check_step(browser, expected, 0)
    field = browser.find_element(By.ID, "jump")
    times = []

    def timed(step, i: int) -> None:
        start = time.perf_counter()
        step()
        browser.execute_async_script(_NEXT_FRAME)
        times.append(time.perf_counter() - start)
        check_step(browser, expected, i)

    for i in range(1, 41):
        timed(lambda: press(browser, Keys.ARROW_RIGHT), i)

    def jump(i: int) -> None:
        field.clear()
        field.send_keys(str(i), Keys.ENTER)

    for i in [*range(last, 0, -last // 60), 275]:
        timed(lambda i=i: jump(i), i)
    shots(browser, f"epic-duels-master-4p-{LARGEST_VIEWER}-275")
    timed(browser.find_element(By.ID, "last").click, last)  # (the keys go to the button)
    for i in range(last - 1, last - 21, -1):
        timed(lambda: press(browser, Keys.ARROW_LEFT), i)
    shots(browser, f"epic-duels-master-4p-{LARGEST_VIEWER}-{last - 20}")
    assert_clean_log(browser)
    times.sort()
    print(
        f"\n{LARGEST.name} as {LARGEST_VIEWER}: {size:,} bytes, opened in {opened:.2f} s; "
        f"{len(times)} steps: "
        f"median {times[len(times) // 2]:.3f} s, slowest {times[-1]:.3f} s"
    )
    assert times[-1] < MOST_SECONDS, f"a step took {times[-1]:.2f} s"


def test_without_javascript_the_first_position_and_every_move_are_shown(
    tmp_path_factory, shots, tmp_path
):
    """Scripts off: the first position, every move listed, the result, and a note that the
    other positions need the script; the buttons (which would do nothing) are not shown."""
    from selenium.webdriver.common.by import By

    game = play("duel-of-the-forces", ["ann", "ben"], 3)
    expected = Expected(game, 1)
    page = write_page(tmp_path, game, "ben")
    driver = _start(tmp_path_factory, javascript=False)
    try:
        driver.get(page.resolve().as_uri())
        frames = driver.find_elements(By.CSS_SELECTOR, "#position .frame")
        assert len(frames) == 1 and frames[0].is_displayed()
        picture = frames[0].find_element(By.CSS_SELECTOR, ".picture")
        assert _squeeze(picture.get_attribute("textContent")) == expected.picture(0)
        items = driver.find_elements(By.CSS_SELECTOR, "#moves > li .move")
        assert [i.text for i in items] == expected.moves
        assert all(i.is_displayed() for i in items[:3] + items[-3:])
        assert not driver.find_element(By.ID, "controls").is_displayed()
        assert expected.winners in driver.find_element(By.ID, "result").text
        assert "js" not in (driver.find_element(By.TAG_NAME, "html").get_attribute("class") or "")
        body = driver.find_element(By.TAG_NAME, "body").text
        assert "Without JavaScript only the first position is shown" in body
        shots(driver, "duel-of-the-forces-ben-no-javascript")
        assert_clean_log(driver)
    finally:
        driver.quit()
