"""The table as a seat sees it: as text (``render``) and as data (``to_json``); as an SVG
picture, ``_svg``, which says the same words (a text ``show`` imports no SVG code).

The state given is already the seat's view (``_rules.view``): other hands and every draw pile
are sealed.  Still, nothing here reads a card it should not: a hand's cards are named only for
the seat that holds them, and only when their values are known; anyone else sees a count.
Squares are named as in the notation (``a1`` bottom left).
"""

from __future__ import annotations

from boardstate.geometry import Piece, free_marks, render_text

from ._notation import card_label, char_label
from ._space import square_name
from ._state import DEFEND, DIE_NAMES, LAY, NO_CARD, NOWHERE, OVER, PHASE_NAMES, EpicState

TOP_DISCARDS = 5  # discard pile cards named, top first
_REQUESTS = {
    "owner": "discard {n} card{s} of their choice",
    "trim": "discard {n} card{s} (down to 10)",
    "keep": "keep {n} card{s} and discard the rest",
    "pick": "pick {n} of the cards shown",
    "look": "take one of the cards looked at, by its number (the others go back)",
    "random": "show the hand (cards discarded at random)",
    "all": "show the hand (all discarded)",
    "match": "show the hand and discard every matching card",
    "show": "show the hand",
}


# ---------------------------------------------------------------------------------- pieces
def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _wounds(s: EpicState, char: int) -> str:
    """``16/18`` (wound points left of the full), or ``destroyed``."""
    hp = s.roster.chars[char].hp
    if not s.alive(char):
        return "destroyed"
    return f"{hp - s.damage[char]}/{hp}"


def _held(s: EpicState, char: int) -> str:
    n = s.held[char] if s.held else 0
    return f"held ({_plural(n, 'card')} to free)" if n > 0 else ""


def _status(s: EpicState, char: int) -> str:
    return ", ".join(x for x in (_wounds(s, char), _held(s, char)) if x)


def _cell(s: EpicState, square: int):
    return s.roster.board.cells[square]


def _where(s: EpicState, char: int) -> str | None:
    square = s.square[char]
    return None if square == NOWHERE else square_name(s.roster.board, square)


def _name(s: EpicState, seat: int) -> str:
    return s.players[seat] if 0 <= seat < len(s.players) else "?"


def _label(s: EpicState, seat: int, card) -> str:
    """A card's label, when ``card`` is a card index of ``seat``'s deck; else 'a card'."""
    if isinstance(card, int) and 0 <= card < len(s.roster.cards):
        return card_label(s, seat, card)
    return "a card"


def _own_hand(s: EpicState, seat, owner: int) -> list[str] | None:
    """The labels of ``owner``'s hand when ``seat`` holds it (None: not the seat's to know)."""
    if seat is None or seat != owner:
        return None
    return [_label(s, owner, c.value) if c.known else "a card" for c in s.hands[owner]]


def _discards(s: EpicState, group: int) -> list[str]:
    """A discard pile's labels, bottom first (the pile is face up)."""
    owner = s.roster.group_seat[group]
    return [_label(s, owner, c) for c in s.discards[group]] if s.discards else []


def side_name(s: EpicState, seat: int) -> str:
    """``light side`` / ``dark side`` in the duel, ``team 1`` / ``team 2`` in team games, ''
    in a free-for-all (everyone for themselves)."""
    rs = s.roster
    if rs.variant == "duel":
        from ._characters import cast

        return f"{cast().by_id(rs.teams[rs.groups_of(seat)[0]]).side} side"
    if len(set(rs.side_of)) < len(rs.side_of):
        return f"team {rs.side_of[seat] + 1}"
    return ""


def _backs(s: EpicState, seat: int) -> str:
    """Master Play: the backs of a hand, which everyone sees (``3 dooku, 2 maul``)."""
    rs = s.roster
    if len(rs.groups_of(seat)) < 2:
        return ""
    counts = [(rs.teams[g], s.backs[seat].count(g)) for g in rs.groups_of(seat)]
    return " (backs: " + ", ".join(f"{n} {team}" for team, n in counts) + ")"


def _seen(s: EpicState, seat) -> tuple[str, list[str]] | None:
    """(what it is, the card labels) of the cards shown to ``seat``, if any."""
    if seat is None or not s.seen or seat >= len(s.seen) or not s.seen[seat]:
        return None
    whose, cards = s.seen[seat][:2]
    owner = seat if whose < 0 else whose
    labels = [_label(s, owner, c.value) if c.known else "a card" for c in cards]
    if whose < 0:  # (numbered: one is taken by its number, 'take 2')
        return "cards of your draw pile", [f"{i + 1} {x}" for i, x in enumerate(labels)]
    if whose == seat:
        return "your hand", labels
    return f"{_name(s, whose)}'s hand", labels


