"""The parsed built-in data files kept between commands (``boardstate._datacache``): the same
key gives the value back without parsing; another text, a closure, a file of the cache that is
not this user's alone or does not read back, parse again."""

from __future__ import annotations

import os

import pytest

from boardstate import _datacache

PACKAGE = "boardstate.geometry"  # (a package that parses no data file of its own on import)
CALLS: list[str] = []


def parse_words(text: str, source: str) -> tuple:
    CALLS.append(text)
    return (source, tuple(text.split()))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDSTATE_CACHE", str(tmp_path))
    CALLS.clear()
    return tmp_path / "data"


def test_the_same_file_is_parsed_once_and_read_back(cache):
    first = _datacache.parsed(parse_words, "a b", "words.toml", PACKAGE)
    again = _datacache.parsed(parse_words, "a b", "words.toml", PACKAGE)
    assert first == again == ("words.toml", ("a", "b"))
    assert CALLS == ["a b"]
    (kept,) = cache.iterdir()
    assert kept.stat().st_mode & 0o777 == 0o600


def squares_of(width: str, height: str) -> tuple:
    CALLS.append(f"{width}x{height}")
    return tuple(range(int(width) * int(height)))


def test_a_table_is_made_once_by_its_arguments_and_read_back(cache):
    """``kept``: a value made from the code and data alone (a board's rules tables), by the
    function and its arguments; other arguments make it again."""
    assert _datacache.kept(squares_of, PACKAGE, "2", "3") == tuple(range(6))
    assert _datacache.kept(squares_of, PACKAGE, "2", "3") == tuple(range(6))
    assert _datacache.kept(squares_of, PACKAGE, "3", "2") == tuple(range(6))
    assert CALLS == ["2x3", "3x2"]
    assert len(list(cache.iterdir())) == 2


def test_another_text_or_name_is_parsed_again(cache):
    _datacache.parsed(parse_words, "a b", "words.toml", PACKAGE)
    assert _datacache.parsed(parse_words, "a c", "words.toml", PACKAGE)[1] == ("a", "c")
    assert _datacache.parsed(parse_words, "a b", "other.toml", PACKAGE)[0] == "other.toml"
    assert CALLS == ["a b", "a c", "a b"]


@pytest.mark.parametrize("spoil", ["others may write it", "cut short", "a link"])
def test_a_kept_file_not_ours_or_not_whole_is_not_believed(cache, spoil):
    _datacache.parsed(parse_words, "a b", "words.toml", PACKAGE)
    (kept,) = cache.iterdir()
    if spoil == "others may write it":
        kept.chmod(0o666)
    elif spoil == "cut short":
        kept.write_bytes(kept.read_bytes()[:7])
    else:
        elsewhere = cache.parent / "elsewhere"
        os.replace(kept, elsewhere)
        kept.symlink_to(elsewhere)
    assert _datacache.parsed(parse_words, "a b", "words.toml", PACKAGE)[1] == ("a", "b")
    assert CALLS == ["a b", "a b"]


def test_a_closure_is_never_kept(cache):
    seen = CALLS  # (what a closure holds is no part of the key)

    def parse(text, source):
        seen.append(text)
        return text

    for _ in range(2):
        assert _datacache.parsed(parse, "x", "words.toml", PACKAGE) == "x"
    assert CALLS == ["x", "x"]
    assert not cache.exists()


