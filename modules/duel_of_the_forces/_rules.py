"""The rules of Duel of the Forces as a Decider: ``decide`` gives events, ``evolve`` folds them.

Rule references name the section of the edition's own text (see docs/games/duel-of-the-forces.md).
"""
from __future__ import annotations

import re

from boardstate import (IllegalCommand, InvalidCommand, OptionError, Outcome, resolve_player,
                        reveal)

from . import _scoring
from ._cards import HERO_ORDER, Cards, builtin_cards, load_deck_file
from ._state import (BID, EVENTS, NOT_BIDDING, OVER, R2, R2_DECISION, BidsRevealed, CardDiscarded,
                     Captured, DuelState, FinalTake, GameEnded, R2Resolved, R2TurnedUp,
                     StockShuffled, VillainSetAside, VillainTurnedUp, evolve)

EDITIONS = ("ravensburger-2015", "parlett-english", "parlett-original")
FULL_TIE = ("set-aside", "rebid")

# Rule references, per edition: where in that edition's text the rule stands.
_REF = {
    "ravensburger-2015": {"bid": "Ravensburger 2015, Spielverlauf", "r2": "Ravensburger 2015, R2-D2-Karten",
                          "vader": "Ravensburger 2015, Darth Vader-Karten",
                          "end": "Ravensburger 2015, Spielende"},
    "parlett-english": {"bid": "Parlett, Play", "r2": "Parlett, R2-D2 cards",
                        "vader": "Parlett, Darth Vader cards (1)", "end": "Parlett, Ending and winning"},
    "parlett-original": {"bid": "Parlett, Play", "r2": "Parlett, R2-D2 cards",
                         "vader": "Parlett, Darth Vader cards (1)", "end": "Parlett, Variations (1)"},
}

KEEP = ("keep",)


def play(card: int) -> tuple:
    return ("play", card)


def give(seat: int) -> tuple:
    return ("give", seat)


