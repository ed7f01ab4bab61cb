"""Star Wars Epic Duels: the characters and the 12 decks as typed, validated data.

Three kinds of data file, each structured with cattrs into frozen attrs classes (unknown keys
and values of the wrong type are refused) and checked as a whole; a mistake is one located
line, ``decks/luke.toml:58: card[2].effects[1].target.who: 'han' is neither a selector
(...) nor a character of team 'luke' (luke, leia)``:

- ``characters.toml``: the source keys, and the 12 teams (main and minor characters);
- ``decks/templates.toml``: the basic combat templates (red, blue, ... for mains; weak,
  strong, ... for minors);
- ``decks/<team>.toml``: one team's 31 cards (10 + 9 basic combat cards, 12 talent cards).

A talent card's effects are data in a small vocabulary (``VERBS`` with their parameters,
targets ``WHO``/``SIDES``, players ``PLAYERS``, conditions ``Condition``, quantities
``QUANTITIES``), documented in docs/games/epic-duels-data.md; the rules read it, there is no
per-card code.  Values the sources disagree on carry their ``disputed`` alternatives, which a
deck applies by id (``Deck.with_alternatives``).

A player who owns the printed cards can load a deck file of their own (``load_deck(path)``,
``deck_for(team, path)``), in the same format as the built-in ones.
"""

from __future__ import annotations

import contextvars
import hashlib
import re
from collections.abc import Iterable
from typing import get_args, get_origin

import attrs
import cattrs
from cattrs.cols import homogenous_tuple_structure_factory, mapping_structure_factory
from cattrs.gen import make_dict_structure_fn, override

from boardstate.rules import DataFile, FieldError, OptionError, read_data_file, structure_toml

from .boards import SCENES

# --- the vocabulary -----------------------------------------------------------------------------

KINDS = ("combat", "power-combat", "special")
"""Card kinds: basic combat, power combat (a value and effects after the combat), special."""

TALENT_KINDS = ("power-combat", "special")
SIDES_OF_THE_FORCE = ("light", "dark")

QUANTITIES = ("cards-in-hand", "attack-value", "damage-dealt")
"""Numbers the rules work out when a value or amount is needed (see the data doc)."""
COMBAT_QUANTITIES = ("attack-value", "damage-dealt")  # only on power combat cards

WHO = ("self", "opposing", "chosen", "any", "minor", "adjacent", "attackable")
"""Character selectors of a target; a team's own character ids are selectors too."""
COMBAT_WHO = ("opposing",)
SIDES = ("any", "enemy", "one-opponent")
"""Which characters a target selector may pick from."""

PLAYERS = ("you", "opponent", "everyone", "opposing", "chosen")
"""Player selectors (``opposing``/``chosen``: the player controlling that character)."""

PICKS = ("random", "owner", "you")
"""Who picks the cards a ``discard`` of ``amount`` cards throws away."""
PLACES = ("anywhere", "next-to-a-character")
PILES = ("draw", "discard")

# verb: (required parameters, optional parameters); every verb also takes ``when`` and
# ``optional``.  ``discard`` needs exactly one of amount (with pick), keep, matching.
VERBS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "draw": (("amount",), ("player",)),
    "discard": ((), ("player", "amount", "pick", "keep", "matching")),
    "search": (("pile",), ("top", "named")),
    "reshuffle": ((), ()),
    "damage": (("target", "amount"), ()),
    "heal": (("target", "amount"), ()),
    "destroy": (("target",), ()),
    "move": (("target", "squares"), ()),
    "place": (("target", "where"), ()),
    "swap": (("target",), ()),
    "immobilize": (("target", "release"), ()),
    "lose-actions": (("player", "amount"), ()),
    "forbid-draw": (("player",), ()),
}
PARAMETERS = (
    "target",
    "player",
    "amount",
    "squares",
    "where",
    "pick",
    "keep",
    "matching",
    "pile",
    "top",
    "named",
    "release",
)
COMBAT_CONDITIONS = ("defended", "damage_dealt", "opposing_destroyed")

MAIN_COMBAT_CARDS = 10
MINOR_COMBAT_CARDS = 9
TALENT_CARDS = 12
DECK_CARDS = MAIN_COMBAT_CARDS + MINOR_COMBAT_CARDS + TALENT_CARDS  # 31

_ID = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")

_TEAM: contextvars.ContextVar[Team | None] = contextvars.ContextVar("epic_duels_team", default=None)
"""The team of the deck file being structured (its checks name the team's characters)."""


