"""A data file's values are exactly the types its module's classes declare (the kit's
``strict_converter``): cattrs's own hooks took ``points = 10.5`` for 10, ``true`` for 1 and a
number for a name, and a game played other cards than its file says."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import attrs
import pytest

from boardstate.modules.duel_of_the_forces._cards import DECK_FILE
from boardstate.modules.epic_duels._characters import CHARACTERS_FILE
from boardstate.modules.epic_duels._data import TEMPLATES_FILE
from boardstate.modules.epic_duels._deck_files import parse_deck_file
from boardstate.modules.jedi_duel._playaid import PLAYAID_FILE
from boardstate.rules import FieldError, OptionError, strict_converter, structure_toml, whole_number

MODULES = Path(__file__).resolve().parent.parent / "modules"

KINDS = {  # each kind of data file a shipped module reads: (its parse, a shipped file, its code)
    "duel_of_the_forces/cards.toml": (DECK_FILE.parse, DECK_FILE.code),
    "jedi_duel/playaid.toml": (PLAYAID_FILE.parse, PLAYAID_FILE.code),
    "epic_duels/characters.toml": (CHARACTERS_FILE.parse, CHARACTERS_FILE.code),
    "epic_duels/decks/templates.toml": (TEMPLATES_FILE.parse, TEMPLATES_FILE.code),
    "epic_duels/decks/luke.toml": (parse_deck_file, "bad-deck"),
}
KIND_OF = {  # every shipped TOML file -> the kind above it is read as (or a board's file)
    "jedi_duel/playaid-notes.toml": "jedi_duel/playaid.toml",
    **{
        f"epic_duels/decks/{p.name}": "epic_duels/decks/luke.toml"
        for p in MODULES.glob("*/decks/*")
    },
    "epic_duels/decks/templates.toml": "epic_duels/decks/templates.toml",
    **{f"epic_duels/{s}.toml": "board" for s in ("geonosis", "kamino", "throne-room")},
    "epic_duels/carbon-chamber.toml": "board",  # (boards: boardstate.geometry's own reader)
}

VALUE = re.compile(r'"(?:[^"\\]|\\.)*"|(?<![\w.-])-?\d+(?![\w.-])|\btrue\b|\bfalse\b')
"""A value written in a line of a shipped file: a string, a whole number, true or false."""
HEADER = re.compile(r'^\s*\[\[?\s*[A-Za-z_"][^=]*\]\s*(#.*)?$')
COMMENT = re.compile(r'"(?:[^"\\]|\\.)*"|#')  # (a # in a string starts no comment)
KEY_THEN_SCALAR = re.compile(r'^\s*[A-Za-z_][\w-]*\s*=\s*(-?\d+|"[^"]*"|true|false)\s*(#.*)?$')
WRONG = {"int": ("10.5", "true", '"5"'), "str": ("1.5", "true"), "bool": ("1", '"true"')}
"""(A number for text is 1.5: 5 is a good value where Epic Duels takes a number or a word.)"""


def _wrong_values(text: str):
    """(line number, whether the line is ``key = value``, the file with one of the line's values
    written with another type, the value written): every value, also inside an array or an
    inline table."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if HEADER.match(line):
            continue  # ([template."yellow+"]: a table's name)
        comment = next((m.start() for m in COMMENT.finditer(line) if m.group(0) == "#"), None)
        eq = line.find("=")
        for m in VALUE.finditer(line[:comment]):
            if m.start() < eq and not line.lstrip().startswith(("{", "[")):
                continue  # (a key, not a value)
            value = m.group(0)
            kind = "str" if value[0] == '"' else "bool" if value in ("true", "false") else "int"
            for wrong in WRONG[kind]:
                changed = line[: m.start()] + wrong + line[m.end() :]
                bad = "\n".join(lines[:i] + [changed] + lines[i + 1 :])
                yield i + 1, bool(KEY_THEN_SCALAR.match(line)), bad, wrong


def test_every_shipped_data_file_is_of_a_kind_tested_here():
    for path in MODULES.glob("**/*.toml"):
        name = path.relative_to(MODULES).as_posix()
        assert name in KINDS or name in KIND_OF, f"{name}: which kind of data file is it?"


READ_AS = {  # every shipped data file a module reads (a board's file is read by geometry)
    name: KINDS[KIND_OF.get(name, name)]
    for name in [*KINDS, *KIND_OF]
    if KIND_OF.get(name) != "board"
}


