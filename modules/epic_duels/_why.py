"""Why a command is refused: the rule it breaks, in words (``legal`` states when it applies)."""

from __future__ import annotations

from boardstate.rules import IllegalCommand

from . import _legal
from ._combat import attack_cards, defence_cards
from ._notation import card_label, char_label, notation
from ._space import adjacent, line_blocker, masks, reachable, square_name
from ._state import (
    ACT,
    DEFEND,
    DIE,
    DIE_NAMES,
    EFFECT,
    HAND_LIMIT,
    LAY,
    MOVE,
    NO_CARD,
    PHASE_NAMES,
    PLACE,
    RESPOND,
    TRIM,
    EpicState,
)

RULEBOOK = "Epic Duels rules (Hasbro 2002)"


def refuse(s: EpicState, seat: int, command) -> IllegalCommand:
    why, code = _reason(s, seat, command)
    return IllegalCommand(why, code=code, rule=RULEBOOK)


def _reason(s: EpicState, seat: int, command) -> tuple[str, str]:
    verb = command[0]
    phase = s.phase
    rs = s.roster
    names = rs.chars
    if phase == PLACE:
        if verb != "place":
            return "the game is being set up: place your minor characters first", "setup"
        _, char, sq = command
        if rs.seat_of[char] != seat or names[char].main:
            return f"{char_label(s, char)} is not one of your minor characters", "not-yours"
        if s.square[char] != -1:
            return f"{char_label(s, char)} is already on the board", "placed"
        return (
            f"{square_name(rs.board, sq)} is not a free square next to your main character",
            "not-adjacent",
        )
    if verb in ("move", "done") and phase == MOVE:
        return _move_reason(s, seat, command)
    if verb in _ACTION_VERBS and phase in (ACT, MOVE):
        return _action_reason(s, seat, command)
    if phase == LAY:
        return _card_reason(s, seat, command, attacking=True)
    if phase == DEFEND:
        return _card_reason(s, seat, command, attacking=False)
    if phase in (EFFECT, RESPOND, TRIM):
        options = _legal.legal(s, seat)
        shown = ", ".join(notation(s, seat, c) for c in options[:6])
        more = f" (and {len(options) - 6} more)" if len(options) > 6 else ""
        what = "discard down to 10 cards" if phase == TRIM else "the card being resolved asks"
        return f"{what}: {shown}{more}", "not-a-choice"
    return f"not now: the game waits for '{PHASE_NAMES[phase]}'", "wrong-phase"


_ACTION_VERBS = ("draw", "draw-two", "heal", "play", "attack", "release", "end")


def _move_reason(s: EpicState, seat: int, command) -> tuple[str, str]:
    if command[0] == "done":
        return "nothing to finish", "wrong-phase"
    _, char, sq = command
    rs = s.roster
    label = char_label(s, char)
    board = rs.board
    budget, every = DIE[s.die]
    if rs.seat_of[char] != seat:
        return f"{label} is not your character", "not-yours"
    if s.square[char] == -1:
        return f"{label} is not on the board", "destroyed"
    if s.held[char]:
        return f"{label} is held: discard {s.held[char]} cards to free it", "held"
    if char in s.moved:
        return f"{label} has already moved this turn", "moved"
    if s.moved and not every:
        return f"the roll was {DIE_NAMES[s.die]}: only one character moves", "one-mover"
    friends, enemies = masks(s, char)
    where = square_name(board, sq)
    if not board.walkable_mask >> sq & 1:
        terrain = board.terrain[sq].name
        return f"{where} is {terrain}: no character may enter it", "unenterable"
    if (friends | enemies) >> sq & 1:
        return f"{where} is taken: a move may not end on another character", "occupied"
    if sq == s.square[char]:
        return f"{label} already stands on {where}", "no-move"
    far = reachable(s, char, 30)
    if sq not in far:
        return f"{label} cannot reach {where}: no path past enemies and obstacles", "no-path"
    return (
        f"{where} is {far[sq]} squares from {label}; the roll ({DIE_NAMES[s.die]}) allows {budget}",
        "too-far",
    )