# --- validators ---------------------------------------------------------------------------------


def _whole(lo: int, hi: int):
    def check(_inst, attribute, value):
        if value is not None and (type(value) is not int or not lo <= value <= hi):
            raise FieldError(
                f"must be a whole number from {lo} to {hi}, got {value!r}", field=attribute.name
            )

    return check


def _one_of(choices: Iterable[str]):
    choices = tuple(choices)

    def check(_inst, attribute, value):
        if value is not None and value not in choices:
            raise FieldError(
                f"must be one of {', '.join(choices)}, got {value!r}", field=attribute.name
            )

    return check


def _an_id(_inst, attribute, value):
    if value is not None and not _ID.fullmatch(value):
        raise FieldError(
            f"must be an id in lower case with hyphens (like 'obi-wan'), got {value!r}",
            field=attribute.name,
        )


def _text(_inst, attribute, value):
    if not value.strip():
        raise FieldError("must not be empty", field=attribute.name)


def _sources(_inst, attribute, value):
    known = cast().sources
    for key in value:
        if key not in known:
            raise FieldError(
                f"unknown source key {key!r} (keys: {', '.join(known)})", field=attribute.name
            )


def _ours(value: str, field: str) -> None:
    """``value`` must name a character of the deck's team (when a deck is being read)."""
    team = _TEAM.get()
    if team is not None and team.character(value) is None:
        raise FieldError(
            f"{value!r} is not a character of team {team.id!r} ({team.main.id}, {team.minor.id})",
            field=field,
        )


def _only_one(inst, names: tuple[str, ...], what: str) -> str:
    given = [n for n in names if getattr(inst, n) is not None]
    if len(given) != 1:
        raise FieldError(f"{what} needs exactly one of {', '.join(names)}, got {len(given)}")
    return given[0]


# --- characters ---------------------------------------------------------------------------------


@attrs.frozen
class Character:
    """A main character, or a minor character type (``count`` pawns of it)."""

    id: str = attrs.field(validator=_an_id)
    name: str = attrs.field(validator=_text)
    hp: int = attrs.field(validator=_whole(1, 30))
    ranged: bool
    count: int = attrs.field(default=1, validator=_whole(1, 2))
    source: tuple[str, ...] = ()
    uncertain: dict[str, str] = attrs.field(factory=dict, hash=False)
    """⚠ notes by field name (``hp``, ``count``, ``ranged``, ``name``)."""

    def __attrs_post_init__(self) -> None:
        for key in self.uncertain:
            if key not in ("hp", "count", "ranged", "name"):
                raise FieldError(
                    f"notes a field that does not exist: {key!r} (hp, count, ranged, name)",
                    field="uncertain",
                )


@attrs.frozen
class Team:
    side: str = attrs.field(validator=_one_of(SIDES_OF_THE_FORCE))
    main: Character
    minor: Character

    @property
    def id(self) -> str:
        return self.main.id

    def character(self, char_id: str) -> Character | None:
        return {self.main.id: self.main, self.minor.id: self.minor}.get(char_id)

    def __attrs_post_init__(self) -> None:
        if self.main.count != 1:
            raise FieldError("a main character is one pawn", field="main.count")
        if self.minor.id == self.main.id:
            raise FieldError("must differ from the main character's id", field="minor.id")


@attrs.frozen
class Cast:
    """``characters.toml``: the source keys cited everywhere, and the 12 teams."""

    sources: dict[str, str] = attrs.field(hash=False)
    team: tuple[Team, ...]

    @property
    def teams(self) -> tuple[Team, ...]:
        return self.team

    def by_id(self, team_id: str) -> Team | None:
        for t in self.team:
            if t.id == team_id:
                return t
        return None

    def __attrs_post_init__(self) -> None:
        mains = [t.main.id for t in self.team]
        minors: dict[str, Character] = {}
        for i, t in enumerate(self.team):
            if mains.index(t.main.id) != i:
                raise FieldError(f"team {t.main.id!r} is listed twice", field=f"team[{i}].main.id")
            if t.minor.id in mains:
                raise FieldError(
                    f"{t.minor.id!r} is a main character's id", field=f"team[{i}].minor.id"
                )
            same = minors.setdefault(t.minor.id, t.minor)
            if (same.name, same.hp, same.ranged, same.count) != (
                t.minor.name,
                t.minor.hp,
                t.minor.ranged,
                t.minor.count,
            ):
                raise FieldError(
                    f"minor {t.minor.id!r} is described differently by another team",
                    field=f"team[{i}].minor.id",
                )
            for role in ("main", "minor"):
                for key in getattr(t, role).source:
                    if key not in self.sources:
                        raise FieldError(
                            f"unknown source key {key!r} (see [sources])",
                            field=f"team[{i}].{role}.source",
                        )


