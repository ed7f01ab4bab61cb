"""Epic Duels' basic combat templates: ``decks/templates.toml`` (red, blue, ... for mains;
weak, strong, ... for minors), which a deck's basic combat cards may name; ``templates()`` is
the built-in file."""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from boardstate.rules import FieldError, structure_toml

from ._characters import known_sources
from ._data import TEMPLATES_FILE
from ._fields import ID, converter, one_of, whole

MAIN_COMBAT_CARDS = 10
MINOR_COMBAT_CARDS = 9


@attrs.frozen
class CombatLine:
    """``copies`` basic combat cards with these printed values."""

    attack: int = attrs.field(validator=whole(0, 20))
    defense: int = attrs.field(validator=whole(0, 20))
    copies: int = attrs.field(validator=whole(1, 12))


def multiset(lines: Iterable[CombatLine]) -> dict[tuple[int, int], int]:
    out: dict[tuple[int, int], int] = {}
    for line in lines:
        out[line.attack, line.defense] = out.get((line.attack, line.defense), 0) + line.copies
    return out


@attrs.frozen
class Template:
    role: str = attrs.field(validator=one_of(("main", "minor")))
    cards: tuple[CombatLine, ...]
    source: tuple[str, ...] = attrs.field(default=(), validator=known_sources)

    def __attrs_post_init__(self) -> None:
        need = MAIN_COMBAT_CARDS if self.role == "main" else MINOR_COMBAT_CARDS
        have = sum(c.copies for c in self.cards)
        if have != need:
            raise FieldError(f"a {self.role} template has {need} cards, got {have}", "cards")


@attrs.frozen
class Templates:
    """``decks/templates.toml``."""

    template: dict[str, Template] = attrs.field(hash=False)

    def __attrs_post_init__(self) -> None:
        for name in self.template:
            if not ID.fullmatch(name.replace("+", "-plus")):
                raise FieldError(f"bad template name {name!r}", field=f"template.{name}")


# --- the file -----------------------------------------------------------------------------------


def parse_templates(text: str, source: str) -> Templates:
    return structure_toml(text, source, Templates, converter(), TEMPLATES_FILE.code)


def templates() -> Templates:
    return TEMPLATES_FILE.builtin()
