"""Card data: structured from TOML with cattrs; a mistake names file, line and field."""

from __future__ import annotations

import attrs

from boardstate.rules import (
    DataFile,
    FieldError,
    cached_by_value,
    strict_converter,
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
        deck, names, icons = value
        return cls(
            tuple(Card(n, p, o or None) for n, p, o in deck),
            tuple((str(a), str(b)) for a, b in names),
            tuple((str(h), tuple(i)) for h, i in icons),
        )


@cached_by_value(size=1)
def _converter():
    """The kit's strict converter (``points = 10.5``, ``true`` or a number for a name are
    refused), made when a deck file is first read."""
    return strict_converter()


def parse_deck(text: str, source: str) -> Cards:
    """Parse a deck TOML.  Errors: ``OptionError('FILE:LINE: field: reason')``."""
    data = structure_toml(text, source, DeckFile, _converter(), "bad-deck")
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


@cached_by_value
def cards_of(option) -> Cards:
    """The cards a header's ``cards`` option holds: built once per distinct card set."""
    return Cards.from_option(option)