# --- basic combat templates ---------------------------------------------------------------------


@attrs.frozen
class CombatLine:
    """``copies`` basic combat cards with these printed values."""

    attack: int = attrs.field(validator=_whole(0, 20))
    defense: int = attrs.field(validator=_whole(0, 20))
    copies: int = attrs.field(validator=_whole(1, 12))


def _multiset(lines: Iterable[CombatLine]) -> dict[tuple[int, int], int]:
    out: dict[tuple[int, int], int] = {}
    for line in lines:
        out[line.attack, line.defense] = out.get((line.attack, line.defense), 0) + line.copies
    return out


@attrs.frozen
class Template:
    role: str = attrs.field(validator=_one_of(("main", "minor")))
    cards: tuple[CombatLine, ...]
    source: tuple[str, ...] = attrs.field(default=(), validator=_sources)

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
            if not _ID.fullmatch(name.replace("+", "-plus")):
                raise FieldError(f"bad template name {name!r}", field=f"template.{name}")


# --- values, targets, conditions, effects -------------------------------------------------------


@attrs.frozen
class Condition:
    """When a step (or a conditional value) applies: exactly one test.

    destroyed: your character with this id is destroyed (every pawn of a minor type);
    adjacent_to: the card's character is adjacent to your character with this id;
    defended: the attack in this combat was (true) or was not (false) defended;
    damage_dealt: this combat's attack did (true) or did not (false) damage the defender;
    opposing_destroyed: the opposing character of this combat is (true) or is not destroyed;
    hand_size: your hand holds exactly this many cards (after playing the card);
    board: the battle scene is this one (a scene id);
    previous_done: the step before this one (an ``optional`` step) was carried out.
    """

    destroyed: str | None = attrs.field(default=None, validator=_an_id)
    adjacent_to: str | None = attrs.field(default=None, validator=_an_id)
    defended: bool | None = None
    damage_dealt: bool | None = None
    opposing_destroyed: bool | None = None
    hand_size: int | None = attrs.field(default=None, validator=_whole(0, 10))
    board: str | None = attrs.field(default=None, validator=_one_of(SCENES))
    previous_done: bool | None = None

    def __attrs_post_init__(self) -> None:
        _only_one(self, CONDITIONS, "a condition")
        for name in ("destroyed", "adjacent_to"):
            if getattr(self, name) is not None:
                _ours(getattr(self, name), name)

    @property
    def test(self) -> str:
        """The one condition key that is set."""
        return next(n for n in CONDITIONS if getattr(self, n) is not None)


CONDITIONS = tuple(a.name for a in attrs.fields(Condition))


@attrs.frozen
class Value:
    """An attack or defense value, or an effect's amount: one of

    ``6`` (a number: ``base``), ``"cards-in-hand"`` (a ``quantity``), or
    ``{ base = 4, when = { destroyed = "leia" }, then = 10 }`` (``then`` when the condition
    holds, else ``base``).
    """

    base: int | None = attrs.field(default=None, validator=_whole(0, 20))
    quantity: str | None = attrs.field(default=None, validator=_one_of(QUANTITIES))
    when: Condition | None = None
    then: int | None = attrs.field(default=None, validator=_whole(0, 20))

    def __attrs_post_init__(self) -> None:
        if self.quantity is not None:
            if (self.base, self.when, self.then) != (None, None, None):
                raise FieldError("a quantity stands alone")
        elif self.base is None:
            raise FieldError("needs a number, a quantity or a table {base, when, then}")
        elif (self.when is None) != (self.then is None):
            raise FieldError("a conditional value needs base, when and then")

    @property
    def conditional(self) -> bool:
        return self.when is not None