def _acting(s: EpicState) -> str:
    """``to act: ben (defend)``, or '' when nobody is asked."""
    if s.phase == OVER or not s.queue:
        return ""
    then = "".join(f", then {_name(s, q)}" for q in s.queue[1:])
    return f"to act: {_name(s, s.queue[0])} ({PHASE_NAMES[s.phase]}){then}"


def _turn(s: EpicState) -> str:
    """``turn 12: ann's turn (die 3-ALL, 1 action left)``, or ``set-up``."""
    if s.turns <= 0 or s.turn < 0:
        return "set-up"
    text = f"turn {s.turns}: {_name(s, s.turn)}'s turn"
    if s.die >= 0:
        text += f" (die {DIE_NAMES[s.die]}, {_plural(s.actions, 'action')} left)"
    return text


def _combat(s: EpicState) -> dict | None:
    if not s.combat:
        return None
    attacker, defender, defence, attack = s.combat[:4]
    seat_of = s.roster.seat_of
    if attack != NO_CARD:
        attack_text = _label(s, seat_of[attacker], attack)
    else:
        attack_text = "not laid yet" if s.phase == LAY else "face down"
    if defence != NO_CARD:
        defence_text = _label(s, seat_of[defender], defence)
    else:
        defence_text = "not chosen yet" if s.phase in (LAY, DEFEND) else "none"
    return {
        "attacker": char_label(s, attacker),
        "defender": char_label(s, defender),
        "attack": attack_text,
        "defence": defence_text,
    }


def _resolving(s: EpicState) -> dict | None:
    if not s.stack:
        return None
    frame = s.stack[0]
    seat, card, me, step = frame[0], frame[1], frame[2], frame[3]
    effects = s.roster.cards[card].effects
    return {
        "card": _label(s, seat, card),
        "player": _name(s, seat),
        "character": char_label(s, me) if me >= 0 else None,
        "step": min(step + 1, len(effects)),
        "steps": len(effects),
        "waiting": len(s.stack) - 1,
    }


def _request(s: EpicState) -> str:
    if not s.request:
        return ""
    kind, asked, asker, amount = s.request[:4]
    what = _REQUESTS.get(kind, kind).format(n=amount, s="" if amount == 1 else "s")
    by = f", for {_name(s, asker)}'s card" if asker != asked else ""
    return f"{_name(s, asked)} is asked to {what}{by}"


def _winners(s: EpicState) -> str:
    names = [_name(s, w) for w in s.winners]
    if not names:
        return "no winner"
    return ("winner: " if len(names) == 1 else "winners: ") + " and ".join(names)


def _passes(n: int) -> str:
    return {0: "not gone through yet", 1: "gone through once", 2: "gone through twice"}.get(
        n, f"gone through {n} times"
    )


# ---------------------------------------------------------------------------------- text
def piece_marks(s: EpicState) -> tuple[str, ...]:
    """Per character, the mark of its piece on the text map and in the legend: 1-9, then a-z,
    by the character's number (fixed for the whole game: the roster numbers characters group by
    group), skipping the board's own map symbols.  A piece keeps its mark from one render to
    the next, destroyed or moved.  The named start squares are not drawn: the main characters
    stand on theirs from the first record, and past that the squares say nothing."""
    return tuple(free_marks(s.roster.board, named=False)[: len(s.roster.chars)])


