"""The rules of Duel of the Forces as a Decider: ``decide`` emits events into the table, ``evolve``
folds them.

Rule references name the section of the edition's own text (see docs/games/duel-of-the-forces.md).
"""

from __future__ import annotations

import re

from boardstate.rules import (
    Choice,
    IllegalCommand,
    InvalidCommand,
    OptionError,
    Outcome,
    Setup,
    cached_by_value,
    resolve_player,
)

from . import _scoring
from ._cards import DECK_FILE, HERO_ORDER, cards_of
from ._state import (
    BID,
    EVENTS,
    NOT_BIDDING,
    OVER,
    R2,
    R2_DECISION,
    BidsRevealed,
    Captured,
    CardDiscarded,
    DuelState,
    FinalTake,
    GameEnded,
    R2Resolved,
    R2TurnedUp,
    StockShuffled,
    VillainSetAside,
    VillainTurnedUp,
    evolve,
)

EDITIONS = ("ravensburger-2015", "parlett-english", "parlett-original")
FULL_TIE = ("set-aside", "rebid")

# Rule references, per edition: where in that edition's text the rule stands.
_REF = {
    "ravensburger-2015": {
        "bid": "Ravensburger 2015, Spielverlauf",
        "r2": "Ravensburger 2015, R2-D2-Karten",
        "vader": "Ravensburger 2015, Darth Vader-Karten",
        "end": "Ravensburger 2015, Spielende",
    },
    "parlett-english": {
        "bid": "Parlett, Play",
        "r2": "Parlett, R2-D2 cards",
        "vader": "Parlett, Darth Vader cards (1)",
        "end": "Parlett, Ending and winning",
    },
    "parlett-original": {
        "bid": "Parlett, Play",
        "r2": "Parlett, R2-D2 cards",
        "vader": "Parlett, Darth Vader cards (1)",
        "end": "Parlett, Variations (1)",
    },
}

KEEP = ("keep",)
R2_WORDS = ("r2", "r2d2", "r2-d2")


def play(card: int) -> tuple:
    return ("play", card)


def give(seat: int) -> tuple:
    return ("give", seat)