@attrs.frozen
class Target:
    """The character(s) a step acts on: ``"self"`` or ``{ who, side, each, and_adjacent }``.

    who: self | opposing | chosen | any | minor | adjacent | attackable | one of your team's
    character ids; side: any | enemy | one-opponent (characters of one opponent you choose);
    each: every character that fits (else you choose one); and_adjacent: also every
    character adjacent to the one picked.
    """

    who: str = attrs.field(validator=_an_id)
    side: str = attrs.field(default="any", validator=_one_of(SIDES))
    each: bool = False
    and_adjacent: bool = False

    @property
    def named(self) -> bool:
        """Whether ``who`` names one of the team's characters (not a selector)."""
        return self.who not in WHO

    def __attrs_post_init__(self) -> None:
        if self.who in ("self", "opposing", "chosen") and self.side != "any":
            raise FieldError(f"{self.who!r} takes no side", field="side")
        team = _TEAM.get()
        if self.named and team is not None and team.character(self.who) is None:
            raise FieldError(
                f"{self.who!r} is neither a selector ({', '.join(WHO)}) nor a character of "
                f"team {team.id!r} ({team.main.id}, {team.minor.id})",
                field="who",
            )


@attrs.frozen
class CardFilter:
    """Which cards a ``discard`` with ``matching`` throws away (the hand is shown first)."""

    attack_above: int | None = attrs.field(default=None, validator=_whole(0, 20))
    kind: str | None = attrs.field(default=None, validator=_one_of(KINDS))

    def __attrs_post_init__(self) -> None:
        _only_one(self, ("attack_above", "kind"), "a card filter")


@attrs.frozen
class Effect:
    """One step of a card's effect: a verb with its parameters (see ``VERBS``)."""

    verb: str = attrs.field(validator=_one_of(VERBS))
    target: Target | None = None
    player: str | None = attrs.field(default=None, validator=_one_of(PLAYERS))
    amount: Value | None = None
    squares: int | None = attrs.field(default=None, validator=_whole(1, 10))
    where: str | None = attrs.field(default=None, validator=_one_of(PLACES))
    pick: str | None = attrs.field(default=None, validator=_one_of(PICKS))
    keep: int | None = attrs.field(default=None, validator=_whole(0, 10))
    matching: CardFilter | None = None
    pile: str | None = attrs.field(default=None, validator=_one_of(PILES))
    top: int | None = attrs.field(default=None, validator=_whole(1, 10))
    named: str | None = None
    release: int | None = attrs.field(default=None, validator=_whole(1, 10))
    when: Condition | None = None
    optional: bool = False

    def __attrs_post_init__(self) -> None:
        required, allowed = VERBS[self.verb]
        for p in PARAMETERS:
            given = getattr(self, p) is not None
            if given and p not in required and p not in allowed:
                raise FieldError(f"{self.verb!r} takes no {p}", field=p)
            if not given and p in required:
                raise FieldError(f"{self.verb!r} needs {p}", field=p)
        if self.amount is not None:
            a = self.amount
            if a.conditional:
                raise FieldError("an amount is a number or a quantity", field="amount")
            if a.base is not None and a.base < 1:
                raise FieldError(f"must be at least 1, got {a.base}", field="amount")
        if self.verb == "discard":
            how = _only_one(self, ("amount", "keep", "matching"), "'discard'")
            if (self.pick is not None) != (how == "amount"):
                raise FieldError("'discard' of an amount needs pick (and only then)", "pick")
        if self.verb == "search" and self.top is not None and self.pile != "draw":
            raise FieldError("top is the top of the draw pile", field="top")

    @property
    def parameters(self) -> dict:
        """The parameters given (for display and checks)."""
        return {p: getattr(self, p) for p in PARAMETERS if getattr(self, p) is not None}


def _check_steps(effects: tuple[Effect, ...], kind: str) -> None:
    """Checks that need the card's kind and the order of the steps (located at ``effects``)."""
    targeted = optional = False
    for i, e in enumerate(effects):
        step = f"step {i + 1} ({e.verb})"
        combat_only = []
        if e.target is not None and e.target.who in COMBAT_WHO:
            combat_only.append(f"target {e.target.who!r}")
        if e.player == "opposing":
            combat_only.append("player 'opposing'")
        if e.amount is not None and e.amount.quantity in COMBAT_QUANTITIES:
            combat_only.append(f"amount {e.amount.quantity!r}")
        if e.when is not None and e.when.test in COMBAT_CONDITIONS:
            combat_only.append(f"condition {e.when.test!r}")
        if e.amount is not None and e.amount.quantity == "cards-in-hand":
            raise FieldError(f"{step}: cards-in-hand is an attack or defense value", "effects")
        if combat_only and kind != "power-combat":
            raise FieldError(
                f"{step}: {combat_only[0]} needs a combat (a power combat card)", "effects"
            )
        if (e.target is not None and e.target.who == "chosen") or e.player == "chosen":
            if not targeted:
                raise FieldError(f"{step}: 'chosen' needs an earlier step with a target", "effects")
        if e.when is not None and e.when.test == "previous_done" and not optional:
            raise FieldError(f"{step}: previous_done needs an optional step just before", "effects")
        targeted = targeted or e.target is not None
        optional = e.optional


