"""The replay page within the memory bound, and running out of memory never called corruption
(issue 24, item 4).

The page is written to its file step by step (``save_replay_html``): one picture at a time,
each state drawn once and packed as it comes (what changed since the picture before, compressed
as a stream), and a line per record for the move list; never the page in memory.  Every place a reader turns a module's failure into "corrupt" lets ``MemoryError``
through, and the CLI's one error funnel says "out of memory" (exit 2) instead of "internal
error" or "corrupt"."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from xml.parsers import expat

import pytest
from click.testing import CliRunner
from test_hardening_files import limited
from test_replay_html import expand

import boardstate as bs
from boardstate.cli import cli

DOTF = bs.get_module("duel-of-the-forces")


def run(*args) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def noted_game(path, notes: int) -> None:
    """A Duel of the Forces game of ``notes`` notes after its setup: a long file that is cheap
    to make, whose every position is the same picture."""
    game = bs.Game.new(DOTF, ["ann", "ben"], {}, seed=b"notes")
    for i in range(notes):
        game.play(i % 2, f"note {i}")
    bs.save_game(game, path)


def test_the_replay_page_of_a_long_game_stays_within_the_bound(tmp_path):
    """12,000 records (a 0.7 MB file): the bound is 256 MiB + 64 x 0.7 MB = 300 MiB.  Before,
    the page held a picture per record in memory (298 MiB and 9 s, then "corrupt"); now
    34 MiB and 0.4 s (docs/reliability.md)."""
    game = tmp_path / "long.msgpack"
    noted_game(game, 12_000)
    rc, _, err = limited(tmp_path, "replay", game, "--html", "long.html", size=game.stat().st_size)
    assert rc == 0, err[-2000:]
    page = (tmp_path / "long.html").read_text()
    assert page.count("<li data-step=") == 12_001
    assert page.count('<figure class="frame"') == 1
    assert len(expand(page)) == 1  # (one position, drawn once)
    assert not list(tmp_path.glob(".long.html.*"))  # (no temporary file left)


def _raise_memory(*args, **kwargs):
    raise MemoryError


def _expat_out_of_memory(*args, **kwargs):
    error = ET.ParseError("out of memory: line 1, column 0")
    error.code = expat.errors.codes[expat.errors.XML_ERROR_NO_MEMORY]
    raise error


@pytest.mark.parametrize(
    "where, target, replacement, command",
    [
        ("drawing a picture", "svg", _raise_memory, ["replay", "{f}", "--html", "{d}/p.html"]),
        ("the text table", "render", _raise_memory, ["show", "{f}"]),
        ("listing commands", "legal", _raise_memory, ["legal", "{f}", "--as", "ann"]),
        ("the page's SVG parser", "fromstring", _expat_out_of_memory,
         ["replay", "{f}", "--html", "{d}/p.html"]),
    ],
)  # fmt: skip
def test_running_out_of_memory_is_never_called_corruption(
    tmp_path, monkeypatch, where, target, replacement, command
):
    """Before: 'the rules cannot show a state this file folds to (MemoryError:) [corrupt]'
    (or '... not SVG (out of memory ...)', or an internal error)."""
    game = tmp_path / "g.msgpack"
    noted_game(game, 2)
    if target == "fromstring":
        monkeypatch.setattr(ET, "fromstring", replacement)
    else:
        rules = type(bs.load_game(game).module.rules)  # (a module's parts are its class's)
        monkeypatch.setattr(rules, target, staticmethod(replacement))
    rc, _, err = run(*(a.format(f=game, d=tmp_path) for a in command))
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1, (where, rc, err)
    assert "out of memory" in lines[0] and "[out-of-memory]" in lines[0], lines[0]
    assert "corrupt" not in lines[0] and "internal error" not in lines[0]
    assert not (tmp_path / "p.html").exists()


def test_a_small_text_file_is_read_within_the_bound(tmp_path):
    """Found by the fuzz harness's page test: a file that starts as text is looked at as an
    armored move, and ``f.read(512 MiB)`` reserved the whole limit first, so every command
    on a 20-byte text file ran out of memory within the bound.  It reads as it comes now."""
    text = tmp_path / "note.txt"
    text.write_text("not a game at all\n")
    for command in ("show", "replay", "verify"):
        rc, _, err = limited(tmp_path, command, text, size=text.stat().st_size)
        assert rc == 2 and "not a boardstate file" in err and "memory" not in err, err