class DuelRules:
    """Duel of the Forces.  Commands are tuples: ("play", card), ("keep",), ("give", seat)."""

    # ------------------------------------------------------------------ options and setup
    def prepare(self, options, players) -> dict:
        """What the engine cannot check: the heroes named, and the cards, loaded into the header
        so that a game made with ``deck=FILE`` replays without the file."""
        heroes = (
            parse_heroes(options["heroes"], players)
            if "heroes" in options
            else HERO_ORDER[: len(players)]
        )
        cards = DECK_FILE.option(options.get("deck"))
        return {
            "edition": options["edition"],
            "heroes": heroes,
            "full-tie": options["full-tie"],
            "cards": cards.to_option(),
        }

    def initial(self, setup: Setup) -> DuelState:
        options = setup.options
        n = len(setup.players)
        return DuelState(
            players=tuple(setup.players),
            edition=options["edition"],
            heroes=tuple(options["heroes"]),
            hands=tuple((R2, 1, 2, 3, 4, 5, 6, 7, 8) for _ in range(n)),
            stock=(),
            villain=None,
            captured=((),) * n,
            full_tie=options["full-tie"],
            cards=cards_of(options["cards"]),
        )

    def start(self, table) -> None:
        """Shuffle the Empire cards face down into the stock; turn up the first villain."""
        rng = table.rng
        order = rng.shuffled(range(len(table.state.cards.deck)))
        stock = tuple(rng.secret(i) for i in order)
        table.emit(StockShuffled(stock))
        table.emit(VillainTurnedUp(table.reveal(stock[0])))

    # ------------------------------------------------------------------ whose turn
    def to_act(self, s: DuelState) -> tuple:
        if s.phase == BID:
            if vader_up(s):
                return tuple([i for i, h in enumerate(s.hands) if h and h[-1] != R2])
            return tuple([i for i, h in enumerate(s.hands) if h])
        if s.phase == R2_DECISION:
            return (s.r2_seat,)
        return ()

    def choice(self, s: DuelState) -> Choice:
        """Bids are sealed and turned over together; the R2-D2 decision is made in the open."""
        return Choice.SEALED if s.phase == BID else Choice.OPEN

    def legal(self, s: DuelState, seat: int):
        if s.phase == BID:
            return legal_bids(s.hands[seat], vader_up(s))
        if s.phase == R2_DECISION and seat == s.r2_seat:
            return (KEEP,) + tuple(("give", o) for o in range(len(s.players)) if o != seat)
        return ()

    def is_legal(self, s: DuelState, seat: int, command) -> bool:
        """``command in legal(s, seat)``, checked without the list: the referee checks every bid
        of a long log."""
        if s.phase == BID:
            return (
                type(command) is tuple
                and len(command) == 2
                and command[0] == "play"
                and command[1] in s.hands[seat]
                and not (command[1] == R2 and vader_up(s))
            )
        return command in self.legal(s, seat)

    def explain(self, s: DuelState, seat: int, command) -> IllegalCommand:
        """Why ``command`` is not legal now, with the rule it breaks (the engine has checked that
        the game is on and that ``seat`` acts)."""
        ref = _REF[s.edition]
        kind = command[0]
        if s.phase == BID:
            if kind != "play":
                return IllegalCommand(
                    f"'{kind}' is only for a player whose R2-D2 turned up a "
                    f"card; now every player bids with 'play'",
                    code="wrong-phase",
                    rule=ref["r2"],
                )
            card = command[1]
            if card not in s.hands[seat]:
                what = "R2-D2" if card == R2 else f"force {card}"
                return IllegalCommand(
                    f"{s.players[seat]} has no {what} card in hand (hand: {hand_text(s, seat)})",
                    code="not-in-hand",
                    rule=ref["bid"],
                )
            if card == R2 and vader_up(s):
                return IllegalCommand(
                    "R2-D2 may not be played when Darth Vader is up",
                    code="r2-on-vader",
                    rule=ref["vader"],
                )
        elif kind == "play":
            return IllegalCommand(
                f"{s.players[s.r2_seat]} must first keep or give the card R2-D2 turned up",
                code="wrong-phase",
                rule=ref["r2"],
            )
        elif kind == "give" and command[1] == seat:
            return IllegalCommand(
                "to keep the card say 'keep'; 'give' names another player",
                code="give-self",
                rule=ref["r2"],
            )
        return IllegalCommand(
            f"{self.notation(s, seat, command)!r} is not a legal command now", code="illegal"
        )

    # ------------------------------------------------------------------ notation
    def notation(self, s: DuelState, seat: int, command) -> str:
        kind = command[0]
        if kind == "play":
            return "play r2" if command[1] == R2 else f"play {s.heroes[seat]} {command[1]}"
        if kind == "give":
            return f"give {s.players[command[1]]}"
        return "keep"

    def parse(self, s: DuelState, seat: int, text: str):
        words = text.strip().split()
        if not words:
            raise InvalidCommand(
                "empty command (try: play HERO FORCE, play r2, keep, give PLAYER)", code="syntax"
            )
        verb, args = words[0].lower(), words[1:]
        if verb == "play":
            try:
                return parse_bid(s.heroes[seat], text)
            except OtherHero as other:
                raise IllegalCommand(
                    f"{s.players[seat]} plays {s.heroes[seat]}, not {other.hero}",
                    code="not-your-hero",
                    rule=_REF[s.edition]["bid"],
                ) from None
        if verb == "keep" and not args:
            return KEEP
        if verb == "give" and len(args) == 1:
            return ("give", resolve_player(s.players, args[0], text))
        raise InvalidCommand(
            f"cannot read {text.strip()!r} (commands: play HERO FORCE, play r2, keep, give PLAYER)",
            code="syntax",
        )

    # ------------------------------------------------------------------ decide
    def decide(self, table, moves) -> None:
        if table.state.phase == BID:
            bid_round(table, moves)
        else:
            r2_decision(table, moves)

    # ------------------------------------------------------------------ the rest of the Decider
    evolve = staticmethod(evolve)  # the table folds every event with it: no extra call layer

    def outcome(self, s: DuelState) -> Outcome | None:
        if s.phase != OVER:
            return None
        return _scoring.outcome(s.captured, s.cards.deck, s.edition, s.end_reason)

    def view(self, s: DuelState, seat: int | None) -> DuelState:
        return s.replace(stock=tuple(c.sealed() for c in s.stock))


# ---------------------------------------------------------------------- options
def parse_heroes(text: str, players) -> tuple:
    """``yoda, han`` -> ("yoda", "han"): one different hero per player, in seat order."""
    heroes = tuple(h.strip().lower() for h in text.split(",") if h.strip())
    if (
        len(heroes) != len(players)
        or len(set(heroes)) != len(heroes)
        or not set(heroes) <= set(HERO_ORDER)
    ):
        raise OptionError(
            f"heroes must name {len(players)} different heroes from "
            f"{', '.join(HERO_ORDER)}, one per player in order"
        )
    return heroes


# ---------------------------------------------------------------------- bids
def vader_up(s: DuelState) -> bool:
    return s.cards.deck[s.villain].vader


@cached_by_value(size=1024)  # every hand (2**9) with Vader up or not
def legal_bids(hand: tuple, vader: bool) -> tuple:
    """The bids a hand allows: they depend only on the hand and on whether Vader is up."""
    return tuple(("play", c) for c in hand if not (vader and c == R2))


class OtherHero(InvalidCommand):
    """A bid names another player's hero (``parse`` says whose, with the rule)."""

    def __init__(self, hero: str) -> None:
        super().__init__(f"a bid with {hero}'s card", code="not-your-hero")
        self.hero = hero


