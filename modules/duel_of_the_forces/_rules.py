"""The rules of Duel of the Forces as a Decider: ``decide`` emits events into the table, ``evolve``
folds them.

Rule references name the section of the edition's own text (see docs/games/duel-of-the-forces.md).
Rules revision 2 asks the "may" choices, lets Parlett's R2-D2 give a Vader away and stay, and
ends a Ravensburger game before an R2-D2 turn-up; revision 3 keeps the stock as the public list
of the cards left and draws each card at random as it turns up (no dealer: the peer mode).
Revisions 1 and 2 are kept exactly, one flag per change (``DuelState.may_is_asked``,
``gift_keeps_r2_in_parlett``, ``end_before_r2_turn_up``, the default of option r2-only-end, and
``draws_at_turn_up``).
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
from ._report import report
from ._state import (
    BID,
    CORRECTED,
    EVENTS,
    KEEP_CARD,
    LOOK,
    NOT_BIDDING,
    OFFER,
    OVER,
    PEER_READY,
    R2,
    R2_DECISION,
    TAKE,
    Answered,
    BidsRevealed,
    Captured,
    CardDiscarded,
    DuelState,
    FinalDrawn,
    FinalTake,
    GameEnded,
    Offered,
    R2Drawn,
    R2Resolved,
    R2TurnedUp,
    StockShuffled,
    VillainDrawn,
    VillainSetAside,
    VillainTurnedUp,
    evolve,
)

RAVENSBURGER = "ravensburger-2015"
PARLETT_ENGLISH = "parlett-english"
PARLETT_ORIGINAL = "parlett-original"
EDITIONS = (RAVENSBURGER, PARLETT_ENGLISH, PARLETT_ORIGINAL)
FULL_TIE = ("set-aside", "rebid")
# Readings the texts leave open (docs/games/duel-of-the-forces.md, "Readings that end a game").
R2_ONLY_END = ("several", "all")  # DE/IT/NL "mehrere Spieler" against FR "les joueurs"
OUT_OF_CARDS = ("no-cards", "only-r2")  # Parlett: what "runs out of rebel cards" means

# Rule references, per edition: where in that edition's text the rule stands.
_REF = {
    RAVENSBURGER: {
        "bid": "Ravensburger 2015, Spielverlauf",
        "r2": "Ravensburger 2015, R2-D2-Karten",
        "vader": "Ravensburger 2015, Darth Vader-Karten",
        "end": "Ravensburger 2015, Spielende",
    },
    PARLETT_ENGLISH: {
        "bid": "Parlett, Play",
        "r2": "Parlett, R2-D2 cards",
        "vader": "Parlett, Darth Vader cards (2)",
        "end": "Parlett, Ending and winning",
    },
    PARLETT_ORIGINAL: {
        "bid": "Parlett, Play",
        "r2": "Parlett, R2-D2 cards",
        "vader": "Parlett, Darth Vader cards (2)",
        "end": "Parlett, Variations (1)",
    },
}
# (Revision 1 named "(1)" for both Vader rules; the R2-D2 ban is (1), the winner's card (2).)
_REF_R2_ON_VADER = {
    RAVENSBURGER: "Ravensburger 2015, Darth Vader-Karten",
    PARLETT_ENGLISH: "Parlett, Darth Vader cards (1)",
    PARLETT_ORIGINAL: "Parlett, Darth Vader cards (1)",
}

KEEP = ("keep",)
LOOK_CMD = ("look",)
PASS = ("pass",)
DISCARD = ("discard",)
TAKE_CMD = ("take",)
WORDS = ("keep", "look", "pass", "discard", "take")  # the one-word commands
R2_WORDS = ("r2", "r2d2", "r2-d2")
# What a player asked in the OFFER phase may answer: yes first, then no.
ANSWERS = {LOOK: (LOOK_CMD, PASS), KEEP_CARD: (KEEP, DISCARD), TAKE: (TAKE_CMD, PASS)}
COMMANDS = "play HERO FORCE, play r2, keep, give PLAYER, look, pass, discard, take"


def play(card: int) -> tuple:
    return ("play", card)


def give(seat: int) -> tuple:
    return ("give", seat)


class DuelRules:
    """Duel of the Forces.  Commands are tuples: ("play", card), ("give", seat), and the one-word
    answers ("keep",), ("look",), ("pass",), ("discard",), ("take",)."""

    # ------------------------------------------------------------------ options and setup
    def prepare(self, options, players) -> dict:
        """What the engine cannot check: the heroes named, and the cards, loaded into the header
        so that a game made with ``deck=FILE`` replays without the file.  The readings added in
        revision 2 are stored only when given, so a default header is as it always was."""
        heroes = (
            parse_heroes(options["heroes"], players)
            if "heroes" in options
            else HERO_ORDER[: len(players)]
        )
        cards = DECK_FILE.option(options.get("deck"))
        stored = {
            "edition": options["edition"],
            "heroes": heroes,
            "full-tie": options["full-tie"],
            "cards": cards.to_option(),
        }
        for key in ("r2-only-end", "out-of-cards"):
            if key in options:
                stored[key] = options[key]
        return stored

    def initial(self, setup: Setup) -> DuelState:
        options = setup.options
        edition = options["edition"]
        n = len(setup.players)
        r2_end = options.get("r2-only-end", default_r2_only_end(edition, setup.revision))
        out_of_cards = options.get("out-of-cards", OUT_OF_CARDS[0])
        state = DuelState(
            players=tuple(setup.players),
            edition=edition,
            heroes=tuple(options["heroes"]),
            hands=tuple((R2, 1, 2, 3, 4, 5, 6, 7, 8) for _ in range(n)),
            stock=(),
            villain=None,
            captured=((),) * n,
            full_tie=options["full-tie"],
            cards=cards_of(options["cards"]),
            revision=setup.revision,
            several_r2_end=r2_end == "several",
            r2_is_no_rebel=edition != RAVENSBURGER and out_of_cards == "only-r2",
        )
        if state.draws_at_turn_up:  # every Empire card, known to all, waits to be drawn
            state = state.replace(stock=tuple(range(len(state.cards.deck))))
        return state

    def start(self, table) -> None:
        """Turn up the first villain.  Revisions 1-2 shuffle the Empire cards face down into the
        stock first and turn up its top card; in revision 3 the stock is the public list of the
        cards (``initial``) and the villain is drawn from it."""
        if table.state.draws_at_turn_up:
            turn_up_villain(table)
            return
        rng = table.rng
        order = rng.shuffled(range(len(table.state.cards.deck)))
        stock = tuple(rng.secret(i) for i in order)
        table.emit(StockShuffled(stock))
        table.emit(VillainTurnedUp(table.reveal(stock[0])))

    @staticmethod
    def refuse_trust(setup: Setup, mode: str) -> str | None:
        """The peer mode has no dealer to shuffle the stock at creation: it plays revision 3."""
        if mode == "peer" and setup.revision < PEER_READY:
            return (
                f"Duel of the Forces rules revision {setup.revision} shuffles the stock with a "
                f"seed at creation; the peer mode needs revision {PEER_READY} (the default for "
                f"new games)"
            )
        return None

    # ------------------------------------------------------------------ whose turn
    def to_act(self, s: DuelState) -> tuple:
        if s.phase == BID:
            # A force card is needed against Vader, and by a player for whom R2-D2 alone is
            # "out of rebel cards" (Parlett, option out-of-cards=only-r2).
            force = s.r2_is_no_rebel or vader_up(s)
            return tuple([i for i, h in enumerate(s.hands) if h and not (force and h[-1] == R2)])
        if s.phase == R2_DECISION:
            return (s.r2_seat,)
        if s.phase == OFFER:
            return (s.asked,)
        return ()

    def choice(self, s: DuelState) -> Choice:
        """Bids are sealed and turned over together; every other decision is made in the open."""
        return Choice.SEALED if s.phase == BID else Choice.OPEN

    def legal(self, s: DuelState, seat: int):
        if s.phase == BID:
            return legal_bids(s.hands[seat], vader_up(s))
        if s.phase == R2_DECISION and seat == s.r2_seat:
            return (KEEP,) + tuple(("give", o) for o in range(len(s.players)) if o != seat)
        if s.phase == OFFER and seat == s.asked:
            return ANSWERS[s.offer]
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
        if s.phase == BID:
            return _explain_bid(s, seat, command)
        if s.phase == OFFER:
            return _explain_answer(s, command)
        return _explain_r2_decision(s, seat, command, self.notation(s, seat, command))

    # ------------------------------------------------------------------ notation
    def notation(self, s: DuelState, seat: int, command) -> str:
        kind = command[0]
        if kind == "play":
            return "play r2" if command[1] == R2 else f"play {s.heroes[seat]} {command[1]}"
        if kind == "give":
            return f"give {s.players[command[1]]}"
        return kind

    def parse(self, s: DuelState, seat: int, text: str):
        words = text.strip().split()
        if not words:
            raise InvalidCommand(f"empty command (try: {COMMANDS})", code="syntax")
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
        if verb in WORDS and not args:
            return (verb,)
        if verb == "give" and len(args) == 1:
            return ("give", resolve_player(s.players, args[0], text))
        raise InvalidCommand(
            f"cannot read {text.strip()!r} (commands: {COMMANDS})",
            code="syntax",
        )

    # ------------------------------------------------------------------ decide
    def decide(self, table, moves) -> None:
        phase = table.state.phase
        if phase == BID:
            bid_round(table, moves)
        elif phase == R2_DECISION:
            r2_decision(table, moves)
        else:
            answer(table, moves)

    # ------------------------------------------------------------------ the rest of the Decider
    evolve = staticmethod(evolve)  # the table folds every event with it: no extra call layer
    report = staticmethod(report)

    def outcome(self, s: DuelState) -> Outcome | None:
        if s.phase != OVER:
            return None
        return _scoring.outcome(s.captured, s.cards.deck, s.edition, s.end_reason)

    def view(self, s: DuelState, seat: int | None) -> DuelState:
        if s.draws_at_turn_up:
            return s  # revision 3: nothing on the table is secret (the engine seals the bids)
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


def default_r2_only_end(edition: str, revision: int) -> str:
    """The printed German, Italian and Dutch texts end the game when *several* players hold only
    R2-D2 (revision 2); Parlett is silent, so his editions end it only when the game could not go
    on (all of them), as revision 1 did in every edition."""
    return "several" if edition == RAVENSBURGER and revision >= CORRECTED else "all"


# ---------------------------------------------------------------------- bids
def vader_up(s: DuelState) -> bool:
    """Darth Vader is up for grabs.  (No villain is up while a decision waits for the draw that
    turns the next one up: the peer mode's randomness comes when every player has given it.)"""
    return s.villain is not None and s.cards.deck[s.villain].vader


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
    words = text.split()[1:]
    joined = "".join(words).lower()
    if joined in R2_WORDS:
        return ("play", R2)
    m = re.fullmatch(r"([a-z]*)-?([0-9]+)", joined)
    if any(w.startswith("-") for w in words) or (m and len(m.group(2)) > 2):
        raise InvalidCommand(f"force must be 1 to 8, in {text.strip()[:40]!r}", code="syntax")
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


# ---------------------------------------------------------------------- refusals
_ANSWER_RULE = {LOOK: "r2", KEEP_CARD: "vader", TAKE: "end"}
_ASKED = {
    LOOK: "may look at the next stock card with R2-D2",
    KEEP_CARD: "may keep the rebel card that won Darth Vader",
    TAKE: "may take cards from the stock as the last player holding cards",
}


def _explain_bid(s: DuelState, seat: int, command) -> IllegalCommand:
    ref = _REF[s.edition]
    kind = command[0]
    if kind != "play":
        return IllegalCommand(
            f"'{kind}' answers a choice the rules give one player (R2-D2, Darth Vader, the "
            f"final take); now every player bids with 'play'",
            code="wrong-phase",
            rule=ref["r2"] if kind in ("keep", "give", "look") else ref["bid"],
        )
    card = command[1]
    if card not in s.hands[seat]:
        what = "R2-D2" if card == R2 else f"force {card}"
        return IllegalCommand(
            f"{s.players[seat]} has no {what} card in hand (hand: {hand_text(s, seat)})",
            code="not-in-hand",
            rule=ref["bid"],
        )
    return IllegalCommand(
        "R2-D2 may not be played when Darth Vader is up",
        code="r2-on-vader",
        rule=_REF_R2_ON_VADER[s.edition],
    )


def _explain_answer(s: DuelState, command) -> IllegalCommand:
    yes, no = ANSWERS[s.offer]
    return IllegalCommand(
        f"{s.players[s.asked]} {_ASKED[s.offer]}: the answer is '{yes[0]}' or '{no[0]}'",
        code="answer-the-offer",
        rule=_REF[s.edition][_ANSWER_RULE[s.offer]],
    )


def _explain_r2_decision(s: DuelState, seat: int, command, shown: str) -> IllegalCommand:
    rule = _REF[s.edition]["r2"]
    kind = command[0]
    if kind == "play":
        return IllegalCommand(
            f"{s.players[s.r2_seat]} must first keep or give the card R2-D2 turned up",
            code="wrong-phase",
            rule=rule,
        )
    if kind == "give" and command[1] == seat:
        return IllegalCommand(
            "to keep the card say 'keep'; 'give' names another player",
            code="give-self",
            rule=rule,
        )
    return IllegalCommand(
        f"{shown!r} is not a legal command now: keep the card R2-D2 turned up ('keep') or "
        f"give it ('give PLAYER')",
        code="illegal",
        rule=rule,
    )


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
    if sole_r2 >= 0 and s.edition != RAVENSBURGER and s.stock:
        r2_may_look(table, sole_r2)
        return
    if duel(table, table.state.bids):
        after_duel(table, sole_r2)


def after_duel(table, sole_r2: int) -> None:
    """Ravensburger: a sole R2-D2 turns up a card "at the start of the next round" -- so, from
    revision 2, only if the duel just played has not ended the game."""
    s = table.state
    if sole_r2 < 0 or not s.stock:
        next_round(table)
    elif not (s.end_before_r2_turn_up and game_ends(table)):
        r2_may_look(table, sole_r2)


def r2_may_look(table, seat: int) -> None:
    """Revision 2 asks: "dürft ihr ... aufdecken", "you can look at" (a right, not a duty)."""
    if table.state.may_is_asked:
        table.emit(Offered(seat, LOOK))
    else:
        r2_turns_up(table, seat)


def r2_turns_up(table, seat: int) -> None:
    s = table.state
    if s.draws_at_turn_up:
        table.emit(R2Drawn(seat, draw(table, 1)[0]))
    else:
        table.emit(R2TurnedUp(seat, table.reveal(s.stock[0])))


def r2_decision(table, moves) -> None:
    """Keep or give the card R2-D2 turned up; then the duel it deferred (Parlett), if any."""
    ((seat, command),) = moves
    s = table.state
    vader = s.cards.deck[s.r2_card].vader
    if command[0] == "keep":
        table.emit(R2Resolved(seat, seat, vader))
    else:
        table.emit(R2Resolved(seat, command[1], not vader or gift_keeps_r2(s)))
    if not s.deferred or duel(table, s.deferred):
        next_round(table)


def gift_keeps_r2(s: DuelState) -> bool:
    """Parlett: "if you give it away you can keep your R2-D2 card" -- a Vader too (revision 2);
    Ravensburger: giving a Vader away costs R2-D2 ("müsst aber eure R2-D2-Karte abgeben")."""
    return s.gift_keeps_r2_in_parlett and s.edition != RAVENSBURGER


def answer(table, moves) -> None:
    """The asked player's answer to what the rules let them do (revision 2)."""
    ((seat, command),) = moves
    s = table.state
    accepted = command == ANSWERS[s.offer][0]
    table.emit(Answered(seat, accepted))
    if s.offer == LOOK:
        if accepted:
            r2_turns_up(table, seat)
        elif s.edition == RAVENSBURGER or duel(table, s.bids):  # Parlett: the duel waited
            next_round(table)
    elif s.offer == KEEP_CARD:
        if not accepted:
            table.emit(CardDiscarded(seat, s.bids[seat]))
        next_round(table)
    elif accepted:
        final_take(table, seat)
    else:
        table.emit(GameEnded(f"only {s.players[seat]} has cards left and takes none"))


def duel(table, cards: tuple) -> bool:
    """The duel for the villain up: highest force, then most icons, wins.  False when the Vader
    winner is asked whether to keep the card (play goes on after the answer)."""
    s = table.state
    competitors = [i for i, c in enumerate(cards) if c > 0]
    if not competitors or s.villain is None:
        return True  # everyone sat out: the villain stays up for another round
    icons = s.cards.icon_map
    keys = {i: (cards[i], icons[s.heroes[i]][cards[i] - 1]) for i in competitors}
    best = max(keys.values())
    winners = [i for i in competitors if keys[i] == best]
    if len(winners) > 1:  # full tie: a house rule (no edition covers it)
        if s.full_tie == "set-aside":
            table.emit(VillainSetAside(s.villain))
        return True
    winner = winners[0]
    table.emit(Captured(winner, s.villain))
    if not vader_up(s):
        table.emit(CardDiscarded(winner, cards[winner]))
        return True
    for i in competitors:
        if i != winner:
            table.emit(CardDiscarded(i, cards[i]))
    if s.may_is_asked:  # "Er darf seine Jedi/Rebellen-Karte behalten", "may retain the card"
        table.emit(Offered(winner, KEEP_CARD))
        return False
    return True


def next_round(table) -> None:
    """End checks, then turn up the next villain (unless one is still up)."""
    if game_ends(table):
        return
    s = table.state
    if s.villain is not None:
        return  # nobody took it: bid again for the same villain
    if not s.stock:
        table.emit(GameEnded("the stock is used up"))
    else:
        turn_up_villain(table)


def turn_up_villain(table) -> None:
    """The next villain turns up: the top card of the shuffled stock (revisions 1-2), or a card
    drawn at random from the cards left as it turns up (revision 3)."""
    s = table.state
    if s.draws_at_turn_up:
        table.emit(VillainDrawn(draw(table, 1)[0]))
    else:
        table.emit(VillainTurnedUp(table.reveal(s.stock[0])))


def draw(table, count: int) -> tuple:
    """Revision 3: ``count`` cards (as many as are left, at most) drawn one by one, each at a
    random position of the public stock of the cards left: the chances of the top cards of a
    shuffled stock, made when the cards turn up.  No card ever seen stays in the stock (R2-D2's
    card is kept or given, a 'pass' looks at nothing), so there is never a known top card."""
    left = list(table.state.stock)
    return tuple(left.pop(table.rng.randbelow(len(left))) for _ in range(min(count, len(left))))


def in_play(s: DuelState, hand: tuple) -> bool:
    """Still holds cards (or, Parlett with out-of-cards=only-r2, a card other than R2-D2)."""
    return bool(hand) and not (s.r2_is_no_rebel and hand[-1] == R2)


def game_ends(table) -> bool:
    """Emit the end of the game if the hands call for it (or ask for the final take)."""
    s = table.state
    players = s.players
    holders = [i for i, h in enumerate(s.hands) if in_play(s, h)]
    if s.edition == PARLETT_ENGLISH:
        out = [i for i in range(len(players)) if i not in holders]
        if out:
            left = " (only R2-D2 left)" if s.hands[out[0]] else ""
            table.emit(GameEnded(f"{players[out[0]]} has run out of rebel cards{left}"))
            return True
    elif len(holders) == 1:
        last_holder(table, holders[0])
        return True
    if not holders:
        table.emit(GameEnded("no player has cards left"))
        return True
    only_r2 = [i for i in holders if s.hands[i] == (R2,)]
    if len(only_r2) == len(holders):
        table.emit(GameEnded("only R2-D2 cards are left in hand"))
        return True
    if s.several_r2_end and len(only_r2) >= 2:
        names = " and ".join(players[i] for i in only_r2)
        table.emit(GameEnded(f"{names} hold only R2-D2"))
        return True
    return False


def last_holder(table, seat: int) -> None:
    """Ravensburger: "Er darf ... nehmen" (revision 2 asks); Parlett: "must capture"."""
    s = table.state
    if s.may_is_asked and s.edition == RAVENSBURGER and s.stock:
        table.emit(Offered(seat, TAKE))
    else:
        final_take(table, seat)


def final_take(table, seat: int) -> None:
    """The last player with cards takes one stock card per card in hand, and the game ends."""
    s = table.state
    count = sum(1 for c in s.hands[seat] if c != R2 or not s.r2_is_no_rebel)
    if s.draws_at_turn_up:
        take = draw(table, count)
        table.emit(FinalDrawn(seat, take))
    else:
        take = tuple(table.reveal(c) for c in s.stock[:count])
        table.emit(FinalTake(seat, take))
    table.emit(
        GameEnded(f"only {s.players[seat]} has cards left and takes {len(take)} from the stock")
    )


__all__ = ["DuelRules", "EVENTS", "EDITIONS", "FULL_TIE", "play", "give", "KEEP"]
