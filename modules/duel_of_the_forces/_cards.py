"""Card data: structured from TOML with cattrs; a mistake names file, line and field."""

from __future__ import annotations

import attrs

from boardstate.rules import (
    DataFile,
    FieldError,
    OptionError,
    cached_by_value,
    stored_key,
    strict_converter,
    structure_stored,
    structure_toml,
    whole_number,
)

HERO_ORDER = ("luke", "han", "leia", "yoda")


@attrs.frozen
class Villain:
    name: str = attrs.field(validator=attrs.validators.min_len(1))
    points: int = attrs.field(validator=whole_number(1, 10))
    copies: int = attrs.field(validator=whole_number(1, 4))
    original_pair: int | None = None  # Parlett's original: flat score for a pair (Jabba 30, ...)


@attrs.frozen
class VaderCards:
    penalties: list[int] = attrs.field(
        validator=attrs.validators.deep_iterable(whole_number(1, 20))
    )


@attrs.frozen
class Hero:
    name: str
    icons: list[int] = attrs.field(
        validator=attrs.validators.and_(
            attrs.validators.deep_iterable(whole_number(0, 4)),
            attrs.validators.min_len(8),
            attrs.validators.max_len(8),
        )
    )


@attrs.frozen
class DeckFile:
    villain: list[Villain]
    vader: VaderCards
    heroes: dict[str, Hero]

    def __attrs_post_init__(self) -> None:
        """Checks across entries; a FieldError here is located by ``structure_toml``."""
        if set(self.heroes) != set(HERO_ORDER):
            raise FieldError(f"needs exactly the heroes {', '.join(HERO_ORDER)}", field="heroes")
        names = [v.name for v in self.villain]
        for i, name in enumerate(names):
            if names.index(name) != i:  # ``field`` is one step: the whole path, dotted
                raise FieldError(
                    f"villain {name!r} is listed twice (use copies)", field=f"villain[{i}].name"
                )


@attrs.frozen
class Card:
    """One Empire card: a villain (points > 0) or a Darth Vader (points < 0)."""

    name: str
    points: int
    original_pair: int | None = None
    vader: bool = attrs.field(init=False, eq=False, repr=False)  # a Darth Vader: points < 0

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "vader", self.points < 0)


@attrs.frozen
class Cards:
    """The whole card set of one game: the Empire deck (by index) and the heroes' icons."""

    deck: tuple[Card, ...]
    hero_names: tuple[tuple[str, str], ...]  # ((id, display name), ...)
    icons: tuple[tuple[str, tuple[int, ...]], ...]

    icon_map: dict = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "icon_map", dict(self.icons))

    def to_option(self) -> tuple:
        """A msgpack-able form stored in the game header, so a file carries its own cards."""
        return (
            tuple((c.name, c.points, c.original_pair or 0) for c in self.deck),
            self.hero_names,
            self.icons,
        )

    @classmethod
    def from_option(cls, value) -> Cards:
        """The cards a header stores, made again as a deck file makes them: ``value`` is read
        into the deck file's classes with the deck file's converter (every check a deck file
        gets), and refused unless those cards store as ``value`` again (the order ``parse_deck``
        gives: each villain's copies together, the Darth Vaders last)."""
        data = structure_stored(_as_deck_file(value), "cards", DeckFile, _converter(), "bad-deck")
        cards = cards_of_deck(data)
        if stored_key(cards.to_option()) != stored_key(value):  # (exactly: true is not 1)
            raise OptionError(
                "cards: not as a deck file makes them (each villain's copies together, "
                "the Darth Vaders last, the heroes in the order luke, han, leia, yoda)",
                code="bad-deck",
            )
        return cards


def _as_deck_file(value) -> dict:
    """The deck file, as TOML reads it, whose cards a header stores as ``value``: a Darth Vader
    stored with points -3 is the penalty 3, equal villains in a row are one villain's copies."""
    try:
        deck, names, icons = value
        villains, penalties, last = [], [], None
        for name, points, pair in deck:
            if name == "Darth Vader" and type(points) is int and points < 0:
                penalties.append(-points)
            elif villains and stored_key((name, points, pair)) == last:
                villains[-1]["copies"] += 1
            else:
                villain = {"name": name, "points": points, "copies": 1}
                if stored_key(pair) != stored_key(0):  # (stored as 0: none)
                    villain["original_pair"] = pair
                villains.append(villain)
                last = stored_key((name, points, pair))
        heroes = {hero: {"name": name} for hero, name in names}
        for hero, hero_icons in icons:
            heroes.setdefault(hero, {})["icons"] = _as_array(hero_icons)
    except (TypeError, ValueError):  # (not the shape ``to_option`` writes)
        raise OptionError(
            "cards: not [deck, heroes' names, heroes' icons] as a game file stores them",
            code="bad-deck",
        ) from None
    return {"villain": villains, "vader": {"penalties": penalties}, "heroes": heroes}


def _as_array(value):
    """A stored sequence as TOML gives an array (a list); anything else as it is, refused."""
    return list(value) if type(value) in (tuple, list) else value


@cached_by_value(size=1)
def _converter():
    """The kit's strict converter (``points = 10.5``, ``true`` or a number for a name are
    refused), made when a deck file is first read."""
    return strict_converter()


def parse_deck(text: str, source: str) -> Cards:
    """Parse a deck TOML.  Errors: ``OptionError('FILE:LINE: field: reason')``."""
    return cards_of_deck(structure_toml(text, source, DeckFile, _converter(), "bad-deck"))


def cards_of_deck(data: DeckFile) -> Cards:
    """The cards a checked deck file makes: each villain's copies, then the Darth Vaders."""
    deck = []
    for v in data.villain:
        deck.extend(Card(v.name, v.points, v.original_pair) for _ in range(v.copies))
    deck.extend(Card("Darth Vader", -p) for p in data.vader.penalties)
    return Cards(
        tuple(deck),
        tuple((h, data.heroes[h].name) for h in HERO_ORDER),
        tuple((h, tuple(data.heroes[h].icons)) for h in HERO_ORDER),
    )


# The built-in reconstruction, or a player's file named by ``--option deck=FILE``.
DECK_FILE = DataFile(__package__, "cards.toml", parse_deck, what="deck file", code="bad-deck")


def cards_of(option) -> Cards:
    """The cards a header's ``cards`` option holds, checked as a deck file is (a crafted header
    gets no other cards than a deck file could give): built once per distinct card set."""
    return _stored_cards(stored_key(option), option)


@cached_by_value
def _stored_cards(exactly_as_stored: bytes, option) -> Cards:
    """Keyed by ``stored_key`` too (a value cache takes ``true`` for 1).  The built-in deck's
    cards (checked when the file was read, and kept parsed) are not checked
    again, so that a command on such a game structures nothing (and imports no cattrs)."""
    builtin = DECK_FILE.builtin()
    if stored_key(builtin.to_option()) == exactly_as_stored:
        return builtin
    return Cards.from_option(option)
