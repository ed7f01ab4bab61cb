"""Who plays what, on which board, with which cards: the part of a game fixed at the start.

``Roster`` is built from the header's options and the cast (``roster_of``, cached by value) and
shared by every state of the game.  A *group* is one main character with its minors and its
deck of 31 cards; a seat has one group (two in Master Play).  Characters are numbered for the
whole game, group by group; cards are numbered for the whole game too (each group's distinct
cards in turn), so a card's number says which deck it belongs to.
"""

from __future__ import annotations

import attrs

from boardstate.rules import OptionError, cached_by_value

from ._characters import cast
from ._decks import Card, Deck, deck_for, stored_deck, stored_deck_texts
from .boards import BOARDS

# Variants (option ``variant``): the two-player duel and the rulebook's Game Variations
DUEL = "duel"
TEAM = "team"
FREE_FOR_ALL = "free-for-all"
RANDOM_DRAW = "random-draw"
MASTER = "master"
VARIANTS = (DUEL, TEAM, FREE_FOR_ALL, RANDOM_DRAW, MASTER)
PLAYERS = {
    DUEL: (2,),
    TEAM: (4, 6),
    FREE_FOR_ALL: range(2, 7),
    RANDOM_DRAW: range(2, 7),
    MASTER: (2, 4),
}


@attrs.frozen
class CharSpec:
    """One pawn: whose it is, what it is, and what the notation calls it."""

    seat: int
    group: int  # the group (main character, minors, deck) it belongs to
    kind: str  # the character id of the data ('super-battle-droid')
    pawn: int  # 0 for a single pawn, else 1 or 2 (the notches on its base)
    main: bool
    hp: int
    ranged: bool
    name: str  # the printed name, with the pawn number ('Super Battle Droid 1')
    id: str  # the notation id ('super-battle-droid-1', 'dooku')
    short: str  # initials and pawn number ('sbd1'); the main's id for a main


@attrs.frozen(slots=False, cache_hash=True)
class Roster:
    """A value: equal by its fields, pickled as them (the board and the tables made from them
    again), so a game's state read back from a saved copy equals the state the rules reach."""

    scene: str
    variant: str
    teams: tuple[str, ...]  # per group: the team (its main character's id)
    group_seat: tuple[int, ...]  # per group: the seat that plays it
    side_of: tuple[int, ...]  # per seat: its side (players of one side are friends)
    chars: tuple[CharSpec, ...]
    cards: tuple[Card, ...]  # every distinct card of every group's deck
    card_group: tuple[int, ...]  # per card: the group whose deck holds it
    decks: tuple[tuple[int, ...], ...]  # per group: its 31 physical cards
    deck_end: str = "next-draw"  # a pile is gone through at the next draw, or its last card
    destroyed: str = "beyond-track"  # damage above the wound points destroys, or equal to them
    teams_are_friends: bool = True  # rules revision 3: team-mates' characters are friends
    own_damage: bool = False  # a card's "any one character" damage may hit one's own side

    def __attrs_post_init__(self) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "_board", BOARDS[self.scene])
        setattr_(self, "_seat_of", tuple(c.seat for c in self.chars))
        extra = 1 if self.destroyed == "beyond-track" else 0
        setattr_(self, "_dies_at", tuple(c.hp + extra for c in self.chars))
        seats = len(self.side_of)
        setattr_(
            self,
            "_of_seat",
            tuple(tuple(i for i, c in enumerate(self.chars) if c.seat == s) for s in range(seats)),
        )
        setattr_(
            self,
            "_of_group",
            tuple(
                tuple(i for i, c in enumerate(self.chars) if c.group == g)
                for g in range(len(self.teams))
            ),
        )
        setattr_(
            self,
            "_groups_of",
            tuple(
                tuple(g for g, s in enumerate(self.group_seat) if s == seat)
                for seat in range(seats)
            ),
        )
        setattr_(self, "_mains", tuple(self._of_group[g][0] for g in range(len(self.teams))))
        setattr_(
            self,
            "_enemies",
            tuple(
                tuple(j for j in range(len(self.chars)) if not self.friends(i, j))
                for i in range(len(self.chars))
            ),
        )

    def __reduce__(self):
        return Roster, attrs.astuple(self, recurse=False)

    @property
    def board(self):
        return self._board

    @property
    def seats(self) -> int:
        return len(self.side_of)

    @property
    def seat_of(self) -> tuple[int, ...]:
        """Per character: the seat that plays it."""
        return self._seat_of

    @property
    def dies_at(self) -> tuple[int, ...]:
        """Per character: the damage that destroys it."""
        return self._dies_at

    @property
    def mains(self) -> tuple[int, ...]:
        """Per group: its main character."""
        return self._mains

    def chars_of(self, seat: int) -> tuple[int, ...]:
        return self._of_seat[seat]

    def chars_of_group(self, group: int) -> tuple[int, ...]:
        return self._of_group[group]

    def groups_of(self, seat: int) -> tuple[int, ...]:
        return self._groups_of[seat]

    def mains_of(self, seat: int) -> tuple[int, ...]:
        return tuple(self._mains[g] for g in self._groups_of[seat])

    def same_side(self, seat: int, other: int) -> bool:
        """Whether two seats play on one side: the printed rules' "friendly characters (those
        on your team)"; an "enemy character" is one of another side."""
        return self.side_of[seat] == self.side_of[other]

    def friends(self, a: int, b: int) -> bool:
        """Whether characters ``a`` and ``b`` are friends: a move passes through, an attack
        may not be made.  Rules revision 2 and older compared seats here, so a team-mate's
        character blocked and could be attacked (kept so that those games verify as played)."""
        seat_of = self._seat_of
        if self.teams_are_friends:
            return self.same_side(seat_of[a], seat_of[b])
        return seat_of[a] == seat_of[b]

    def enemies(self, char: int) -> tuple[int, ...]:
        """The characters that are not ``char``'s friends (``friends``)."""
        return self._enemies[char]

    def group_of_card(self, card: int) -> int:
        return self.card_group[card]

    def pictured(self, card: int) -> tuple[int, ...]:
        """The characters a card shows (both pawns of a two-pawn minor type)."""
        kind = self.cards[card].pictures
        return tuple(i for i in self._of_group[self.card_group[card]] if self.chars[i].kind == kind)