@pytest.mark.parametrize("name", sorted(READ_AS))
def test_a_shipped_module_reads_no_value_of_another_type(name):
    """Every value of every shipped data file (in an array, in an inline table too) written as
    10.5, true or "5" for a whole number, 1.5 or true for text, 1 or "true" for true: one line
    located at the value's key (or, inside an array written over lines, the array's key above
    it), the file's code, never a value."""
    parse, code = READ_AS[name]
    text = (MODULES / name).read_text(encoding="utf-8")
    parse(text, name)  # (the file itself is good)
    tried = 0
    for line, its_own, bad, wrong in _wrong_values(text):
        with pytest.raises(OptionError) as refused:
            parse(bad, name)
        assert refused.value.code == code
        at = re.match(rf"{re.escape(name)}:(\d+): \S", str(refused.value))
        assert at, (line, wrong, str(refused.value))
        assert int(at.group(1)) == line if its_own else int(at.group(1)) <= line
        tried += 1
    assert tried >= 15


@attrs.frozen
class _Row:
    count: int
    name: str
    flag: bool
    weight: float
    scores: list[int]
    tags: tuple[str, ...]
    table: dict[str, int]
    spare: int | None = None


GOOD_ROW = """\
count = 3
name = "x"
flag = true
weight = 2
scores = [1, 2]
tags = ["a"]
spare = 4

[table]
a = 1
"""


def test_the_strict_converter_reads_exactly_what_is_declared():
    row = structure_toml(GOOD_ROW, "row.toml", _Row, strict_converter(), "bad-row")
    assert row == _Row(3, "x", True, 2.0, [1, 2], ("a",), {"a": 1}, 4)
    assert type(row.weight) is float


@pytest.mark.parametrize(
    "before, after, said",
    [
        ("count = 3", "count = 10.5", "row.toml:1: count: must be a whole number, got 10.5"),
        ("count = 3", "count = true", "row.toml:1: count: must be a whole number, got True"),
        ("count = 3", 'count = "3"', "row.toml:1: count: must be a whole number, got '3'"),
        ('name = "x"', "name = 5", "row.toml:2: name: must be a string, got 5"),
        ("flag = true", "flag = 1", "row.toml:3: flag: must be true or false, got 1"),
        ("weight = 2", 'weight = "2"', "row.toml:4: weight: must be a number, got '2'"),
        ("weight = 2", "weight = false", "row.toml:4: weight: must be a number, got False"),
        ("scores = [1, 2]", 'scores = "12"', "row.toml:5: scores: must be a list, got '12'"),
        ("scores = [1, 2]", "scores = [1, 2.5]", "row.toml:5: scores[1]: must be a whole number"),
        ('tags = ["a"]', 'tags = "ab"', "row.toml:6: tags: must be a list, got 'ab'"),
        ('tags = ["a"]', "tags = [1]", "row.toml:6: tags[0]: must be a string, got 1"),
        ("spare = 4", "spare = 4.0", "row.toml:7: spare: must be a whole number, got 4.0"),
        ("[table]\na = 1", "table = [1]", "row.toml:9: table: must be a table, got [1]"),
        ("count = 3", "count = 3\ncolour = 1", "row.toml:2: colour: unknown field(s) colour"),
    ],
)
def test_the_strict_converter_refuses_another_type(before, after, said):
    text = GOOD_ROW.replace(before, after, 1)
    with pytest.raises(OptionError, match="^" + re.escape(said)) as refused:
        structure_toml(text, "row.toml", _Row, strict_converter(), "bad-row")
    assert refused.value.code == "bad-row"


@attrs.frozen
class _Kinds:
    """Kinds of value the shipped files do not use yet, which a module's class may declare."""

    inner: _Row | None = None
    choice: Literal["low", "high"] | None = None
    level: Literal[1, 2] | None = None
    labels: set[str] | None = None
    frozen: frozenset[str] | None = None
    seq: Sequence[str] | None = None
    pair: tuple[str, int] | None = None
    scale: float | None = None


