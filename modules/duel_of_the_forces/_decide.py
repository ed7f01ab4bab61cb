"""``start`` and ``decide``: the events each command causes, step by step.  Randomness only from
``table.rng``.
"""

from __future__ import annotations

from ._legal import ANSWERS
from ._state import (
    BID,
    KEEP_CARD,
    LOOK,
    NOT_BIDDING,
    PARLETT_ENGLISH,
    R2,
    R2_DECISION,
    RAVENSBURGER,
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
    vader_up,
)


def start(table) -> None:
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


def decide(table, moves) -> None:
    phase = table.state.phase
    if phase == BID:
        bid_round(table, moves)
    elif phase == R2_DECISION:
        r2_decision(table, moves)
    else:
        answer(table, moves)


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