def render(s: EpicState, seat) -> str:
    rs = s.roster
    board = rs.board
    title = f"{board.title}, {_turn(s)}"
    if s.phase == OVER:
        title = f"{board.title}, turn {s.turns}: game over"
    elif _acting(s):
        title += f"; {_acting(s)}"
    marks = piece_marks(s)
    standing = [i for i in range(len(rs.chars)) if s.square[i] != NOWHERE]
    pieces = {
        _cell(s, s.square[i]): Piece(rs.chars[i].id, _name(s, rs.chars[i].seat), _status(s, i))
        for i in standing
    }
    at = {_cell(s, s.square[i]): marks[i] for i in standing}
    drawing = render_text(board, pieces, labels="chess", marks=at, named=False)
    drawn = drawing.rstrip("\n").split("\n")[1:]  # (without the board's title)
    cut = len(drawn) - len(standing)  # the map and the terrain, then a line per piece
    legend = dict(zip(standing, drawn[cut:]))  # (in the order of ``at``)
    for i, c in enumerate(rs.chars):
        if i not in legend:
            off = "destroyed" if not s.alive(i) else "not placed yet"
            legend[i] = f"  {marks[i]}  {c.id} ({_name(s, c.seat)}): {off}"
    lines = [title, *drawn[:cut], *(legend[i] for i in range(len(rs.chars)))]
    lines.append("")
    for p in s.seats:
        mains = " and ".join(rs.chars[m].name for m in rs.mains_of(p))
        you = " (you)" if p == seat else ""
        side = side_name(s, p)
        out = ", out of the game" if s.out[p] else ""
        lines.append(f"{s.players[p]}{you}: {mains}" + (f", {side}" if side else "") + out)
        hand = s.hands[p]
        own = _own_hand(s, seat, p)
        lines.append(
            f"  hand: {_plural(len(hand), 'card')}"
            + (f": {', '.join(own)}" if own else _backs(s, p))
        )
        for g in rs.groups_of(p):
            whose = f" ({rs.teams[g]})" if len(rs.groups_of(p)) > 1 else ""
            lines.append(
                f"  draw pile{whose}: {_plural(len(s.piles[g]), 'card')} ({_passes(s.passes[g])})"
            )
            discards = _discards(s, g)
            text = f"  discard pile{whose}: {_plural(len(discards), 'card')}"
            if discards:
                top = list(reversed(discards))[:TOP_DISCARDS]
                more = len(discards) - len(top)
                text += f", top first: {', '.join(top)}" + (f" and {more} more" if more else "")
            lines.append(text)
        notes = []
        if s.lost and s.lost[p]:
            notes.append(f"loses {_plural(s.lost[p], 'action')}")
        if s.no_draw and s.no_draw[p]:
            notes.append("may not draw")
        if notes:
            lines.append(f"  next turn: {', '.join(notes)}")
        if p == s.turn and s.draw_barred and s.phase != OVER:
            lines.append("  may not draw this turn")
    seen = _seen(s, seat)
    if seen:
        verb = "You see" if seen[0].startswith("cards of") else "You were shown"
        lines.append(f"{verb} {seen[0]}: {', '.join(seen[1]) or 'no cards'}")
    combat = _combat(s)
    if combat:
        lines.append(
            f"Combat: {combat['attacker']} attacks {combat['defender']}; attack card: "
            f"{combat['attack']}; defence card: {combat['defence']}"
        )
    frame = _resolving(s)
    if frame:
        by = f", by {frame['character']}" if frame["character"] else ""
        text = f"Resolving: {frame['card']} ({frame['player']}{by})"
        if frame["steps"]:
            text += f", step {frame['step']} of {frame['steps']}"
        if frame["waiting"]:
            text += f"; {_plural(frame['waiting'], 'more card')} waiting"
        lines.append(text)
    if _request(s):
        lines.append(f"Asked: {_request(s)}")
    if s.phase == OVER:
        lines.append(f"Game over: {s.end_reason}; {_winners(s)}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------- data
def to_json(s: EpicState, seat) -> dict:
    rs = s.roster
    players = []
    for p in s.seats:
        own = _own_hand(s, seat, p)
        groups = rs.groups_of(p)
        players.append(
            {
                "name": s.players[p],
                "teams": [rs.teams[g] for g in groups],
                "side": side_name(s, p),
                "out": bool(s.out[p]),
                "hand": len(s.hands[p]),
                "backs": [rs.teams[g] for g in s.backs[p]],  # public: the deck of each card
                "cards": own,  # the hand's labels for its holder; None for anyone else
                "piles": [len(s.piles[g]) for g in groups],
                "passes": [s.passes[g] for g in groups],
                "discards": [_discards(s, g) for g in groups],  # bottom first, top last
                "loses_actions": s.lost[p] if s.lost else 0,
                "may_not_draw": bool(s.no_draw[p]) if s.no_draw else False,
            }
        )
    seen = _seen(s, seat)
    over = s.phase == OVER
    return {
        "board": rs.scene,
        "title": rs.board.title,
        "phase": PHASE_NAMES[s.phase],
        "to_act": [_name(s, q) for q in s.queue],
        "turn": s.turns,
        "turn_player": _name(s, s.turn) if s.turn >= 0 else None,
        "die": DIE_NAMES[s.die] if s.die >= 0 else None,
        "actions": s.actions,
        "characters": [
            {
                "id": c.id,
                "name": c.name,
                "player": _name(s, c.seat),
                "main": c.main,
                "square": _where(s, i),
                "hp": c.hp,
                "damage": s.damage[i],
                "destroyed": not s.alive(i),
                "held": s.held[i],
            }
            for i, c in enumerate(rs.chars)
        ],
        "players": players,
        "seen": {"what": seen[0], "cards": seen[1]} if seen else None,
        "combat": _combat(s),
        "resolving": _resolving(s),
        "request": _request(s) or None,
        "outcome": (
            {"reason": s.end_reason, "winners": [_name(s, w) for w in s.winners]} if over else None
        ),
    }
