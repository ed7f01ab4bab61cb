"""Who plays what, on which board, with which cards: the part of a game fixed at creation.

``Roster`` is built once from the header's options (``roster_of``, cached by value) and shared by
every state of the game: the board, the characters numbered for the whole game, and each seat's
deck as its distinct cards.
"""

from __future__ import annotations

import attrs

from boardstate.rules import OptionError, cached_by_value

from ._data import Card, Deck, cast, deck_for, parse_deck
from .boards import BOARDS, SCENES


@attrs.frozen
class CharSpec:
    """One pawn: whose it is, what it is, and what the notation calls it."""

    seat: int
    kind: str  # the character id of the data ('super-battle-droid')
    pawn: int  # 0 for a single pawn, else 1 or 2 (the notches on its base)
    main: bool
    hp: int
    ranged: bool
    name: str  # the printed name, with the pawn number ('Super Battle Droid 1')
    id: str  # the notation id ('super-battle-droid-1', 'dooku')
    short: str  # initials and pawn number ('sbd1'); the main's id for a main


@attrs.frozen(eq=False, slots=False)
class Roster:
    scene: str
    teams: tuple[str, ...]  # per seat: the team (its main character's id)
    sides: tuple[str, ...]  # per seat: light or dark
    chars: tuple[CharSpec, ...]
    cards: tuple[tuple[Card, ...], ...]  # per seat: the deck's distinct cards
    decks: tuple[tuple[int, ...], ...]  # per seat: the 31 physical cards as distinct indexes
    deck_end: str  # when a pile counts as gone through: 'next-draw' or 'last-card'
    destroyed: str = "beyond-track"  # 'beyond-track': damage above the wound points destroys
    # (the rulebook's words); 'at-zero': damage equal to them (hit points, as the clones count)

    @property
    def board(self):
        return self._board

    @property
    def dies_at(self) -> tuple[int, ...]:
        """Per character: the damage that destroys it."""
        return self._dies_at

    @property
    def seat_of(self) -> tuple[int, ...]:
        return self._seat_of

    @property
    def main_of(self) -> tuple[int, ...]:
        return self._main_of

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_board", BOARDS[self.scene])
        object.__setattr__(self, "_seat_of", tuple(c.seat for c in self.chars))
        extra = 1 if self.destroyed == "beyond-track" else 0
        object.__setattr__(self, "_dies_at", tuple(c.hp + extra for c in self.chars))
        mains = [0] * len(self.teams)
        for i, c in enumerate(self.chars):
            if c.main:
                mains[c.seat] = i
        object.__setattr__(self, "_main_of", tuple(mains))
        object.__setattr__(
            self,
            "_of_seat",
            tuple(
                tuple(i for i, c in enumerate(self.chars) if c.seat == s)
                for s in range(len(self.teams))
            ),
        )

    def chars_of(self, seat: int) -> tuple[int, ...]:
        return self._of_seat[seat]

    def card(self, seat: int, card: int) -> Card:
        return self.cards[seat][card]

    def pictured(self, seat: int, card: int) -> tuple[int, ...]:
        """The seat's characters a card shows (both pawns of a two-pawn minor type)."""
        kind = self.cards[seat][card].pictures
        return tuple(i for i in self._of_seat[seat] if self.chars[i].kind == kind)


def _initials(kind: str) -> str:
    return "".join(part[0] for part in kind.split("-"))


def characters_of(teams: tuple[str, ...]) -> tuple[CharSpec, ...]:
    out = []
    for seat, team_id in enumerate(teams):
        team = cast().by_id(team_id)
        m = team.main
        out.append(CharSpec(seat, m.id, 0, True, m.hp, m.ranged, m.name, m.id, m.id))
        minor = team.minor
        for pawn in range(1, minor.count + 1) if minor.count > 1 else (0,):
            suffix = f"-{pawn}" if pawn else ""
            out.append(
                CharSpec(
                    seat,
                    minor.id,
                    pawn,
                    False,
                    minor.hp,
                    minor.ranged,
                    minor.name + (f" {pawn}" if pawn else ""),
                    minor.id + suffix,
                    _initials(minor.id) + (str(pawn) if pawn else ""),
                )
            )
    return tuple(out)


def distinct(deck: Deck) -> tuple[tuple[Card, ...], tuple[int, ...]]:
    """A deck's distinct cards (first appearance order) and its physical cards as indexes."""
    kinds: list[Card] = []
    physical = []
    for c in deck.cards:
        if c not in kinds:
            kinds.append(c)
        physical.append(kinds.index(c))
    return tuple(kinds), tuple(physical)


def _deck(team: str, texts: dict, alternatives: tuple[str, ...]) -> Deck:
    deck = parse_deck(texts[team], f"deck file for {team}") if team in texts else deck_for(team)
    offered = [a for a in alternatives if a in deck.alternatives]
    return deck.with_alternatives(offered) if offered else deck


@cached_by_value
def _roster(scene, teams, texts, alternatives, deck_end, destroyed) -> Roster:
    texts = dict(texts)
    cards, decks = [], []
    for team in teams:
        kinds, physical = distinct(_deck(team, texts, alternatives))
        cards.append(kinds)
        decks.append(physical)
    sides = tuple(cast().by_id(t).side for t in teams)
    return Roster(
        scene, teams, sides, characters_of(teams), tuple(cards), tuple(decks), deck_end, destroyed
    )


def roster_of(options) -> Roster:
    """The Roster of a header's (prepared) options."""
    return _roster(
        options["board"],
        tuple(options["characters"]),
        tuple(sorted(options.get("deck-texts", {}).items())),
        tuple(options.get("alternatives", ())),
        options.get("deck-end", "next-draw"),
        options.get("destroyed", "beyond-track"),
    )


# ---------------------------------------------------------------------------------- options
DEFAULT_CHARACTERS = ("obi-wan", "dooku")  # the rulebook's first game


def parse_characters(value: str | None, players) -> tuple[str, ...]:
    """``obi-wan,dooku``: one main character per player, in player order; two players play
    light against dark (the rulebook's two-player game)."""
    n = len(players)
    if value is None:
        if n != 2:
            raise OptionError(
                "option characters: name one main character per player (e.g. characters="
                "obi-wan,dooku)",
                code="bad-option",
            )
        return DEFAULT_CHARACTERS
    names = tuple(v.strip().lower() for v in value.split(","))
    known = [t.id for t in cast().teams]
    for name in names:
        if name not in known:
            raise OptionError(
                f"option characters: no main character {name!r} (choose from {', '.join(known)})",
                code="bad-option",
            )
    if len(names) != n:
        raise OptionError(
            f"option characters: {len(names)} named for {n} players (one each, in player order)",
            code="bad-option",
        )
    if len(set(names)) != len(names):
        raise OptionError("option characters: a main character is named twice", code="bad-option")
    if n == 2:
        sides = {cast().by_id(name).side for name in names}
        if sides != {"light", "dark"}:
            raise OptionError(
                f"option characters: {names[0]} and {names[1]} are both on the "
                f"{sides.pop()} side; two players play light against dark",
                code="bad-option",
            )
    return names


def check_scene(scene: str) -> str:
    if scene not in SCENES:
        raise OptionError(
            f"option board: no battle scene {scene!r} (scenes: {', '.join(SCENES)})",
            code="bad-option",
        )
    return scene
