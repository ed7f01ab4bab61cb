"""The parsed built-in data files kept between commands (``boardstate._datacache``): the same
key gives the value back without parsing; another text, a closure, a file of the cache that is
not this user's alone or does not read back, parse again.  ``kept`` keeps a value made by a
function the key can name (its module's top level, in the engine's or the game's code), and
refuses any other."""

from __future__ import annotations

import functools
import importlib
import os
import pickle
import sys
import zipfile

import pytest

from boardstate import _cache, _datacache

GAME = '''"""A game's package for tests/test_datacache.py: what it keeps is made by its own code."""
import functools

CALLS = []


def parse_words(text, source):
    CALLS.append(text)
    return (source, tuple(text.split()))


def squares_of(width, height):
    CALLS.append(f"{width}x{height}")
    return tuple(range(int(width) * int(height)))


def area_of(width, height):
    CALLS.append(f"area {width}x{height}")
    return int(width) * int(height)


def joined(*parts):
    CALLS.append(parts)
    return "|".join(parts)


def repeat_by(times):
    def repeat(*parts, times=times):  # (no closure: a default holds it; one name for each)
        return "|".join(parts) * times

    return repeat


SHOUTED = lambda *parts: "|".join(parts).upper()  # noqa: E731
WHISPERED = lambda *parts: "|".join(parts).lower()  # noqa: E731


class Board:
    def __init__(self, size):
        self.size = size

    def squares(self, *parts):
        return "|".join(parts) * self.size


class Pair:
    def __init__(self, *parts):
        self.parts = parts


def times(factor):
    def decorate(make):
        @functools.wraps(make)  # (the module's name and qualified name are the wrapper's)
        def wrapper(*parts):
            return make(*parts) * factor[0]

        return wrapper

    return decorate


FACTOR = [1]


@times(FACTOR)
def echoed(*parts):
    return "|".join(parts)
'''
"""The game's code (``_unkeyable``: a function kept is the engine's or the package's)."""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A game's package, a folder on the path (as an editable install's module is)."""
    root = tmp_path_factory.mktemp("game")
    (root / "kept_game").mkdir()
    (root / "kept_game" / "__init__.py").write_text(GAME)
    (root / "kept_game" / "board.toml").write_text("size = 2\n")
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module("kept_game")
    finally:
        sys.path.remove(str(root))
        sys.modules.pop("kept_game", None)


PACKAGE = "kept_game"


@pytest.fixture
def cache(tmp_path, monkeypatch, game):
    monkeypatch.setenv("BOARDSTATE_CACHE", str(tmp_path))
    game.CALLS.clear()
    return tmp_path / "data"


def test_the_same_file_is_parsed_once_and_read_back(cache, game):
    first = _datacache.parsed(game.parse_words, "a b", "words.toml", PACKAGE)
    again = _datacache.parsed(game.parse_words, "a b", "words.toml", PACKAGE)
    assert first == again == ("words.toml", ("a", "b"))
    assert game.CALLS == ["a b"]
    (kept,) = cache.iterdir()
    assert kept.stat().st_mode & 0o777 == 0o600


def test_a_table_is_made_once_by_its_arguments_and_read_back(cache, game):
    """``kept``: a value made from the code and data alone (a board's rules tables), by the
    function and each of its arguments; other arguments, or another function, make it again."""
    assert _datacache.kept(game.squares_of, PACKAGE, "2", "3") == tuple(range(6))
    assert _datacache.kept(game.squares_of, PACKAGE, "2", "3") == tuple(range(6))
    assert _datacache.kept(game.squares_of, PACKAGE, "3", "2") == tuple(range(6))
    assert _datacache.kept(game.squares_of, PACKAGE, "2", "4") == tuple(range(8))
    assert _datacache.kept(game.area_of, PACKAGE, "2", "3") == 6
    assert game.CALLS == ["2x3", "3x2", "2x4", "area 2x3"]
    assert len(list(cache.iterdir())) == 4


def test_no_two_lists_of_arguments_share_a_key(cache, game):
    """The arguments' text is keyed each by its length: ``("a\\0", "b")``, ``("a", "\\0b")`` and
    ``("a\\0\\0b",)`` are three values (joined with NULs they were one key, and the second was
    answered the first's value)."""
    lists = [("a\0", "b"), ("a", "\0b"), ("a\0\0b",), ("a", "", "b"), ("a", "b", "")]
    for parts in lists:
        assert _datacache.kept(game.joined, PACKAGE, *parts) == "|".join(parts)
    assert game.CALLS == lists


def test_another_text_or_name_is_parsed_again(cache, game):
    _datacache.parsed(game.parse_words, "a b", "words.toml", PACKAGE)
    assert _datacache.parsed(game.parse_words, "a c", "words.toml", PACKAGE)[1] == ("a", "c")
    assert _datacache.parsed(game.parse_words, "a b", "other.toml", PACKAGE)[0] == "other.toml"
    assert game.CALLS == ["a b", "a c", "a b"]


def test_other_code_or_data_of_the_game_makes_it_again(cache, game):
    """The key names the game's code and data files: a data file or a source file changed (its
    size), what was kept is made again."""
    folder = os.path.dirname(game.__file__)

    def made_again(change) -> bool:
        _datacache.kept(game.squares_of, PACKAGE, "2", "2")
        change()
        _datacache._data_files.cache_clear()  # (each command reads them once)
        _cache.code_fingerprint.cache_clear()
        game.CALLS.clear()
        _datacache.kept(game.squares_of, PACKAGE, "2", "2")
        return game.CALLS == ["2x2"]

    with open(f"{folder}/board.toml", "a") as data:
        assert made_again(lambda: data.write("# wider\n") and data.flush())
    with open(f"{folder}/rules.py", "a") as code:
        assert made_again(lambda: code.write("# a rule\n") and code.flush())


@pytest.mark.parametrize("spoil", ["others may write it", "cut short", "a link"])
def test_a_kept_file_not_ours_or_not_whole_is_not_believed(cache, game, spoil):
    _datacache.parsed(game.parse_words, "a b", "words.toml", PACKAGE)
    (kept,) = cache.iterdir()
    if spoil == "others may write it":
        kept.chmod(0o666)
    elif spoil == "cut short":
        kept.write_bytes(kept.read_bytes()[:7])
    else:
        elsewhere = cache.parent / "elsewhere"
        os.replace(kept, elsewhere)
        kept.symlink_to(elsewhere)
    assert _datacache.parsed(game.parse_words, "a b", "words.toml", PACKAGE)[1] == ("a", "b")
    assert game.CALLS == ["a b", "a b"]


@pytest.mark.parametrize("spoil", ["others may write it", "a link"])
def test_a_folder_not_ours_is_not_read(cache, game, spoil):
    """The folder of the kept files is this user's alone too (not a link, nobody else may
    write in it): another's could hold any pickle under the key's name."""
    _datacache.parsed(game.parse_words, "a b", "words.toml", PACKAGE)
    if spoil == "others may write it":
        cache.chmod(0o777)
    else:
        os.replace(cache, cache.parent / "elsewhere")
        cache.symlink_to(cache.parent / "elsewhere")
    assert _datacache.parsed(game.parse_words, "a b", "words.toml", PACKAGE)[1] == ("a", "b")
    assert game.CALLS == ["a b", "a b"]


def test_the_folder_checked_is_the_folder_read(cache, game, monkeypatch):
    """A folder put in the checked one's place after its check (by whoever may write the
    folder above) is not read: the file is opened in the very folder checked.  (The folder
    was looked up twice by name, and a pickle of another's folder was read.)"""
    _datacache.parsed(game.parse_words, "a b", "words.toml", PACKAGE)
    (kept,) = cache.iterdir()
    theirs = cache.parent / "theirs"
    theirs.mkdir(mode=0o777)
    theirs.chmod(0o777)
    (theirs / kept.name).write_bytes(pickle.dumps(("words.toml", ("forged",))))
    (theirs / kept.name).chmod(0o600)
    own, swapped = _cache._own, []

    def own_then_swapped(st):
        if not swapped and own(st):  # (the folder, checked: now put theirs in its place)
            swapped.append(os.replace(cache, cache.parent / "was"))
            os.replace(theirs, cache)
        return own(st)

    monkeypatch.setattr(_cache, "_own", own_then_swapped)
    assert _datacache.parsed(game.parse_words, "a b", "words.toml", PACKAGE)[1] == ("a", "b")
    assert swapped


@pytest.mark.parametrize("failing", ["no folder can be made", "the disk is full"])
def test_a_cache_that_cannot_be_written_makes_the_value_each_time(
    cache, game, failing, monkeypatch
):
    """A cache folder that cannot be written costs time, never the value nor a traceback, and
    leaves nothing half-written."""
    if failing == "no folder can be made":
        cache.write_text("")  # (a file where the folder would be)
    else:

        def full(*_args, **_kwargs):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(os, "replace", full)
    for _ in range(2):
        assert _datacache.kept(game.squares_of, PACKAGE, "1", "2") == (0, 1)
    assert game.CALLS == ["1x2", "1x2"]
    assert cache.is_file() or list(cache.iterdir()) == []


def test_a_closure_is_never_kept(cache, game):
    seen = game.CALLS  # (what a closure holds is no part of the key)

    def parse(text, source):
        seen.append(text)
        return text

    for _ in range(2):
        assert _datacache.parsed(parse, "x", "words.toml", PACKAGE) == "x"
    assert game.CALLS == ["x", "x"]
    assert not cache.exists()


def outside(*parts):
    return "|".join(parts)


def unkept(game) -> dict:
    """Functions the key cannot name, each with the reason it is refused."""
    return {
        "a partial": (functools.partial(game.joined, "p"), "not a function"),
        "a bound method": (game.Board(2).squares, "not a function"),
        "a class": (game.Pair, "not a function"),
        "a function its decorator closes over": (game.echoed, "a closure"),
        "a nested function (its default differs)": (game.repeat_by(2), "not found by its name"),
        "a lambda": (game.SHOUTED, "not found by its name"),
        "code outside the key (this test's)": (outside, "neither the engine's nor kept_game's"),
    }


@pytest.mark.parametrize(
    "case",
    [
        "a partial",
        "a bound method",
        "a class",
        "a function its decorator closes over",
        "a nested function (its default differs)",
        "a lambda",
        "code outside the key (this test's)",
    ],
)
def test_kept_refuses_what_its_key_cannot_name(cache, game, case):
    """Each of these holds or runs more than the module's name, the qualified name and the
    arguments say: two of them answered each other's values (two lambdas of a module, two
    ``repeat_by``), a ``partial`` was an AttributeError.  ``kept`` says so (a module's
    mistake, found by its first test); ``parsed`` parses every time (a ``DataFile``'s parse may
    be any function), keeping nothing."""
    make, reason = unkept(game)[case]
    with pytest.raises(TypeError, match=reason):
        _datacache.kept(make, PACKAGE, "x")
    made = make("x", "x.toml")
    for _ in range(2):
        assert type(_datacache.parsed(make, "x", "x.toml", PACKAGE)) is type(made)
    assert not cache.exists()


def test_two_functions_of_one_name_are_each_answered_their_own_value(cache, game):
    """Two lambdas of a module, two nested functions of one name (their defaults differ), a
    method of two objects: one module and qualified name, no closure.  Keyed by those names,
    the second was answered the first's value; each parses now (``parsed``)."""
    pairs = [
        (game.SHOUTED, game.WHISPERED),
        (game.repeat_by(1), game.repeat_by(2)),
        (game.Board(1).squares, game.Board(2).squares),
    ]
    for first, second in pairs:
        for parse in (first, second, first):
            assert _datacache.parsed(parse, "Ab", "x.toml", PACKAGE) == parse("Ab", "x.toml")
    assert not cache.exists()


def test_kept_refuses_arguments_that_are_not_strings(cache, game):
    for wrong in (2, b"2", None):
        with pytest.raises(TypeError, match="must be strings"):
            _datacache.kept(game.squares_of, PACKAGE, "2", wrong)
    assert game.CALLS == [] and not cache.exists()


def test_code_in_an_archive_is_never_kept(cache, tmp_path):
    """A game imported from a zip archive: its code has no files' sizes and times for the key
    (``code_fingerprint`` walks nothing), so another archive of the same name would be answered
    this one's values: nothing is kept."""
    archive = tmp_path / "zipped.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr(
            "zipped_game/__init__.py",
            "CALLS = []\ndef made(*parts):\n    CALLS.append(parts[0])\n    return parts[0]\n",
        )
    sys.path.insert(0, str(archive))
    try:
        zipped = importlib.import_module("zipped_game")
        for _ in range(2):
            assert _datacache.kept(zipped.made, "zipped_game", "x") == "x"
            assert _datacache.parsed(zipped.made, "y", "y.toml", "zipped_game") == "y"
        assert zipped.CALLS == ["x", "y", "x", "y"]
    finally:
        sys.path.remove(str(archive))
        sys.modules.pop("zipped_game", None)
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


def test_a_players_own_file_is_never_kept(cache, game, tmp_path):
    """A data file a player names (an option) is parsed, never kept: only what the package
    ships is in the key's data files."""
    from boardstate.rules import DataFile

    words = DataFile(PACKAGE, "words.toml", game.parse_words, what="words file", code="bad-words")
    mine = tmp_path / "mine.toml"
    mine.write_text('a = "b"\n')
    for _ in range(2):
        assert words.load(mine) == (str(mine), ("a", "=", '"b"'))
    assert game.CALLS == ['a = "b"\n'] and not cache.exists()
