"""Data files named in an option (issue 24, items 5 and 6): one reader refuses what is not a
regular file (a directory included), a new header is read back through the reader's own limits
(a deck of more than 4,096 cards), and Epic Duels' ``decks=FILE`` makes a game that plays and
verifies (its deck texts are stored as ``[team, text]`` pairs: a header holds no maps)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import boardstate as bs
from boardstate.cli import cli

EPIC = Path(__import__("boardstate.modules.epic_duels", fromlist=["x"]).__file__).parent / "decks"
DOTF_CARDS = (
    Path(__import__("boardstate.modules.duel_of_the_forces", fromlist=["x"]).__file__).parent
    / "cards.toml"
)


def run(*args) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def refused(result, code: int = 2) -> str:
    rc, _, err = result
    lines = err.strip().splitlines()
    assert rc == code and len(lines) == 1, (rc, err)
    assert "internal error" not in err and "Traceback" not in err
    return lines[0]


def test_epic_duels_decks_option_makes_a_game_that_plays_and_verifies(tmp_path):
    """The shipped deck files (every one was refused: 'deck-texts is not msgpack-native')."""
    game = tmp_path / "duel.msgpack"
    luke, vader = EPIC / "luke.toml", EPIC / "vader.toml"
    rc, _, err = run(
        "new", "epic-duels", "--player", "ann", "--player", "ben",
        "--option", f"decks={luke},{vader}", "--option", "characters=luke,vader",
        "--seed", "decks", "-o", game,
    )  # fmt: skip
    assert rc == 0, err
    loaded = bs.load_game(game)
    assert dict(loaded.header.option_map["deck-texts"]) == {
        "luke": luke.read_text(),
        "vader": vader.read_text(),
    }
    seat = loaded.to_act()[0]
    command = loaded.legal(seat)[0]
    who = loaded.players[seat]
    rc, _, err = run("move", game, "--as", who, command, "-o", tmp_path / "m.msgpack")
    assert rc == 0, err
    rc, out, err = run("verify", game)
    assert rc == 0 and out.startswith("ok: 2 records"), (out, err)


def test_a_players_deck_with_printed_values_is_played_from_the_header(tmp_path):
    """A changed deck is stored in the game: the game verifies without the file."""
    taunting = 'name = "Taunting"\npictures = "dooku"\nkind = "power-combat"\nattack = '
    mine = tmp_path / "my-dooku.toml"
    mine.write_text((EPIC / "dooku.toml").read_text().replace(taunting + "7", taunting + "8"))
    game = tmp_path / "duel.msgpack"
    rc, _, err = run(
        "new", "epic-duels", "--player", "ann", "--player", "ben",
        "--option", f"decks={mine}", "-o", game,
    )  # fmt: skip
    assert rc == 0, err
    mine.unlink()
    rc, out, err = run("verify", game)
    assert rc == 0, err
    state = bs.load_game(game).state
    card = next(c for c in state.roster.cards if c.name == "Taunting")
    assert card.attack.base == 8


@pytest.mark.parametrize(
    "module, option, what",
    [
        ("duel-of-the-forces", "deck", "deck file"),
        ("jedi-duel", "playaid", "Playaid file"),
        ("epic-duels", "decks", "deck file"),
    ],
)
def test_a_directory_as_a_data_file_is_one_line(tmp_path, module, option, what):
    """Before: IsADirectoryError, an internal error (a directory opened, then wrapped)."""
    line = refused(
        run("new", module, "--player", "a", "--player", "b", "--option",
            f"{option}={tmp_path}", "-o", tmp_path / "g.msgpack")
    )  # fmt: skip
    assert f"the {what} is a directory" in line
    assert not (tmp_path / "g.msgpack").exists()


def test_a_deck_beyond_the_headers_array_limit_is_one_line(tmp_path):
    """4,400 cards: the header is read back through the reader's limits when it is made
    (before: msgpack's 'exceeds max_array_len(4096)' as an internal error)."""
    text = DOTF_CARDS.read_text()
    at = text.index("[[villain]]")
    extra = "".join(
        f'[[villain]]\nname = "Clone {k}"\npoints = 1\ncopies = 4\n\n' for k in range(1100)
    )
    deck = tmp_path / "big.toml"
    deck.write_text(text[:at] + extra + text[at:])
    line = refused(
        run("new", "duel-of-the-forces", "--player", "a", "--player", "b", "--option",
            f"deck={deck}", "-o", tmp_path / "g.msgpack")
    )  # fmt: skip
    assert "max_array_len(4096)" in line and "too-large" in line
