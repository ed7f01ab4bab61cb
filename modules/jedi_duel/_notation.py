"""Command text a player can type in an email, and the canonical text of every command.

Public plays name their cards (``attack bob 4S``); choices that must stay secret name hand
positions (``swap 2 4``, ``return 6``), so the log never tells the table which card moved.
"""

from __future__ import annotations

from boardstate.rules import UNKNOWN, AmbiguousCommand, InvalidCommand, resolve_player

from . import _cards
from ._cards import AREA_NAMES, BLACK_JOKER, IS_CLUB, JOKER_WORD, RED_JOKER
from ._state import NO_CARD, JediState

HELP = """\
stance CARD [AREA]        your new stance, e.g. 'stance 9H'; a Club names its area: 'stance 5C low'
keep                      a hand of Jokers only keeps its stance (rules revision 2)
attack PLAYER CARD [AREA] e.g. 'attack bob 4S'; a Club names its area: 'attack bob 3C high';
                          a Joker: 'attack bob joker' (red 'RJ', black 'BJ')
heal JACK                 Force Heal, e.g. 'heal JH'
push QUEEN                Force Push/Pull (also 'pull'), e.g. 'push QS'
sense PLAYER KING         Force Sense: look at PLAYER's hand, e.g. 'sense bob KD'
show                      the sensed player shows their hand to the looker (rules revision 2)
swap MINE THEIRS          after Force Sense: give your card MINE (position or card), take their
                          card at position THEIRS, e.g. 'swap 2 4'
lightning C1 C2 C3 C4     Force Lightning with four royals, or 'lightning jokers'
discard CARD              discard for fatigue, e.g. 'discard 8D'
take                      an attacked player takes the blow
defend CLUB               an attacked player discards a Club as a temporary defence
force-defend ROYAL [fumble CARD]
                          Force Defence; 'fumble CARD' puts CARD from your hand in the attacker's
                          stance and takes theirs (when you are a column lower)
return N                  Low stance: put card N of your hand (or name it) back on the deck
                          (revision 2: face down; you remember it, your view does not show it)
Cards: A 2-10 J Q K with C D H S (or T for 10, or the suit symbols); areas: high, middle, low;
positions count from 1 as 'boardstate show' numbers your hand."""

_VERBS = {
    "stance": "stance",
    "attack": "attack",
    "heal": "heal",
    "push": "push",
    "pull": "push",
    "sense": "sense",
    "swap": "swap",
    "lightning": "lightning",
    "discard": "discard",
    "take": "take",
    "defend": "defend",
    "force-defend": "force-defend",
    "forcedefend": "force-defend",
    "fdefend": "force-defend",
    "return": "return",
    "keep": "keep",
    "show": "show",
}
_COMMANDS = (
    "stance, keep, attack, heal, push, sense, show, lightning, discard, take, defend, "
    "force-defend, swap, return"
)
_FILLER = {"with", "for", "to", "at", "in", "the", "on", "and"}


def notation(s: JediState, seat: int, command) -> str:
    verb = command[0]
    if verb == "stance":
        _, card, area = command
        return f"stance {_cards.name(card)}" + (f" {AREA_NAMES[area]}" if IS_CLUB[card] else "")
    if verb == "attack":
        _, target, card, area = command
        text = f"attack {s.players[target]} {_cards.name(card)}"
        return text + (f" {AREA_NAMES[area]}" if area >= 0 and IS_CLUB[card] else "")
    if verb in ("heal", "push", "discard", "defend"):
        return f"{verb} {_cards.name(command[1])}"
    if verb == "sense":
        return f"sense {s.players[command[1]]} {_cards.name(command[2])}"
    if verb == "lightning":
        return "lightning " + " ".join(_cards.name(c) for c in command[1])
    if verb == "force-defend":
        _, card, fumble = command
        return f"force-defend {_cards.name(card)}" + (
            f" fumble {_cards.name(fumble)}" if fumble != NO_CARD else ""
        )
    if verb == "swap":
        return f"swap {command[1] + 1} {command[2] + 1}"
    if verb == "return":
        return f"return {command[1] + 1}"
    return verb


def parse(s: JediState, seat: int, text: str):
    words = [w for w in text.strip().replace(",", " ").split() if w.lower() not in _FILLER]
    if (
        len(words) >= 2
        and words[0].lower() == "force"
        and words[1].lower() in ("defend", "defence")
    ):
        words = ["force-defend"] + words[2:]
    if not words:
        raise InvalidCommand(
            f"empty command (see 'boardstate rules jedi-duel' or the notation help: {_COMMANDS})",
            code="syntax",
        )
    verb = _VERBS.get(words[0].lower())
    if verb is None:
        raise InvalidCommand(
            f"unknown command {words[0]!r} in {text.strip()!r} (commands: {_COMMANDS})",
            code="syntax",
        )
    return _PARSERS[verb](s, seat, words[1:], text.strip())


def _bad(text: str, usage: str):
    return InvalidCommand(f"cannot read {text!r}: say '{usage}'", code="syntax")


def _card(s: JediState, seat: int, word: str, text: str) -> int:
    c = _cards.parse(word)
    if c is None:
        raise InvalidCommand(
            f"{word!r} in {text!r} is not a card (e.g. 7H, 10D, QC, joker)", code="bad-card"
        )
    if c == JOKER_WORD:
        held = [v for v in (x.value for x in s.hands[seat]) if v in (RED_JOKER, BLACK_JOKER)]
        return held[0] if held else RED_JOKER
    return c


def _area(word: str, text: str) -> int:
    a = _cards.area_word(word)
    if a is None:
        raise InvalidCommand(
            f"{word!r} in {text!r} is not an area (high, middle, low)", code="bad-area"
        )
    return a