def _action_reason(s: EpicState, seat: int, command) -> tuple[str, str]:
    verb = command[0]
    rs = s.roster
    hand = {c.value for c in s.hands[seat]}
    if verb == "end":
        return "you must take your two actions first", "actions-left"
    if verb == "release":
        _, char, cards = command
        if not s.held[char] or rs.seat_of[char] != seat:
            return f"{char_label(s, char)} is not one of your held characters", "not-held"
        return f"freeing {char_label(s, char)} takes {s.held[char]} cards of your hand", "cards"
    free_card = verb == "play" and rs.cards[command[1]].free
    if s.actions <= 0 and not free_card:
        return "no action is left this turn ('end' ends it)", "no-actions"
    if verb == "draw-two" and s.revision < _legal.DRAW_TWO_REVISION:
        return (
            f"'draw 2' came with rules revision {_legal.DRAW_TWO_REVISION}; this game plays "
            f"revision {s.revision}: draw one at a time",
            "revision",
        )
    if verb in ("draw", "draw-two"):
        group = command[2] if verb == "draw" else command[1]
        if s.draw_barred:
            return "a card played against you forbids drawing this turn", "no-draw"
        if group not in rs.groups_of(seat):
            return f"the {rs.teams[group]} deck is not yours", "not-yours"
    if verb == "draw":
        if command[1] == NO_CARD:
            return f"your hand holds {HAND_LIMIT} cards: say 'draw discarding CARD'", "hand-full"
        return f"{card_label(s, seat, command[1])} is not in your hand", "not-in-hand"
    if verb == "draw-two":
        if s.actions < 2:
            return "'draw 2' takes both your actions: one is left ('draw' draws one)", "one-action"
        need = _legal.two_draws_discard(s, seat)
        discards = command[2]
        if len(discards) != need:
            say = {0: "'draw 2'", 1: "'draw 2 discarding CARD'"}.get(
                need, "'draw 2 discarding CARD, CARD'"
            )
            return (
                f"your hand holds {len(s.hands[seat])} cards: two draws discard {need} "
                f"first (say {say})",
                "discards",
            )
        if discards and len(s.piles[command[1]]) < 2:
            return (
                "with a full hand 'draw 2' needs two cards left in your draw pile: "
                "draw one at a time",
                "pile-short",
            )
        return "the cards to discard are not in your hand", "not-in-hand"
    if verb == "heal":
        _, k, char = command
        group = rs.card_group[k]
        members = rs.chars_of_group(group)
        if rs.group_seat[group] != seat or k not in hand:
            return f"{card_label(s, seat, k)} is not in your hand", "not-in-hand"
        if char == members[0] and any(s.alive(c) for c in members[1:]):
            return "healing needs every one of your minor characters destroyed", "minors-standing"
        if not s.damage[char] or not s.alive(char):
            return f"{char_label(s, char)} has no damage to heal", "unhurt"
        return (
            f"{card_label(s, seat, k)} cannot heal {char_label(s, char)}: a destroyed minor's "
            "card heals its main (in the team game, a destroyed main's card heals its minors)",
            "not-minor-card",
        )
    if verb == "play":
        _, k, me = command
        card = rs.cards[k]
        if k not in hand:
            return f"{card_label(s, seat, k)} is not in your hand", "not-in-hand"
        if card.kind != "special":
            return f"{card.name} is a combat card: attack or defend with it", "not-special"
        return f"{card.name} is played by {card.pictures}, who is not on the board", "no-player"
    _, attacker, defender = command  # attack
    a, d = char_label(s, attacker), char_label(s, defender)
    if rs.seat_of[attacker] != seat:
        return f"{a} is not your character", "not-yours"
    if rs.friends(attacker, defender):
        return f"{d} is on your side: attacks are on an enemy character", "friendly"
    if s.square[attacker] == -1 or s.square[defender] == -1:
        return f"{a if s.square[attacker] == -1 else d} is not on the board", "destroyed"
    if s.held[attacker]:
        return f"{a} is held and cannot attack", "held"
    if not adjacent(s, attacker, defender):
        if not rs.chars[attacker].ranged:
            return (
                f"{a} is not in attack position: not next to {d} (and has no blaster)",
                "no-position",
            )
        blocked = line_blocker(s, attacker, defender)
        if blocked:
            return f"{a} is not in attack position against {d}: {blocked}", "no-position"
    if not any(k in hand for k in attack_cards(s, attacker)):
        return f"you hold no card to attack with {a}", "no-card"
    return f"you hold no card to attack with {a} that is not an action", "no-actions"


def _card_reason(s: EpicState, seat: int, command, *, attacking: bool) -> tuple[str, str]:
    word = "lay" if attacking else "defend"
    if command[0] != word:
        return f"the game waits for '{PHASE_NAMES[s.phase]}'", "wrong-phase"
    k = command[1]
    char = s.combat[0] if attacking else s.combat[1]
    label = card_label(s, seat, k)
    if not attacking and s.held[char]:
        return f"{char_label(s, char)} is held and cannot defend", "held"
    fits = (attack_cards if attacking else defence_cards)(s, char)
    if k not in fits:
        value = "an attack" if attacking else "a defence"
        return f"{label} is not a card of {char_label(s, char)} with {value} value", "wrong-card"
    if k not in {c.value for c in s.hands[seat]}:
        return f"{label} is not in your hand", "not-in-hand"
    return f"{label} would be an action, and none is left", "no-actions"
