"""The effect vocabulary of Epic Duels' talent cards: what a card's effects may say.

A card's effects are data in a small vocabulary (``VERBS`` with their parameters, targets
``WHO``/``SIDES``, players ``PLAYERS``, conditions ``Condition``, quantities ``QUANTITIES``),
documented in docs/games/epic-duels-data.md; the rules read it (``_effects``), there is no
per-card code.  Each step is checked alone here, and in the order of its card by
``check_steps``; a value or target is structured from its short forms (``6``,
``"cards-in-hand"``, ``"self"``) or its table.
"""

from __future__ import annotations

import contextvars

import attrs

from boardstate.rules import FieldError

from ._characters import Team
from ._fields import an_id, on_converter, one_of, only_one, whole
from .boards import SCENES

KINDS = ("combat", "power-combat", "special")
"""Card kinds: basic combat, power combat (a value and effects after the combat), special."""

TALENT_KINDS = ("power-combat", "special")

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


TEAM: contextvars.ContextVar[Team | None] = contextvars.ContextVar("epic_duels_team", default=None)
"""The team of the deck file being structured (its checks name the team's characters)."""


def ours(value: str, field: str) -> None:
    """``value`` must name a character of the deck's team (when a deck is being read)."""
    team = TEAM.get()
    if team is not None and team.character(value) is None:
        raise FieldError(
            f"{value!r} is not a character of team {team.id!r} ({team.main.id}, {team.minor.id})",
            field=field,
        )


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

    destroyed: str | None = attrs.field(default=None, validator=an_id)
    adjacent_to: str | None = attrs.field(default=None, validator=an_id)
    defended: bool | None = None
    damage_dealt: bool | None = None
    opposing_destroyed: bool | None = None
    hand_size: int | None = attrs.field(default=None, validator=whole(0, 10))
    board: str | None = attrs.field(default=None, validator=one_of(SCENES))
    previous_done: bool | None = None

    def __attrs_post_init__(self) -> None:
        only_one(self, CONDITIONS, "a condition")
        for name in ("destroyed", "adjacent_to"):
            if getattr(self, name) is not None:
                ours(getattr(self, name), name)

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

    base: int | None = attrs.field(default=None, validator=whole(0, 20))
    quantity: str | None = attrs.field(default=None, validator=one_of(QUANTITIES))
    when: Condition | None = None
    then: int | None = attrs.field(default=None, validator=whole(0, 20))

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

    who: str = attrs.field(validator=an_id)
    side: str = attrs.field(default="any", validator=one_of(SIDES))
    each: bool = False
    and_adjacent: bool = False

    @property
    def named(self) -> bool:
        """Whether ``who`` names one of the team's characters (not a selector)."""
        return self.who not in WHO

    def __attrs_post_init__(self) -> None:
        if self.who in ("self", "opposing", "chosen") and self.side != "any":
            raise FieldError(f"{self.who!r} takes no side", field="side")
        team = TEAM.get()
        if self.named and team is not None and team.character(self.who) is None:
            raise FieldError(
                f"{self.who!r} is neither a selector ({', '.join(WHO)}) nor a character of "
                f"team {team.id!r} ({team.main.id}, {team.minor.id})",
                field="who",
            )


@attrs.frozen
class CardFilter:
    """Which cards a ``discard`` with ``matching`` throws away (the hand is shown first)."""

    attack_above: int | None = attrs.field(default=None, validator=whole(0, 20))
    kind: str | None = attrs.field(default=None, validator=one_of(KINDS))

    def __attrs_post_init__(self) -> None:
        only_one(self, ("attack_above", "kind"), "a card filter")


@attrs.frozen
class Effect:
    """One step of a card's effect: a verb with its parameters (see ``VERBS``)."""

    verb: str = attrs.field(validator=one_of(VERBS))
    target: Target | None = None
    player: str | None = attrs.field(default=None, validator=one_of(PLAYERS))
    amount: Value | None = None
    squares: int | None = attrs.field(default=None, validator=whole(1, 10))
    where: str | None = attrs.field(default=None, validator=one_of(PLACES))
    pick: str | None = attrs.field(default=None, validator=one_of(PICKS))
    keep: int | None = attrs.field(default=None, validator=whole(0, 10))
    matching: CardFilter | None = None
    pile: str | None = attrs.field(default=None, validator=one_of(PILES))
    top: int | None = attrs.field(default=None, validator=whole(1, 10))
    named: str | None = None
    release: int | None = attrs.field(default=None, validator=whole(1, 10))
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
            how = only_one(self, ("amount", "keep", "matching"), "'discard'")
            if (self.pick is not None) != (how == "amount"):
                raise FieldError("'discard' of an amount needs pick (and only then)", "pick")
        if self.verb == "search" and self.top is not None and self.pile != "draw":
            raise FieldError("top is the top of the draw pile", field="top")

    @property
    def parameters(self) -> dict:
        """The parameters given (for display and checks)."""
        return {p: getattr(self, p) for p in PARAMETERS if getattr(self, p) is not None}


def check_steps(effects: tuple[Effect, ...], kind: str) -> None:
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


def check_value(v: Value | None, field: str) -> None:
    if v is None:
        return
    if v.when is not None and v.when.test == "previous_done":
        raise FieldError("previous_done is for effect steps", field=field)
    if v.quantity == "damage-dealt":
        raise FieldError("damage-dealt is an amount, not a value", field=field)


# --- structuring values and targets -------------------------------------------------------------


def _install(converter) -> None:
    """Values and targets: a number, a quantity or a selector word, or a table of fields."""
    from cattrs.gen import make_dict_structure_fn, override

    value_table = make_dict_structure_fn(Value, converter, quantity=override(omit=True))
    target_table = make_dict_structure_fn(Target, converter)

    def structure_value(value, _type) -> Value:
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
            return value_table(value, Value)
        raise FieldError(
            f"must be a number, a quantity or a table {{base, when, then}}, got {value!r}"
        )

    def structure_target(value, _type) -> Target:
        if type(value) is str:
            return Target(who=value)
        if isinstance(value, dict):
            return target_table(value, Target)
        raise FieldError(f"must be a selector or a table {{who, side, each}}, got {value!r}")

    converter.register_structure_hook(Value, structure_value)
    converter.register_structure_hook(Target, structure_target)


on_converter(_install)