def test_the_keys_name_every_file_they_stand_for(tmp_path, monkeypatch):
    """A data file's key changes with any other data file of its package (not with code or
    bytecode, which the code's fingerprint names), and the code's fingerprint with any source
    file of the engine or of the game, a game's folder inside the engine's (as installed)
    walked once, a game's folder beside it (an editable install) walked too."""
    from boardstate import _cache

    engine, beside = tmp_path / "boardstate", tmp_path / "modules" / "game"
    inside = engine / "modules" / "game"
    for folder in (inside, beside, inside / "__pycache__", inside / "decks"):
        folder.mkdir(parents=True)
    for path in (engine / "_cache.py", inside / "__init__.py", beside / "__init__.py"):
        path.write_text("x = 1\n")
    (inside / "decks" / "deck.toml").write_text("a = 1\n")
    monkeypatch.setattr(_cache, "__file__", str(engine / "_cache.py"))

    def keys():
        _datacache._data_files.cache_clear()
        _cache.code_fingerprint.cache_clear()
        return (
            _datacache._data_files(str(inside)),
            _cache.code_fingerprint(str(inside / "__init__.py")),
            _cache.code_fingerprint(str(beside / "__init__.py")),
        )

    first = keys()
    (inside / "__pycache__" / "x.pyc").write_bytes(b"\0")
    (inside / "notes.py").write_text("")
    data, code_inside, code_beside = keys()
    assert data == first[0] and code_inside != first[1] and code_beside != first[2]
    (inside / "decks" / "deck.toml").write_text("a = 22\n")
    assert keys()[0] != data
    (beside / "__init__.py").write_text("x = 22\n")
    after = keys()
    assert after[1] == code_inside and after[2] != code_beside


def test_a_link_to_nothing_is_no_file_of_either_key(tmp_path, monkeypatch):
    """A link to nothing in a game's folder (or a file gone between the folder's listing and
    its own look-up, an edited checkout) is not a file the keys stand for: the game imports,
    its keys those of the folder without it (``rglob`` and ``is_file`` skipped it; a
    FileNotFoundError at the game's import, as found, is a traceback)."""
    from boardstate import _cache

    engine, game = tmp_path / "boardstate", tmp_path / "modules" / "game"
    for folder in (engine, game):
        folder.mkdir(parents=True)
    for path in (engine / "_cache.py", game / "__init__.py", game / "deck.toml"):
        path.write_text("x = 1\n")
    monkeypatch.setattr(_cache, "__file__", str(engine / "_cache.py"))

    def keys():
        _datacache._data_files.cache_clear()
        _cache.code_fingerprint.cache_clear()
        return _datacache._data_files(str(game)), _cache.code_fingerprint(str(game / "__init__.py"))

    first = keys()
    (game / "gone.toml").symlink_to(tmp_path / "nowhere.toml")
    (game / "gone.py").symlink_to(tmp_path / "nowhere.py")
    assert keys() == first


NO_HOME = """
import pwd, sys
def no_entry(uid):
    raise KeyError(uid)
pwd.getpwuid = no_entry  # (a user of no passwd entry, as a container's arbitrary uid is)
from boardstate.cli import cli
try:
    cli.main(sys.argv[1:], prog_name="boardstate")
except SystemExit as stop:
    sys.exit(stop.code)
"""
"""A command run where no home folder can be found (no ``$HOME``, no entry for the user)."""


def test_without_a_home_folder_commands_run_without_the_cache(tmp_path):
    """No home folder and no ``BOARDSTATE_CACHE``/``XDG_CACHE_HOME``: a command runs without
    the cache (it only saves time), nothing written beside the game but its output; a key's
    folder, which a signed game needs, is a one-line error.  (Both were ``RuntimeError``
    tracebacks: every command failed.)"""
    import subprocess
    import sys

    import boardstate as bs

    game = bs.Game.new(bs.get_module("jedi-duel"), ["ann", "ben"], {}, seed=b"home")
    bs.save_game(game, tmp_path / "game.msgpack")
    seat = game.to_act()[0]
    player, command = game.players[seat], game.legal(seat)[0]
    gone = {"HOME", "BOARDSTATE_CACHE", "XDG_CACHE_HOME", "BOARDSTATE_KEYS", "XDG_CONFIG_HOME"}
    env = {k: v for k, v in os.environ.items() if k not in gone}

    def run(*argv):
        return subprocess.run(
            [sys.executable, "-c", NO_HOME, *argv],
            capture_output=True, text=True, cwd=tmp_path, env=env,
        )  # fmt: skip

    for argv in (["legal", "game.msgpack", "--as", player], ["verify", "game.msgpack"]):
        done = run(*argv)
        assert done.returncode == 0 and not done.stderr, (argv, done.stderr)
    done = run("move", "game.msgpack", "--as", player, command, "-o", "move.msgpack")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.msgpack", "move.msgpack"]
    done = run("key", "show", "ann")
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "home folder" in done.stderr, done.stderr
