"""Star Wars Epic Duels: the characters and the 12 decks as typed, validated data.

Three kinds of data file, each structured with cattrs into frozen attrs classes (unknown keys
and values of the wrong type are refused, ``_fields``) and checked as a whole; a mistake is one
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

TEMPLATES = "decks/templates.toml"
"""The templates' file (``_templates.TEMPLATES_FILE``), named here so that the digest, made at
every start, does not import ``_templates``: its classes are for parsing a deck file only."""


def data_digest() -> str:
    """Names the content of every built-in data file (for ``GameSpec.data_digest``)."""
    templates = DataFile(__package__, TEMPLATES, None, what="templates file", code="bad-templates")
    parts = [CHARACTERS_FILE.digest, templates.digest]
    parts += [deck_file(t.id).digest for t in cast().teams]
    return hashlib.sha256("".join(parts).encode()).hexdigest()[:16]