def kept_on_roster(make):
    """``make(roster)`` made the first time a roster asks and kept on it: a table of the roster
    alone, read in the hot loops by a dictionary lookup (an ``lru_cache`` keyed by the roster
    calls its hash and costs more than some of the tables).  Not pickled, not compared: a
    roster read back makes its tables again."""
    key = f"_kept {make.__module__}.{make.__qualname__}"

    def kept(rs: Roster):
        tables = rs.__dict__
        found = tables.get(key)
        if found is None:
            found = tables[key] = make(rs)
        return found

    kept.__doc__ = make.__doc__
    return kept


def initials(kind: str) -> str:
    """``super-battle-droid`` -> ``sbd``: a character kind's short name."""
    return "".join(part[0] for part in kind.split("-"))


def characters_of(teams: tuple[str, ...], group_seat: tuple[int, ...]) -> tuple[CharSpec, ...]:
    out = []
    for group, (team_id, seat) in enumerate(zip(teams, group_seat)):
        team = cast().by_id(team_id)
        m = team.main
        out.append(CharSpec(seat, group, m.id, 0, True, m.hp, m.ranged, m.name, m.id, m.id))
        minor = team.minor
        for pawn in range(1, minor.count + 1) if minor.count > 1 else (0,):
            suffix = f"-{pawn}" if pawn else ""
            out.append(
                CharSpec(
                    seat,
                    group,
                    minor.id,
                    pawn,
                    False,
                    minor.hp,
                    minor.ranged,
                    minor.name + (f" {pawn}" if pawn else ""),
                    minor.id + suffix,
                    initials(minor.id) + (str(pawn) if pawn else ""),
                )
            )
    _name_shared_minors(out)
    return tuple(out)


def _name_shared_minors(chars: list) -> None:
    """Two groups with the same minor type (three teams bring Clone Troopers) number their
    pawns on: the second group's are 3 and 4."""
    seen: dict[str, int] = {}
    for i, c in enumerate(chars):
        if c.main or not c.pawn:
            continue
        n = seen[c.kind] = seen.get(c.kind, 0) + 1
        if n != c.pawn:
            chars[i] = attrs.evolve(
                c,
                pawn=n,
                name=f"{c.name.rsplit(' ', 1)[0]} {n}",
                id=f"{c.kind}-{n}",
                short=f"{initials(c.kind)}{n}",
            )


def distinct(deck: Deck) -> tuple[tuple[Card, ...], tuple[int, ...]]:
    """A deck's distinct cards (first appearance order) and its physical cards as indexes."""
    kinds: dict[Card, int] = {}  # (a card's number: its place among the kinds, as first seen)
    physical = [kinds.setdefault(c, len(kinds)) for c in deck.cards]
    return tuple(kinds), tuple(physical)


def _deck(team: str, texts: dict, alternatives: tuple[str, ...]) -> Deck:
    deck = stored_deck(team, texts[team]) if team in texts else deck_for(team)
    offered = [a for a in alternatives if a in deck.alternatives]
    return deck.with_alternatives(offered) if offered else deck


