"""Pictures as PNG (for mail and forums): ``boardstate show FILE --as P -o pos.png``,
``Position.png()``, and the one conversion they and the judge's mails share
(``boardstate._png``)."""

from __future__ import annotations

import io
import sys
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

import boardstate as bs
from boardstate._png import PNG_SIGNATURE, PngUnavailable, png_available, svg_to_png
from boardstate.cli import cli
from boardstate.modules.duel_of_the_forces import MODULE as DUEL
from boardstate.modules.epic_duels import MODULE as EPIC
from boardstate.modules.jedi_duel import MODULE as JEDI
from boardstate.testing import random_game

Image = pytest.importorskip("PIL.Image")  # (cairosvg's own dependency: there when it is)
pytestmark = pytest.mark.skipif(not png_available(), reason="cairosvg (or Cairo) does not load")

GAMES = {
    "epic-duels": (EPIC, 2, {"board": "kamino"}),
    "epic-duels-team": (EPIC, 4, {"variant": "team", "board": "geonosis"}),
    "jedi-duel": (JEDI, 3, {}),
    "duel-of-the-forces": (DUEL, 4, {}),
}


@pytest.fixture(scope="module", params=sorted(GAMES))
def midgame(request) -> bs.Game:
    module, players, options = GAMES[request.param]
    return random_game(module, 5, players, options=options, stop_after=30)


def svg_size(svg: str) -> tuple[int, int]:
    root = ET.fromstring(svg)
    return round(float(root.get("width"))), round(float(root.get("height")))


def decoded(png: bytes):
    image = Image.open(io.BytesIO(png))
    image.load()  # (every byte read: a broken file fails here)
    return image


def test_a_position_as_png_is_a_valid_png_of_the_pictures_size(midgame):
    position = midgame.position(seat=0)
    png = position.png()
    assert png.startswith(PNG_SIGNATURE)
    image = decoded(png)
    assert image.format == "PNG" and image.size == svg_size(position.svg())
    width, height = image.size
    assert 300 <= width <= 2000 and 200 <= height <= 2000  # (for a mail or a forum post)
    assert 5_000 < len(png) < 1_000_000
    grey = image.convert("L")
    low, high = grey.getextrema()
    assert low < 60 and high > 240  # (dark ink on a light ground: something is drawn)
    assert png == svg_to_png(position.svg())  # (one conversion, the same bytes each time)


def test_scale_draws_it_larger():
    game = random_game(EPIC, 2, 2, options={"board": "geonosis"}, stop_after=10)
    position = game.position(seat=1)
    width, height = decoded(position.png()).size
    assert decoded(position.png(scale=2)).size == (2 * width, 2 * height)


def test_the_png_is_drawn_from_the_seats_view_only():
    """The PNG is the picture of the view: the engine's state (every card at hand) draws the
    very same bytes as the state a seat may see, so no secret reaches it."""
    game = random_game(EPIC, 3, 2, options={"board": "kamino"}, stop_after=25)
    for seat in (0, 1, None):
        seen = game.decider.view(game.state, seat)
        from_view = svg_to_png(EPIC.rules.svg(seen, seat))
        assert from_view == svg_to_png(EPIC.rules.svg(game.state, seat))
        assert game.position(seat=seat).png() == from_view


def test_a_module_that_draws_nothing_has_no_png():
    class NoPicture:
        def __init__(self, rules):
            self._rules = rules

        def __getattr__(self, name):
            if name == "svg":
                raise AttributeError(name)
            return getattr(self._rules, name)

    game = bs.Game.new(bs.Module(EPIC.spec, NoPicture(EPIC.rules)), ["a", "b"], {}, seed=b"x")
    assert game.position().png() is None


def test_without_cairosvg_one_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # (import cairosvg: ImportError)
    assert not png_available()
    game = random_game(JEDI, 1, 2, stop_after=4)
    with pytest.raises(PngUnavailable) as caught:
        game.position().png()
    assert caught.value.code == "missing-driver"
    assert "boardstate[png]" in str(caught.value) and "\n" not in str(caught.value)


# ---------------------------------------------------------------------------------- the command
@pytest.fixture(scope="module")
def game_file(tmp_path_factory):
    """An Epic Duels game on the Throne Room, 20 commands in."""
    path = tmp_path_factory.mktemp("png") / "game.msgpack"
    bs.save_game(random_game(EPIC, 4, 2, options={"board": "throne-room"}, stop_after=20), path)
    return path


def show(*args):
    """``boardstate show ARGS...``"""
    return CliRunner().invoke(cli, ["show", *map(str, args)])


def test_show_out_named_png_writes_the_seats_picture_as_png(game_file, tmp_path):
    out = tmp_path / "pos.png"
    result = show(game_file, "--as", "ann", "-o", out)
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.stderr
    game = bs.load_game(game_file)
    assert out.read_bytes() == game.position(seat="ann").png()
    assert decoded(out.read_bytes()).size == svg_size(game.position(seat="ann").svg())
    svg = tmp_path / "pos.svg"  # (and .svg as before: the same picture)
    assert show(game_file, "--as", "ann", "-o", svg).exit_code == 0
    assert svg.read_text() == game.position(seat="ann").svg()


def test_show_png_refuses_to_overwrite_without_force(game_file, tmp_path):
    out = tmp_path / "pos.PNG"
    out.write_bytes(b"mine")
    refused = show(game_file, "-o", out)
    assert refused.exit_code == 2 and "exists" in refused.stderr
    assert out.read_bytes() == b"mine"
    assert show(game_file, "-o", out, "--force").exit_code == 0
    assert out.read_bytes().startswith(PNG_SIGNATURE)


def test_show_png_without_cairosvg_is_one_line(game_file, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)
    out = tmp_path / "pos.png"
    result = show(game_file, "-o", out)
    assert result.exit_code == 2 and not out.exists()
    assert result.stderr.count("\n") == 1 and "[missing-driver]" in result.stderr
    assert "boardstate[png]" in result.stderr


def test_show_png_of_a_game_that_draws_nothing(tmp_path):
    from boardstate_example_rps import MODULE as RPS

    path = tmp_path / "rps.msgpack"
    bs.save_game(bs.Game.new(RPS, ["ann", "ben"], {}, seed=b"rps"), path)
    result = show(path, "-o", tmp_path / "pos.png")
    assert result.exit_code == 2 and "draws no pictures" in result.stderr
    assert not (tmp_path / "pos.png").exists()
