"""Star Wars Epic Duels: the characters and the 12 decks as typed, validated data.

Three kinds of data file, each structured with cattrs into frozen attrs classes (unknown keys
and values of the wrong type are refused: the kit's ``strict_converter``, in ``_fields``) and checked as a whole; a mistake is one
located line, ``decks/luke.toml:58: card[2].effects[1].target.who: 'han' is neither a selector
(...) nor a character of team 'luke' (luke, leia)``:

- ``characters.toml`` (``_characters``): the source keys, and the 12 teams (main and minor
  characters);
- ``decks/templates.toml`` (``_templates``): the basic combat templates (red, blue, ... for
  mains; weak, strong, ... for minors);
- ``decks/<team>.toml`` (``_decks``): one team's 31 cards (10 + 9 basic combat cards, 12 talent
  cards).

A talent card's effects are data in a small vocabulary (``_vocabulary``), documented in
docs/games/epic-duels-data.md; the rules read it, there is no per-card code.  This module names
the content of every built-in data file at once (``data_digest``).
"""

from __future__ import annotations

import hashlib

from boardstate.rules import DataFile

from ._characters import CHARACTERS_FILE, cast
from ._decks import deck_file


def _parse_templates(text: str, source: str):
    """``_templates.parse_templates``, imported when a templates file is parsed (a deck file's
    build asks for it): the digest, made at every start, reads the file's text only, and the
    templates' classes are for parsing."""
    from ._templates import parse_templates

    return parse_templates(text, source)


TEMPLATES_FILE = DataFile(
    __package__,
    "decks/templates.toml",
    _parse_templates,
    what="templates file",
    code="bad-templates",
)
"""The basic combat templates' file (``_templates``), described once: the digest and the
templates' parse both read it."""


def data_digest() -> str:
    """Names the content of every built-in data file (for ``GameSpec.data_digest``)."""
    parts = [CHARACTERS_FILE.digest, TEMPLATES_FILE.digest]
    parts += [deck_file(t.id).digest for t in cast().teams]
    return hashlib.sha256("".join(parts).encode()).hexdigest()[:16]