@pytest.mark.parametrize(
    "text, said",
    [
        ("inner = 5", "k.toml:1: inner: must be a table, got 5"),
        ("inner = [1]", "k.toml:1: inner: must be a table, got [1]"),
        ('choice = "mid"', "k.toml:1: choice: must be one of 'low', 'high', got 'mid'"),
        ("level = true", "k.toml:1: level: must be one of 1, 2, got True"),
        ("level = 1.0", "k.toml:1: level: must be one of 1, 2, got 1.0"),
        ('labels = "ab"', "k.toml:1: labels: must be a list, got 'ab'"),
        ('frozen = "ab"', "k.toml:1: frozen: must be a list, got 'ab'"),
        ('seq = "ab"', "k.toml:1: seq: must be a list, got 'ab'"),
        ("labels = [1]", "k.toml:1: labels[0]: must be a string, got 1"),
        ('pair = "ab"', "k.toml:1: pair: must be a list, got 'ab'"),
        ('pair = ["a", 1.5]', "k.toml:1: pair[1]: must be a whole number, got 1.5"),
        ('pair = ["a", 1, 2]', "k.toml:1: pair: must be a list of 2 values, got ['a', 1, 2]"),
        ("scale = nan", "k.toml:1: scale: must be a finite number, got nan"),
        ("scale = inf", "k.toml:1: scale: must be a finite number, got inf"),
    ],
)
def test_every_kind_of_value_a_class_may_declare_is_read_strictly(text, said):
    """A table, a Literal, a set, a sequence, a tuple of given types and a number are each
    refused in another form: cattrs took ``true`` for ``Literal[1]``, ``"ab"`` for a set or a
    sequence of two letters, nan for a number, and said a number for a table was "'int' object
    has no attribute 'keys'"."""
    with pytest.raises(OptionError, match="^" + re.escape(said + " [bad-kind]") + "$") as refused:
        structure_toml(text, "k.toml", _Kinds, strict_converter(), "bad-kind")
    assert refused.value.code == "bad-kind"


def test_the_kinds_above_read_their_own_form():
    text = (
        'choice = "high"\nlevel = 2\nlabels = ["a", "a"]\nfrozen = ["b"]\nseq = ["c"]\n'
        'pair = ["d", 4]\nscale = 0.5\n'
    )
    read = structure_toml(text, "k.toml", _Kinds, strict_converter(), "bad-kind")
    assert read == _Kinds(None, "high", 2, {"a"}, frozenset({"b"}), ("c",), ("d", 4), 0.5)


def test_a_table_of_a_shipped_file_written_as_a_number_is_refused_in_its_words():
    text = (MODULES / "jedi_duel/playaid.toml").read_text(encoding="utf-8")
    bad = text.replace("[defence]", "[defence_was]", 1).replace("\nname", "\ndefence = 7\nname", 1)
    with pytest.raises(
        OptionError, match=r":\d+: defence: must be a table, got 7 \[bad-playaid\]$"
    ):
        PLAYAID_FILE.parse(bad, "p.toml")


@pytest.mark.parametrize(
    "text", ["title = " + "1" * 5000, "title = " + "[" * 3000 + "]" * 3000], ids=["digits", "deep"]
)
def test_a_board_file_tomllib_cannot_read_is_a_board_error(text):
    """A board file is read by boardstate.geometry's own reader (strict already: a board holds
    no number; a string, a list or a table of the wrong type is refused); tomllib lets a
    ValueError (an integer of 5000 digits) and a RecursionError (arrays nested 3000 deep) out,
    which were internal errors where structure_toml says 'not valid TOML'."""
    from boardstate.geometry import BoardError, parse_board

    with pytest.raises(BoardError, match=r"^b\.toml:\d+:\d+: invalid TOML: "):
        parse_board(text, "b", "b.toml")


@attrs.frozen
class _Counted:
    copies: int = attrs.field(validator=whole_number(1, 4))


@pytest.mark.parametrize("value", [True, 2.0, "2", 0, 5])
def test_whole_number_checks_a_value_made_by_code_too(value):
    """A value made by ``attrs.evolve`` (Epic Duels' disputed cards) or read by a module's own
    hook passes no converter: the validator checks the type as well as the range (``True`` is
    within 1 to 4 for Python)."""
    with pytest.raises(FieldError, match=rf"^must be a whole number from 1 to 4, got {value!r}$"):
        attrs.evolve(_Counted(1), copies=value)
    assert attrs.evolve(_Counted(1), copies=4).copies == 4
