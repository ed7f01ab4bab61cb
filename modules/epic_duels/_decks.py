"""Epic Duels' decks: ``decks/<team>.toml``, one team's 31 cards (10 + 9 basic combat cards,
12 talent cards), as a game uses them (``Deck``); as the file writes them (``DeckFile``) they are
``_deck_files``', imported when a file is parsed or a deck varied, never by a command whose decks
are kept parsed (the file's four attrs classes, with their checks, and the templates' three
were 1-1.5 ms of every start, issue 29).

Values the sources disagree on carry their ``disputed`` alternatives, which a deck applies by
id (``Deck.with_alternatives``).  A player who owns the printed cards can load a deck file of
their own (``load_deck(path)``, ``deck_for(team, path)``), in the same format as the built-in
ones, checked against the built-in characters and templates.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

import attrs

from boardstate.rules import DataFile, OptionError, cached_by_value, read_data_file

from ._characters import cast
from ._vocabulary import Effect, Value

if TYPE_CHECKING:
    from ._deck_files import DeckFile

FILE_CLASSES = ("Alternative", "TalentCard", "BasicCards", "DeckFile")
"""The deck file's classes, ``_deck_files``' (``_decks.DeckFile`` still finds them)."""


def __getattr__(name: str):
    if name in FILE_CLASSES:
        from . import _deck_files

        return getattr(_deck_files, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --- the loaded deck ----------------------------------------------------------------------------


@attrs.frozen
class Card:
    """One physical card of a deck (copies are separate cards)."""

    name: str
    pictures: str
    kind: str
    attack: Value | None
    defense: Value | None
    free: bool = False
    effects: tuple[Effect, ...] = ()
    text: str = ""


@attrs.frozen
class Deck:
    """A team's 31 cards: 10 main basic, 9 minor basic, then the talent cards (file order)."""

    team: str
    cards: tuple[Card, ...]
    alternatives: tuple[str, ...]
    """Ids of the disputed alternatives this deck offers."""
    chosen: tuple[str, ...] = ()
    """The alternatives applied to ``cards``."""
    _file: DeckFile | None = attrs.field(eq=False, repr=False, hash=False, default=None)
    """The file it was made from; None for a built-in deck read back from the kept parse (the
    cache keeps a deck without it): its team's built-in file, parsed when asked for."""
    _builtin: bool = attrs.field(eq=False, repr=False, hash=False, default=False)
    """Made from its team's built-in file: pickled without it.  A player's deck keeps its own."""

    def __reduce__(self):
        fields = (self.team, self.cards, self.alternatives, self.chosen)
        return Deck, (*fields, None, True) if self._builtin else (*fields, self._file)

    @property
    def file(self) -> DeckFile:
        """The deck file it was made from (``_deck_files.DeckFile``)."""
        if self._file is not None:
            return self._file
        from ._deck_files import builtin_deck_file

        return builtin_deck_file(self.team)

    def with_alternatives(self, ids: Iterable[str]) -> Deck:
        """The deck with the named disputed alternatives in place of the default values."""
        ids = tuple(ids)
        for i in ids:
            if i not in self.alternatives:
                offered = ", ".join(self.alternatives) or "none"
                raise OptionError(
                    f"deck {self.team!r} has no alternative {i!r} (offered: {offered})",
                    code="bad-alternative",
                )
        from ._deck_files import build

        return build(self.file, ids, builtin=self._builtin)

    def count(self, kind: str | None = None, pictures: str | None = None) -> int:
        return sum(
            1
            for c in self.cards
            if (kind is None or c.kind == kind) and (pictures is None or c.pictures == pictures)
        )


# --- the files ----------------------------------------------------------------------------------


def parse_deck(text: str, source: str) -> Deck:
    """A deck file -> Deck (checked against the built-in characters and templates)."""
    from ._deck_files import build, parse_deck_file

    d = parse_deck_file(text, source)
    return build(d, builtin=text == deck_file(d.team).builtin_text())


def deck_file(team: str) -> DataFile:
    """The built-in deck file of ``team`` (``decks/<team>.toml``)."""
    return DataFile(
        __package__, f"decks/{team}.toml", parse_deck, what="deck file", code="bad-deck"
    )


def builtin_decks() -> dict[str, Deck]:
    """The 12 built-in decks by team id, in the order of ``characters.toml``."""
    return {t.id: deck_file(t.id).builtin() for t in cast().teams}


def load_deck(path) -> Deck:
    """A player's deck file (e.g. with the printed values), checked like a built-in one; it
    may be for any team (``deck_for`` checks the team)."""
    return deck_file("player").load(path)  # (``load`` reads ``path``, never the name)


def read_player_deck(path) -> tuple[str, Deck]:
    """A player's deck file: its text (for the game header) and the deck it holds."""
    text = read_data_file(path, "deck file", "bad-deck")
    return text, parse_deck(text, str(path))


def _team_line(text: str) -> int:
    m = re.search(r"^[ \t]*team[ \t]*=", text, re.M)
    return text.count("\n", 0, m.start()) + 1 if m else 1


def _parse_deck_of(team: str):
    def parse(text: str, source: str) -> Deck:
        deck = parse_deck(text, source)
        if deck.team != team:
            raise OptionError(
                f"{source}:{_team_line(text)}: team: a deck for team {team!r} is needed, "
                f"not for {deck.team!r}",
                code="bad-deck",
            )
        return deck

    return parse


def _known(team: str) -> None:
    if cast().by_id(team) is None:
        raise OptionError(f"unknown team {team!r}", code="bad-deck")


def deck_for(team: str, path=None) -> Deck:
    """``team``'s deck: the built-in one (``path`` None) or a player's file for that team."""
    _known(team)
    if path is None:
        return deck_file(team).builtin()
    return DataFile(
        __package__, f"decks/{team}.toml", _parse_deck_of(team), what="deck file", code="bad-deck"
    ).load(path)


def stored_deck_texts(value) -> tuple[tuple[str, str], ...]:
    """A header's ``deck-texts`` (a player's deck files, stored so that the game file carries
    them) as ``prepare`` writes them: [team, text] pairs, one per team, sorted by team, each
    text read as a file for that team is (``stored_deck``); else one line, ``bad-deck``."""
    try:
        pairs = tuple((team, text) for team, text in value)
    except (TypeError, ValueError):
        pairs = None
    teams = [team for team, _ in pairs or ()]
    if (
        pairs is None
        or not all(type(team) is str and type(text) is str for team, text in pairs)
        or teams != sorted(set(teams))
    ):
        raise OptionError(
            "deck-texts: not [team, deck file text] pairs, one per team, sorted by team",
            code="bad-deck",
        )
    for team, text in pairs:
        stored_deck(team, text)
    return pairs


@cached_by_value
def stored_deck(team: str, text: str) -> Deck:
    """A deck file's text stored in a header for ``team``: checked as ``deck_for(team, path)``
    checks a player's file (a deck of another team is refused, not played as this one's)."""
    _known(team)
    return _parse_deck_of(team)(text, f"deck file for {team}")