ROSTERS_KEPT = 256
"""Rosters ``build`` keeps (about 11 kB each): more than the 144 of two-player duels with the
default options (36 pairings on 4 boards), so self-play that goes round them all (the bench,
a bot's training) finds each one again; with 64 kept, going round in order dropped each one
before it came again, and every game built its roster anew."""


@cached_by_value(size=ROSTERS_KEPT)
def build(
    scene, variant, cast_, texts, alternatives, deck_end, destroyed, revision=3, own_damage=False
) -> Roster:
    """``cast_``: per seat, the tuple of its teams; ``revision``: the game's rules revision."""
    texts = dict(texts)
    teams = tuple(t for seat_teams in cast_ for t in seat_teams)
    group_seat = tuple(seat for seat, seat_teams in enumerate(cast_) for _ in seat_teams)
    cards: list[Card] = []
    card_group: list[int] = []
    decks = []
    for group, team in enumerate(teams):
        kinds, physical = distinct(_deck(team, texts, alternatives))
        offset = len(cards)
        cards.extend(kinds)
        card_group.extend([group] * len(kinds))
        decks.append(tuple(offset + k for k in physical))
    seats = len(cast_)
    if variant == TEAM or (variant == MASTER and seats == 4):
        side_of = tuple(seat % 2 for seat in range(seats))  # seats alternate round the table
    else:
        side_of = tuple(range(seats))
    return Roster(
        scene,
        variant,
        teams,
        group_seat,
        side_of,
        characters_of(teams, group_seat),
        tuple(cards),
        tuple(card_group),
        tuple(decks),
        deck_end,
        destroyed,
        teams_are_friends=revision >= 3,
        own_damage=own_damage or revision < 3,
    )


def roster_of(options, cast_, revision: int) -> Roster:
    """The Roster of a header's (prepared) options and the cast chosen or drawn at the start,
    under the game's rules revision."""
    return build(
        options["board"],
        options.get("variant", DUEL),
        tuple(tuple(t) for t in cast_),
        stored_deck_texts(options.get("deck-texts", ())),
        tuple(options.get("alternatives", ())),
        options.get("deck-end", "next-draw"),
        options.get("destroyed", "beyond-track"),
        revision,
        options.get("own-damage", OWN_DAMAGE[0]) == "allowed",
    )


# ---------------------------------------------------------------------------------- options
OWN_DAMAGE = ("forbidden", "allowed")
"""Option own-damage: may "any one character" damage (Throw Debris, Force Lightning) hit a
character of the card player's own side?  Rules revision 3 follows both public
reimplementations (forbidden); ``allowed`` reads the cards' words literally (revision 2)."""

DEFAULT_CHARACTERS = ("obi-wan", "dooku")  # the rulebook's first game


def _bad(why: str) -> OptionError:
    return OptionError(f"option characters: {why}", code="bad-option")


def parse_characters(value: str | None, players, variant: str) -> list[list[str]] | None:
    """Per player, their main characters: ``obi-wan,dooku`` (one each, in player order), in
    Master Play ``obi-wan+yoda,dooku+maul``.  None: drawn at random at the start (the
    random-draw variant, and the team, free-for-all and Master games that name none)."""
    n = len(players)
    per_player = 2 if variant == MASTER else 1
    if variant == RANDOM_DRAW:
        if value is not None:
            raise _bad("in the random-draw variant the main characters are drawn, not chosen")
        return None
    if value is None:  # the duel's first game; else drawn at random, as in the random draw
        return [[c] for c in DEFAULT_CHARACTERS] if variant == DUEL else None
    known = [t.id for t in cast().teams]
    names = [[x.strip().lower() for x in part.split("+")] for part in value.split(",")]
    for group in names:
        for name in group:
            if name not in known:
                raise _bad(f"no main character {name!r} (choose from {', '.join(known)})")
    if len(names) != n:
        raise _bad(f"{len(names)} named for {n} players (one each, in player order)")
    for seat, group in enumerate(names):
        if len(group) != per_player:
            how = "two, joined by +" if per_player == 2 else "one"
            raise _bad(f"{players[seat]} has {len(group)}: each player plays {how}")
    flat = [x for group in names for x in group]
    if len(set(flat)) != len(flat):
        raise _bad("a main character is named twice")
    if variant == DUEL:
        sides = {cast().by_id(group[0]).side for group in names}
        if sides != {"light", "dark"}:
            raise _bad(
                f"{flat[0]} and {flat[1]} are both on the {sides.pop()} side; the duel is "
                "light against dark"
            )
    return names