def _check_value(v: Value | None, field: str) -> None:
    if v is None:
        return
    if v.when is not None and v.when.test == "previous_done":
        raise FieldError("previous_done is for effect steps", field=field)
    if v.quantity == "damage-dealt":
        raise FieldError("damage-dealt is an amount, not a value", field=field)


# --- cards and decks ----------------------------------------------------------------------------


@attrs.frozen
class Alternative:
    """One disputed alternative to a card: what ``source`` says instead.

    Its ``id`` names the alternative across the deck: cards that carry the same id change
    together (``Deck.with_alternatives``).  Omitted fields keep the card's values.
    """

    id: str = attrs.field(validator=_an_id)
    source: tuple[str, ...] = attrs.field(
        validator=attrs.validators.and_(attrs.validators.min_len(1), _sources)
    )
    note: str = attrs.field(validator=_text)
    attack: Value | None = None
    defense: Value | None = None
    copies: int | None = attrs.field(default=None, validator=_whole(1, 12))
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

    name: str = attrs.field(validator=_text)
    pictures: str = attrs.field(validator=_an_id)
    kind: str = attrs.field(validator=_one_of(TALENT_KINDS))
    copies: int = attrs.field(validator=_whole(1, 12))
    text: str = attrs.field(validator=_text)
    attack: Value | None = None
    defense: Value | None = None
    free: bool = False
    """Playing it does not count as one of the turn's actions."""
    effects: tuple[Effect, ...] = ()
    source: tuple[str, ...] = attrs.field(default=(), validator=_sources)
    uncertain: str | None = None
    """⚠ a value or reading only a weak source gives (no alternative known)."""
    disputed: tuple[Alternative, ...] = ()

    def __attrs_post_init__(self) -> None:
        _ours(self.pictures, "pictures")
        if self.kind == "special":
            for name in ("attack", "defense"):
                if getattr(self, name) is not None:
                    raise FieldError("a special card has no combat value", field=name)
            if not self.effects:
                raise FieldError("a special card needs at least one effect", field="effects")
        elif self.attack is None and self.defense is None:
            raise FieldError("a power combat card needs an attack or a defense value", "attack")
        for name in ("attack", "defense"):
            _check_value(getattr(self, name), name)
        if self.uncertain is not None and not self.uncertain.strip():
            raise FieldError("must not be empty", field="uncertain")
        _check_steps(self.effects, self.kind)
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

    team: str = attrs.field(validator=_an_id)
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
            if _multiset(basic.cards) != _multiset(t.cards):
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
    file: DeckFile = attrs.field(eq=False, repr=False, hash=False, default=None)

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
        return _build(self.file, ids)

    def count(self, kind: str | None = None, pictures: str | None = None) -> int:
        return sum(
            1
            for c in self.cards
            if (kind is None or c.kind == kind) and (pictures is None or c.pictures == pictures)
        )


def _build(d: DeckFile, ids: tuple[str, ...] = ()) -> Deck:
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
    return Deck(d.team, tuple(cards), d.alternative_ids(), ids, d)


# --- the converter ------------------------------------------------------------------------------

CONVERTER = cattrs.Converter(forbid_extra_keys=True)
"""Strict: no extra keys, no ``"5"`` for 5, no ``1`` for true, no string for a list."""

_TYPE_NAMES = {int: "a whole number", str: "a string", bool: "true or false"}


def _strict(kind):
    def hook(value, _type):
        if type(value) is not kind:
            raise FieldError(f"must be {_TYPE_NAMES[kind]}, got {value!r}")
        return value

    return hook


for _kind in _TYPE_NAMES:
    CONVERTER.register_structure_hook(_kind, _strict(_kind))


def _is_tuple(t) -> bool:
    args = get_args(t)
    return get_origin(t) is tuple and len(args) == 2 and args[1] is Ellipsis


