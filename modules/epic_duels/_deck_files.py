"""An Epic Duels deck file as it writes the cards (``DeckFile``: ``decks/<team>.toml`` or a
player's file in the same format), structured with cattrs, checked against the built-in
characters and templates, and made into the ``Deck`` a game uses (``build``).  Imported when a
file is parsed or a deck varied (``_decks``): a command whose decks are kept parsed does not make
these classes (issue 29).
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from boardstate.rules import DataFile, FieldError, OptionError, structure_toml

from ._characters import cast, known_sources
from ._decks import Card, Deck
from ._fields import an_id, converter, nonblank, on_converter, one_of, whole
from ._templates import MAIN_COMBAT_CARDS, MINOR_COMBAT_CARDS, CombatLine, multiset, templates
from ._vocabulary import TALENT_KINDS, TEAM, Effect, Value, check_steps, check_value, ours

TALENT_CARDS = 12
DECK_CARDS = MAIN_COMBAT_CARDS + MINOR_COMBAT_CARDS + TALENT_CARDS  # 31


@attrs.frozen
class Alternative:
    """One disputed alternative to a card: what ``source`` says instead.

    Its ``id`` names the alternative across the deck: cards that carry the same id change
    together (``Deck.with_alternatives``).  Omitted fields keep the card's values.
    """

    id: str = attrs.field(validator=an_id)
    source: tuple[str, ...] = attrs.field(
        validator=attrs.validators.and_(attrs.validators.min_len(1), known_sources)
    )
    note: str = attrs.field(validator=nonblank)
    attack: Value | None = None
    defense: Value | None = None
    copies: int | None = attrs.field(default=None, validator=whole(1, 12))
    effects: tuple[Effect, ...] | None = None

    def __attrs_post_init__(self) -> None:
        if (self.attack, self.defense, self.copies, self.effects) == (None,) * 4:
            raise FieldError("changes nothing (give attack, defense, copies or effects)")

    def changes(self) -> dict:
        return {
            n: getattr(self, n)
            for n in ("attack", "defense", "copies", "effects")
            if getattr(self, n) is not None
        }


@attrs.frozen
class TalentCard:
    """A power combat or special card as its deck file writes it (with ``copies``)."""

    name: str = attrs.field(validator=nonblank)
    pictures: str = attrs.field(validator=an_id)
    kind: str = attrs.field(validator=one_of(TALENT_KINDS))
    copies: int = attrs.field(validator=whole(1, 12))
    text: str = attrs.field(validator=nonblank)
    attack: Value | None = None
    defense: Value | None = None
    free: bool = False
    """Playing it does not count as one of the turn's actions."""
    effects: tuple[Effect, ...] = ()
    source: tuple[str, ...] = attrs.field(default=(), validator=known_sources)
    uncertain: str | None = None
    """⚠ a value or reading only a weak source gives (no alternative known)."""
    disputed: tuple[Alternative, ...] = ()

    def __attrs_post_init__(self) -> None:
        ours(self.pictures, "pictures")
        if self.kind == "special":
            for name in ("attack", "defense"):
                if getattr(self, name) is not None:
                    raise FieldError("a special card has no combat value", field=name)
            if not self.effects:
                raise FieldError("a special card needs at least one effect", field="effects")
        elif self.attack is None and self.defense is None:
            raise FieldError("a power combat card needs an attack or a defense value", "attack")
        for name in ("attack", "defense"):
            check_value(getattr(self, name), name)
        if self.uncertain is not None and not self.uncertain.strip():
            raise FieldError("must not be empty", field="uncertain")
        check_steps(self.effects, self.kind)
        ids = [a.id for a in self.disputed]
        for j, a in enumerate(self.disputed):
            if ids.index(a.id) != j:
                raise FieldError(f"alternative {a.id!r} twice", field=f"disputed[{j}].id")
            try:
                attrs.evolve(self, disputed=(), **a.changes())
            except FieldError as exc:
                where = f"[{j}]" + (f".{exc.field}" if exc.field else "")
                raise FieldError(f"{where} (alternative {a.id!r}): {exc}", "disputed") from None


@attrs.frozen
class BasicCards:
    """A character's basic combat cards; ``template`` (if given) must match them exactly."""

    cards: tuple[CombatLine, ...]
    template: str | None = None


@attrs.frozen
class DeckFile:
    """``decks/<team>.toml`` (or a player's deck file in the same format)."""

    team: str = attrs.field(validator=an_id)
    main_combat: BasicCards
    minor_combat: BasicCards
    card: tuple[TalentCard, ...]

    def __attrs_post_init__(self) -> None:
        _check_deck(self)

    def alternative_ids(self) -> tuple[str, ...]:
        seen: list[str] = []
        for c in self.card:
            for a in c.disputed:
                if a.id not in seen:
                    seen.append(a.id)
        return tuple(seen)