def _sole_opponent(s: JediState, seat: int, text: str) -> int:
    others = [i for i in s.seats if i != seat and s.fatigue[i] > 0]
    if len(others) == 1:
        return others[0]
    raise AmbiguousCommand(
        f"{text!r}: name the player (one of {', '.join(s.players[i] for i in others)})",
        code="which-player",
    )


def _parse_stance(s, seat, args, text):
    if len(args) not in (1, 2):
        raise _bad(text, "stance CARD [high|middle|low]")
    card = _card(s, seat, args[0], text)
    if len(args) == 2:
        return ("stance", card, _area(args[1], text))
    if IS_CLUB[card]:
        raise AmbiguousCommand(
            f"{text!r}: a Club can go to any stance; say "
            f"'stance {_cards.name(card)} high|middle|low'",
            code="which-area",
        )
    return ("stance", card, _cards.AREA_OF[card])


def _parse_attack(s, seat, args, text):
    usage = "attack PLAYER CARD [high|middle|low]"
    if not args or len(args) > 3:
        raise _bad(text, usage)
    if _cards.parse(args[0]) is not None and (
        len(args) == 1 or _cards.area_word(args[1]) is not None
    ):
        target, rest = _sole_opponent(s, seat, text), args
    else:
        target, rest = resolve_player(s.players, args[0], text), args[1:]
    if not rest or len(rest) > 2:
        raise _bad(text, usage)
    card = _card(s, seat, rest[0], text)
    if card in (RED_JOKER, BLACK_JOKER):
        if len(rest) == 2:
            raise InvalidCommand(f"{text!r}: a Joker attacks no area", code="bad-area")
        return ("attack", target, card, -1)
    if len(rest) == 2:
        return ("attack", target, card, _area(rest[1], text))
    if IS_CLUB[card]:
        raise AmbiguousCommand(
            f"{text!r}: a Club attack names its area; say 'attack "
            f"{s.players[target]} {_cards.name(card)} high|middle|low'",
            code="which-area",
        )
    return ("attack", target, card, _cards.AREA_OF[card])


def _one_card(verb):
    def parse_it(s, seat, args, text):
        if len(args) != 1:
            raise _bad(text, f"{verb} CARD")
        return (verb, _card(s, seat, args[0], text))

    return parse_it


def _parse_sense(s, seat, args, text):
    if len(args) == 1:
        return ("sense", _sole_opponent(s, seat, text), _card(s, seat, args[0], text))
    if len(args) != 2:
        raise _bad(text, "sense PLAYER KING")
    return ("sense", resolve_player(s.players, args[0], text), _card(s, seat, args[1], text))


def _parse_lightning(s, seat, args, text):
    if len(args) == 1 and args[0].lower() in ("jokers", "joker", "both"):
        return ("lightning", (RED_JOKER, BLACK_JOKER))
    cards = [_card(s, seat, a, text) for a in args]
    if len(cards) == 2 and set(cards) <= {RED_JOKER, BLACK_JOKER}:
        return ("lightning", (RED_JOKER, BLACK_JOKER))
    if len(cards) != 4 or len(set(cards)) != 4:
        raise _bad(text, "lightning ROYAL ROYAL ROYAL ROYAL' or 'lightning jokers")
    return ("lightning", tuple(sorted(cards)))


def _bare(verb):
    """A command of one word: 'take', 'keep', 'show'."""

    def parse_it(s, seat, args, text):
        if args:
            raise _bad(text, verb)
        return (verb,)

    return parse_it


def _parse_force_defend(s, seat, args, text):
    usage = "force-defend ROYAL [fumble CARD]"
    if len(args) == 1:
        return ("force-defend", _card(s, seat, args[0], text), NO_CARD)
    if len(args) == 3 and args[1].lower() == "fumble":
        return ("force-defend", _card(s, seat, args[0], text), _card(s, seat, args[2], text))
    raise _bad(text, usage)


def _position(hand, word: str, text: str) -> int:
    """A hand position: a number counted from 1, or a card whose value this copy can see."""
    if word.isascii() and word.isdigit():
        if len(word) > 3 or not 1 <= int(word) <= len(hand):
            raise InvalidCommand(
                f"{word!r} in {text!r} is not a position in the hand (1-{len(hand)})",
                code="bad-position",
            )
        return int(word) - 1
    c = _cards.parse(word)
    if c is None:
        raise InvalidCommand(
            f"{word!r} in {text!r} is neither a position nor a card", code="bad-position"
        )
    for i, secret in enumerate(hand):
        if secret.value is not UNKNOWN and (
            secret.value == c or (c == JOKER_WORD and secret.value in (RED_JOKER, BLACK_JOKER))
        ):
            return i
    raise InvalidCommand(
        f"{word!r} in {text!r}: no such card there; give its position", code="bad-position"
    )


def _parse_swap(s, seat, args, text):
    if len(args) != 2:
        raise _bad(text, "swap MINE THEIRS")
    seen = s.peek[1] if s.peek else ()
    return ("swap", _position(s.hands[seat], args[0], text), _position(seen, args[1], text))


def _parse_return(s, seat, args, text):
    if len(args) != 1:
        raise _bad(text, "return N")
    return ("return", _position(s.hands[seat], args[0], text))


_PARSERS = {
    "stance": _parse_stance,
    "attack": _parse_attack,
    "heal": _one_card("heal"),
    "push": _one_card("push"),
    "discard": _one_card("discard"),
    "defend": _one_card("defend"),
    "sense": _parse_sense,
    "lightning": _parse_lightning,
    "take": _bare("take"),
    "keep": _bare("keep"),
    "show": _bare("show"),
    "force-defend": _parse_force_defend,
    "swap": _parse_swap,
    "return": _parse_return,
}