def _tuple_hook(t):
    inner = homogenous_tuple_structure_factory(t, CONVERTER)

    def hook(value, _type):
        if not isinstance(value, list):
            raise FieldError(f"must be a list, got {value!r}")
        return inner(value, _type)

    return hook


def _dict_hook(t):
    inner = mapping_structure_factory(t, CONVERTER)

    def hook(value, _type):
        if not isinstance(value, dict):
            raise FieldError(f"must be a table, got {value!r}")
        return inner(value, _type)

    return hook


CONVERTER.register_structure_hook_factory(_is_tuple, _tuple_hook)
CONVERTER.register_structure_hook_factory(lambda t: get_origin(t) is dict, _dict_hook)

_value_table = make_dict_structure_fn(Value, CONVERTER, quantity=override(omit=True))
_target_table = make_dict_structure_fn(Target, CONVERTER)


def _structure_value(value, _type) -> Value:
    if type(value) is int:
        return Value(base=value)
    if type(value) is str:
        if value not in QUANTITIES:
            raise FieldError(
                f"must be a number, a quantity ({', '.join(QUANTITIES)}) or a table "
                f"{{base, when, then}}, got {value!r}"
            )
        return Value(quantity=value)
    if isinstance(value, dict):
        return _value_table(value, Value)
    raise FieldError(f"must be a number, a quantity or a table {{base, when, then}}, got {value!r}")


def _structure_target(value, _type) -> Target:
    if type(value) is str:
        return Target(who=value)
    if isinstance(value, dict):
        return _target_table(value, Target)
    raise FieldError(f"must be a selector or a table {{who, side, each}}, got {value!r}")


CONVERTER.register_structure_hook(Value, _structure_value)
CONVERTER.register_structure_hook(Target, _structure_target)

_deck_table = make_dict_structure_fn(DeckFile, CONVERTER)


def _structure_deck(value, _type) -> DeckFile:
    """Structure a deck file with its team known to the nested checks (see ``_TEAM``)."""
    team = value.get("team") if isinstance(value, dict) else None
    token = _TEAM.set(cast().by_id(team) if type(team) is str else None)
    try:
        return _deck_table(value, DeckFile)
    finally:
        _TEAM.reset(token)


CONVERTER.register_structure_hook(DeckFile, _structure_deck)


# --- the files ----------------------------------------------------------------------------------


def parse_characters(text: str, source: str) -> Cast:
    """``characters.toml`` -> Cast; a mistake is ``OptionError('FILE:LINE: field: reason')``."""
    return structure_toml(text, source, Cast, CONVERTER, "bad-characters")


def parse_templates(text: str, source: str) -> Templates:
    return structure_toml(text, source, Templates, CONVERTER, "bad-templates")


def parse_deck(text: str, source: str) -> Deck:
    """A deck file -> Deck (checked against the built-in characters and templates)."""
    return _build(structure_toml(text, source, DeckFile, CONVERTER, "bad-deck"))


CHARACTERS_FILE = DataFile(
    __package__, "characters.toml", parse_characters, what="characters file", code="bad-characters"
)
TEMPLATES_FILE = DataFile(
    __package__,
    "decks/templates.toml",
    parse_templates,
    what="templates file",
    code="bad-templates",
)


def deck_file(team: str) -> DataFile:
    """The built-in deck file of ``team`` (``decks/<team>.toml``)."""
    return DataFile(
        __package__, f"decks/{team}.toml", parse_deck, what="deck file", code="bad-deck"
    )


def cast() -> Cast:
    """The built-in characters (parsed once per process: DataFile caches by text)."""
    return CHARACTERS_FILE.builtin()


def templates() -> Templates:
    return TEMPLATES_FILE.builtin()


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


def deck_for(team: str, path=None) -> Deck:
    """``team``'s deck: the built-in one (``path`` None) or a player's file for that team."""
    if cast().by_id(team) is None:
        raise OptionError(f"unknown team {team!r}", code="bad-deck")
    if path is None:
        return deck_file(team).builtin()
    return DataFile(
        __package__, f"decks/{team}.toml", _parse_deck_of(team), what="deck file", code="bad-deck"
    ).load(path)


def data_digest() -> str:
    """Names the content of every built-in data file (for ``GameSpec.data_digest``)."""
    parts = [CHARACTERS_FILE.digest, TEMPLATES_FILE.digest]
    parts += [deck_file(t.id).digest for t in cast().teams]
    return hashlib.sha256("".join(parts).encode()).hexdigest()[:16]