class DuelRules:
    """Duel of the Forces.  Commands are tuples: ("play", card), ("keep",), ("give", seat)."""

    def __init__(self) -> None:
        self._cards_cache: dict = {}
        self._bids: dict = {}  # (hero, text) -> the parsed bid
        self._legal_bids: dict = {}  # (hand, Vader up) -> the bids, at most 2 * 2**9 entries

    # ------------------------------------------------------------------ options and setup
    def resolve_options(self, raw, players) -> dict:
        unknown = set(raw) - {"edition", "heroes", "full-tie", "deck"}
        if unknown:
            raise OptionError(f"unknown option {sorted(unknown)[0]!r} (options: edition, heroes, "
                              f"full-tie, deck)", code="bad-option")
        edition = raw.get("edition", EDITIONS[0])
        if edition not in EDITIONS:
            raise OptionError(f"unknown edition {edition!r} (editions: {', '.join(EDITIONS)})")
        full_tie = raw.get("full-tie", FULL_TIE[0])
        if full_tie not in FULL_TIE:
            raise OptionError(f"unknown full-tie rule {full_tie!r} (choices: {', '.join(FULL_TIE)})")
        if "heroes" in raw:
            heroes = tuple(h.strip().lower() for h in raw["heroes"].split(",") if h.strip())
            if len(heroes) != len(players) or len(set(heroes)) != len(heroes) \
                    or not set(heroes) <= set(HERO_ORDER):
                raise OptionError(f"heroes must name {len(players)} different heroes from "
                                  f"{', '.join(HERO_ORDER)}, one per player in order")
        else:
            heroes = HERO_ORDER[:len(players)]
        cards = load_deck_file(raw["deck"]) if "deck" in raw else builtin_cards()
        return {"edition": edition, "heroes": heroes, "full-tie": full_tie,
                "cards": cards.to_option()}

    def cards(self, options) -> Cards:
        key = options["cards"]
        cards = self._cards_cache.get(key)
        if cards is None:
            cards = self._cards_cache[key] = Cards.from_option(key)
        return cards

    def initial(self, options, players) -> DuelState:
        options = dict(options)
        cards = self.cards(options)
        n = len(players)
        return DuelState(players=tuple(players), edition=options["edition"],
                         heroes=tuple(options["heroes"]),
                         hands=tuple((R2, 1, 2, 3, 4, 5, 6, 7, 8) for _ in range(n)),
                         stock=(), villain=None, captured=((),) * n,
                         full_tie=options["full-tie"], cards=cards)

    def start(self, state: DuelState, rng) -> tuple:
        order = rng.shuffled(range(len(state.cards.deck)))
        stock = tuple(rng.secret(i) for i in order)
        return (StockShuffled(stock), VillainTurnedUp(reveal(stock[0])))

    # ------------------------------------------------------------------ whose turn
    def to_act(self, s: DuelState) -> tuple:
        if s.phase == BID:
            if s.cards.deck[s.villain].vader:
                return tuple([i for i, h in enumerate(s.hands) if h and h[-1] != R2])
            return tuple([i for i, h in enumerate(s.hands) if h])
        if s.phase == R2_DECISION:
            return (s.r2_seat,)
        return ()

    def simultaneous(self, s: DuelState) -> bool:
        return s.phase == BID

    def legal(self, s: DuelState, seat: int):
        if s.phase == BID:
            hand = s.hands[seat]
            vader = s.cards.deck[s.villain].vader
            key = (hand, vader)  # a bid depends only on the hand and on whether Vader is up
            bids = self._legal_bids.get(key)
            if bids is None:
                bids = self._legal_bids[key] = tuple(
                    ("play", c) for c in hand if not (vader and c == R2))
            return bids
        if s.phase == R2_DECISION and seat == s.r2_seat:
            return (KEEP,) + tuple(("give", o) for o in range(len(s.players)) if o != seat)
        return ()

    def validate(self, s: DuelState, seat: int, command) -> None:
        if s.phase == BID and command[0] == "play":
            card = command[1]
            if card in s.hands[seat] and (card != R2 or not s.cards.deck[s.villain].vader):
                return  # the common case: holding a card it may bid makes the seat a bidder
        ref = _REF[s.edition]
        if s.phase == OVER:
            raise IllegalCommand("the game is over", code="game-over", rule=ref["end"])
        if seat not in self.to_act(s):
            raise IllegalCommand(f"{s.players[seat]} does not act now", code="not-your-turn")
        kind = command[0]
        if s.phase == BID:
            if kind != "play":
                raise IllegalCommand(f"'{kind}' is only for a player whose R2-D2 turned up a card; "
                                     f"now every player bids with 'play'", code="wrong-phase",
                                     rule=ref["r2"])
            card = command[1]
            if card not in s.hands[seat]:
                what = "R2-D2" if card == R2 else f"force {card}"
                raise IllegalCommand(f"{s.players[seat]} has no {what} card in hand "
                                     f"(hand: {_hand_text(s, seat)})", code="not-in-hand",
                                     rule=ref["bid"])
            if card == R2 and s.cards.deck[s.villain].vader:
                raise IllegalCommand("R2-D2 may not be played when Darth Vader is up",
                                     code="r2-on-vader", rule=ref["vader"])
            return
        if kind == "play":
            raise IllegalCommand(f"{s.players[s.r2_seat]} must first keep or give the card R2-D2 "
                                 f"turned up", code="wrong-phase", rule=ref["r2"])
        if kind == "give" and command[1] == seat:
            raise IllegalCommand("to keep the card say 'keep'; 'give' names another player",
                                 code="give-self", rule=ref["r2"])

    # ------------------------------------------------------------------ notation
    def notation(self, s: DuelState, seat: int, command) -> str:
        kind = command[0]
        if kind == "play":
            return "play r2" if command[1] == R2 else f"play {s.heroes[seat]} {command[1]}"
        if kind == "give":
            return f"give {s.players[command[1]]}"
        return "keep"

    def parse(self, s: DuelState, seat: int, text: str):
        # A bid's meaning depends only on the text and the bidder's hero: remember it (the
        # referee parses every revealed bid of a long log).
        key = (s.heroes[seat], text)
        command = self._bids.get(key)
        if command is None:
            command = self._parse(s, seat, text)
            if command[0] == "play" and len(self._bids) < 4096:
                self._bids[key] = command
        return command

    def _parse(self, s: DuelState, seat: int, text: str):
        words = text.strip().split()
        if not words:
            raise InvalidCommand("empty command (try: play HERO FORCE, play r2, keep, give PLAYER)",
                                 code="syntax")
        verb, args = words[0].lower(), words[1:]
        if verb == "play":
            return self._parse_play(s, seat, text, args)
        if verb == "keep" and not args:
            return KEEP
        if verb == "give" and len(args) == 1:
            return ("give", resolve_player(s.players, args[0], text))
        raise InvalidCommand(f"cannot read {text.strip()!r} (commands: play HERO FORCE, play r2, "
                             f"keep, give PLAYER)", code="syntax")

    def _parse_play(self, s, seat, text, args) -> tuple:
        joined = "".join(args).lower()
        if joined in ("r2", "r2d2", "r2-d2"):
            return ("play", R2)
        m = re.fullmatch(r"([a-z]*)-?(\d+)", joined)
        if not m:
            raise InvalidCommand(f"cannot read {text.strip()!r}: say 'play {s.heroes[seat]} 5' or "
                                 f"'play r2'", code="syntax")
        hero, force = m.group(1), int(m.group(2))
        if hero and not s.heroes[seat].startswith(hero):
            names = [h for h in HERO_ORDER if h.startswith(hero)]
            if not names:
                raise InvalidCommand(f"no hero {hero!r} (heroes: {', '.join(HERO_ORDER)})",
                                     code="syntax")
            raise IllegalCommand(f"{s.players[seat]} plays {s.heroes[seat]}, not {names[0]}",
                                 code="not-your-hero", rule=_REF[s.edition]["bid"])
        if not 1 <= force <= 8:
            raise InvalidCommand(f"force must be 1 to 8, got {force}", code="syntax")
        return ("play", force)

    # ------------------------------------------------------------------ decide
    def decide(self, s: DuelState, moves, rng) -> tuple:
        return self.decide_evolve(s, moves, rng)[0]

    def decide_evolve(self, s: DuelState, moves, rng) -> tuple:
        """``(events, state after them)``: decide folds as it goes, so the fast path reuses it."""
        out: list = []
        if s.phase == BID:
            cards = [NOT_BIDDING] * len(s.players)
            for seat, (_, card) in moves:
                cards[seat] = card
            s = _emit(s, out, BidsRevealed(tuple(cards)))
            r2s = [i for i, c in enumerate(cards) if c == R2]
            sole_r2 = r2s[0] if len(r2s) == 1 else -1
            if sole_r2 >= 0 and s.edition != "ravensburger-2015" and s.stock:
                s = _emit(s, out, R2TurnedUp(sole_r2, reveal(s.stock[0])))
                return tuple(out), s
            s = self._resolve(s, out, s.bids)
            if sole_r2 >= 0 and s.stock:
                s = _emit(s, out, R2TurnedUp(sole_r2, reveal(s.stock[0])))
                return tuple(out), s
        else:
            (seat, command), = moves
            deferred = s.deferred
            vader = s.cards.deck[s.r2_card].vader
            if command[0] == "keep":
                s = _emit(s, out, R2Resolved(seat, seat, vader))
            else:
                s = _emit(s, out, R2Resolved(seat, command[1], not vader))
            if deferred:
                s = self._resolve(s, out, deferred)
        s = self._next_round(s, out)
        return tuple(out), s

    def _resolve(self, s: DuelState, out: list, cards: tuple) -> DuelState:
        """The duel for the villain up: highest force, then most icons, wins."""
        competitors = [i for i, c in enumerate(cards) if c > 0]
        if not competitors or s.villain is None:
            return s  # everyone sat out: the villain stays up for another round
        icons = s.cards.icon_map
        keys = {i: (cards[i], icons[s.heroes[i]][cards[i] - 1]) for i in competitors}
        best = max(keys.values())
        winners = [i for i in competitors if keys[i] == best]
        if len(winners) > 1:  # full tie: a house rule (no edition covers it)
            if s.full_tie == "set-aside":
                s = _emit(s, out, VillainSetAside(s.villain))
            return s
        winner = winners[0]
        vader = s.cards.deck[s.villain].vader
        s = _emit(s, out, Captured(winner, s.villain))
        if vader:
            for i in competitors:
                if i != winner:
                    s = _emit(s, out, CardDiscarded(i, cards[i]))
        else:
            s = _emit(s, out, CardDiscarded(winner, cards[winner]))
        return s

    def _next_round(self, s: DuelState, out: list) -> DuelState:
        """End checks, then turn up the next villain (unless one is still up)."""
        holders = [i for i, h in enumerate(s.hands) if h]
        if s.edition == "parlett-english":
            empty = [i for i, h in enumerate(s.hands) if not h]
            if empty:
                return _emit(s, out, GameEnded(f"{s.players[empty[0]]} has run out of rebel cards"))
        elif len(holders) == 1:
            seat = holders[0]
            take = tuple(reveal(c) for c in s.stock[:len(s.hands[seat])])
            s = _emit(s, out, FinalTake(seat, take))
            return _emit(s, out, GameEnded(f"only {s.players[seat]} has cards left and takes "
                                           f"{len(take)} from the stock"))
        if not holders:
            return _emit(s, out, GameEnded("no player has cards left"))
        if all(s.hands[i] == (R2,) for i in holders):
            return _emit(s, out, GameEnded("only R2-D2 cards are left in hand"))
        if s.villain is not None:
            return s  # nobody took it: bid again for the same villain
        if not s.stock:
            return _emit(s, out, GameEnded("the stock is used up"))
        return _emit(s, out, VillainTurnedUp(reveal(s.stock[0])))

    # ------------------------------------------------------------------ the rest of the Decider
    def evolve(self, s: DuelState, event) -> DuelState:
        return evolve(s, event)

    def outcome(self, s: DuelState) -> Outcome | None:
        if s.phase != OVER:
            return None
        return _scoring.outcome(s.captured, s.cards.deck, s.edition, s.end_reason)

    def view(self, s: DuelState, seat: int) -> DuelState:
        return s.replace(stock=tuple(c.sealed() for c in s.stock))


def _emit(s: DuelState, out: list, event) -> DuelState:
    out.append(event)
    return evolve(s, event)


def _hand_text(s: DuelState, seat: int) -> str:
    return " ".join("r2" if c == R2 else str(c) for c in s.hands[seat]) or "empty"


__all__ = ["DuelRules", "EVENTS", "EDITIONS", "FULL_TIE", "play", "give", "KEEP"]