@cached_by_value(size=1024)
def parse_bid(hero: str, text: str) -> tuple:
    """``play ...`` as a bid of ``hero``'s player.  A bid's meaning depends only on the text and
    the hero, so it is read once (the referee parses every revealed bid of a long log)."""
    joined = "".join(text.split()[1:]).lower()
    if joined in R2_WORDS:
        return ("play", R2)
    m = re.fullmatch(r"([a-z]*)-?(\d+)", joined)
    if not m:
        raise InvalidCommand(
            f"cannot read {text.strip()!r}: say 'play {hero} 5' or 'play r2'", code="syntax"
        )
    named, force = m.group(1), int(m.group(2))
    if named and not hero.startswith(named):
        names = [h for h in HERO_ORDER if h.startswith(named)]
        if not names:
            raise InvalidCommand(
                f"no hero {named!r} (heroes: {', '.join(HERO_ORDER)})", code="syntax"
            )
        raise OtherHero(names[0])
    if not 1 <= force <= 8:
        raise InvalidCommand(f"force must be 1 to 8, got {force}", code="syntax")
    return ("play", force)


def hand_text(s: DuelState, seat: int) -> str:
    return " ".join("r2" if c == R2 else str(c) for c in s.hands[seat]) or "empty"


# ---------------------------------------------------------------------- decide, step by step
def bid_round(table, moves) -> None:
    """Turn the bids over; a sole R2-D2 peeks (Parlett: before the duel; Ravensburger: after)."""
    s = table.state
    cards = [NOT_BIDDING] * len(s.players)
    for seat, (_, card) in moves:
        cards[seat] = card
    table.emit(BidsRevealed(tuple(cards)))
    r2s = [i for i, c in enumerate(cards) if c == R2]
    sole_r2 = r2s[0] if len(r2s) == 1 else -1
    if sole_r2 >= 0 and s.edition != "ravensburger-2015" and table.state.stock:
        r2_turns_up(table, sole_r2)
        return
    duel(table, table.state.bids)
    if sole_r2 >= 0 and table.state.stock:
        r2_turns_up(table, sole_r2)
        return
    next_round(table)


def r2_turns_up(table, seat: int) -> None:
    table.emit(R2TurnedUp(seat, table.reveal(table.state.stock[0])))


def r2_decision(table, moves) -> None:
    """Keep or give the card R2-D2 turned up; then the duel it deferred (Parlett), if any."""
    ((seat, command),) = moves
    s = table.state
    vader = s.cards.deck[s.r2_card].vader
    if command[0] == "keep":
        table.emit(R2Resolved(seat, seat, vader))
    else:
        table.emit(R2Resolved(seat, command[1], not vader))
    if s.deferred:
        duel(table, s.deferred)
    next_round(table)


def duel(table, cards: tuple) -> None:
    """The duel for the villain up: highest force, then most icons, wins."""
    s = table.state
    competitors = [i for i, c in enumerate(cards) if c > 0]
    if not competitors or s.villain is None:
        return  # everyone sat out: the villain stays up for another round
    icons = s.cards.icon_map
    keys = {i: (cards[i], icons[s.heroes[i]][cards[i] - 1]) for i in competitors}
    best = max(keys.values())
    winners = [i for i in competitors if keys[i] == best]
    if len(winners) > 1:  # full tie: a house rule (no edition covers it)
        if s.full_tie == "set-aside":
            table.emit(VillainSetAside(s.villain))
        return
    winner = winners[0]
    table.emit(Captured(winner, s.villain))
    if vader_up(s):
        for i in competitors:
            if i != winner:
                table.emit(CardDiscarded(i, cards[i]))
    else:
        table.emit(CardDiscarded(winner, cards[winner]))


def next_round(table) -> None:
    """End checks, then turn up the next villain (unless one is still up)."""
    s = table.state
    holders = [i for i, h in enumerate(s.hands) if h]
    if s.edition == "parlett-english":
        empty = [i for i, h in enumerate(s.hands) if not h]
        if empty:
            table.emit(GameEnded(f"{s.players[empty[0]]} has run out of rebel cards"))
            return
    elif len(holders) == 1:
        final_take(table, holders[0])
        return
    if not holders:
        table.emit(GameEnded("no player has cards left"))
    elif all(s.hands[i] == (R2,) for i in holders):
        table.emit(GameEnded("only R2-D2 cards are left in hand"))
    elif s.villain is not None:
        return  # nobody took it: bid again for the same villain
    elif not s.stock:
        table.emit(GameEnded("the stock is used up"))
    else:
        table.emit(VillainTurnedUp(table.reveal(s.stock[0])))


def final_take(table, seat: int) -> None:
    """The last player with cards takes one stock card per card in hand, and the game ends."""
    s = table.state
    take = tuple(table.reveal(c) for c in s.stock[: len(s.hands[seat])])
    table.emit(FinalTake(seat, take))
    table.emit(
        GameEnded(f"only {s.players[seat]} has cards left and takes {len(take)} from the stock")
    )


__all__ = ["DuelRules", "EVENTS", "EDITIONS", "FULL_TIE", "play", "give", "KEEP"]