def _check_deck(d: DeckFile) -> None:
    if cast().by_id(d.team) is None:
        known = ", ".join(t.id for t in cast().teams)
        raise FieldError(f"unknown team {d.team!r} (teams: {known})", field="team")
    temps = templates().template
    for role, need in (("main", MAIN_COMBAT_CARDS), ("minor", MINOR_COMBAT_CARDS)):
        basic: BasicCards = getattr(d, f"{role}_combat")
        have = sum(line.copies for line in basic.cards)
        if have != need:
            raise FieldError(
                f"{role} basic combat cards: {need} needed, got {have}", f"{role}_combat.cards"
            )
        if basic.template is not None:
            t = temps.get(basic.template)
            if t is None or t.role != role:
                fits = ", ".join(n for n, t in temps.items() if t.role == role)
                raise FieldError(
                    f"unknown {role} template {basic.template!r} (templates: {fits})",
                    f"{role}_combat.template",
                )
            if multiset(basic.cards) != multiset(t.cards):
                raise FieldError(
                    f"the cards differ from template {basic.template!r}", f"{role}_combat.cards"
                )
    have = sum(card.copies for card in d.card)
    if have != TALENT_CARDS:
        last = len(d.card) - 1
        raise FieldError(
            f"the talent cards add up to {have} copies, {TALENT_CARDS} are needed",
            f"card[{last}].copies" if last >= 0 else "team",
        )
    names = [card.name for card in d.card]
    for i, card in enumerate(d.card):
        if names.index(card.name) != i:
            raise FieldError(f"{card.name!r} is listed twice (use copies)", f"card[{i}].name")
        steps = [card.effects] + [a.effects for a in card.disputed if a.effects is not None]
        for effects in steps:
            for e in effects:
                if e.named is not None and e.named not in names:
                    raise FieldError(
                        f"an effect searches for {e.named!r}, which this deck does not hold",
                        f"card[{i}].name",
                    )
    for alt_id in d.alternative_ids():
        have = sum(_varied(card, (alt_id,)).copies for card in d.card)
        if have != TALENT_CARDS:
            i = next(i for i, card in enumerate(d.card) if alt_id in [a.id for a in card.disputed])
            raise FieldError(
                f"with alternative {alt_id!r} the deck has {have} talent cards, not {TALENT_CARDS}",
                f"card[{i}].disputed",
            )


def _varied(card: TalentCard, ids: Iterable[str]) -> TalentCard:
    chosen = [a for a in card.disputed if a.id in ids]
    if len(chosen) > 1:
        raise OptionError(
            f"alternatives {', '.join(a.id for a in chosen)} both change {card.name!r}",
            code="bad-alternative",
        )
    return attrs.evolve(card, **chosen[0].changes()) if chosen else card


def build(d: DeckFile, ids: tuple[str, ...] = (), *, builtin: bool = False) -> Deck:
    """The deck ``d`` holds, with the disputed alternatives ``ids`` applied (``builtin``: ``d``
    is its team's built-in file, which a pickled deck need not carry)."""
    team = cast().by_id(d.team)
    cards: list[Card] = []
    for basic, who in ((d.main_combat, team.main), (d.minor_combat, team.minor)):
        for line in basic.cards:
            card = Card(
                who.name, who.id, "combat", Value(base=line.attack), Value(base=line.defense)
            )
            cards.extend([card] * line.copies)
    for talent in d.card:
        t = _varied(talent, ids)
        card = Card(t.name, t.pictures, t.kind, t.attack, t.defense, t.free, t.effects, t.text)
        cards.extend([card] * t.copies)
    return Deck(d.team, tuple(cards), d.alternative_ids(), ids, d, builtin)


# --- structuring a deck file --------------------------------------------------------------------


def _install(converter) -> None:
    """A deck file, structured with its team known to the nested checks (see ``TEAM``)."""
    from cattrs.gen import make_dict_structure_fn

    table = make_dict_structure_fn(DeckFile, converter)

    def structure_deck(value, _type) -> DeckFile:
        team = value.get("team") if isinstance(value, dict) else None
        token = TEAM.set(cast().by_id(team) if type(team) is str else None)
        try:
            return table(value, DeckFile)
        finally:
            TEAM.reset(token)

    converter.register_structure_hook(DeckFile, structure_deck)


on_converter(_install)


def parse_deck_file(text: str, source: str) -> DeckFile:
    """A deck file's text -> DeckFile (checked against the built-in characters and templates)."""
    return structure_toml(text, source, DeckFile, converter(), "bad-deck")


def builtin_deck_file(team: str) -> DeckFile:
    """``team``'s built-in deck file, structured (kept parsed, as the decks are)."""
    return DataFile(
        __package__,
        f"decks/{team}.toml",
        parse_deck_file,
        what="deck file",
        code="bad-deck",
    ).builtin()
