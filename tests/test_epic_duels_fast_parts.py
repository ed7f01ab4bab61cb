"""Epic Duels' shared reads are what each part reads alone, differentially: a fast path may
skip work but never restate a rule.  Held at every position of random games (variants and
player counts varied, tests/test_is_legal.py's games): the movers' searches made together
(``reachable_bits_of``) against each one's own, the attacks of all the seat's characters
(``attacks_of``) against each one's and against attacks asked apart (its cards, ``can_attack``
for each enemy), plays and releases against one card or character at a
time, the hand read once (``hand_cards``, kept by the hand tuple) against the hand read anew,
and the fold of an ``Awaiting`` that asks again against the copy it used to make."""

from __future__ import annotations

from test_is_legal import GAMES

from boardstate.modules.epic_duels import MODULE, _evolve, _legal, _space
from boardstate.modules.epic_duels._combat import attack_cards
from boardstate.modules.epic_duels._space import can_attack
from boardstate.modules.epic_duels._state import ACT, DIE, MOVE, Awaiting, values_of
from boardstate.rules import SecretUnavailable
from boardstate.testing import random_game


def test_shared_reads_are_each_parts_own_reads():
    checked = {"positions": 0, "movers": 0, "attackers": 0, "attacks": 0}

    def check(game):
        if game.reveal_due():
            return
        s = game.state
        for seat in game.to_act():
            chars = s.roster.chars_of(seat)
            try:
                hand = _legal.hand_cards(s, seat)
            except SecretUnavailable:  # (a hand this copy cannot read: nothing to compare)
                continue
            assert hand == tuple(sorted(set(values_of(s.hands[seat], s, seat))))
            assert _legal.hand_values(s, seat) == values_of(s.hands[seat], s, seat)
            if s.phase == MOVE:
                movers = _legal.movers(s, seat)
                budget = DIE[s.die][0]
                assert _space.reachable_bits_of(s, movers, budget) == [
                    _space.reachable_bits(s, c, budget) for c in movers
                ]
                checked["movers"] += len(movers)
            assert _legal.attacks_of(s, chars, hand) == [
                command for a in chars for command in _legal.attacks_by(s, a, hand)
            ]
            assert _legal.attacks_of(s, chars, hand) == [
                command for a in chars for command in attacks_asked_apart(s, a, hand)
            ]
            assert _legal.plays(s, hand) == [
                command for k in hand for command in _legal.plays_of(s, k)
            ]
            assert _legal.releases(s, seat, chars) == [
                command for c in chars for command in _legal.releases_of(s, seat, c)
            ]
            checked["attackers"] += len(chars)
            checked["attacks"] += len(_legal.attacks_of(s, chars, hand))
            others = (Awaiting(s.phase + 1, s.queue), Awaiting(s.phase, (*s.queue, seat)))
            for asked in (Awaiting(s.phase, s.queue), *others):  # (again; another phase, queue)
                assert _evolve.evolve(s, asked) == s._replace(phase=asked.phase, queue=asked.seats)
            checked["positions"] += 1

    for seed, players, options in GAMES["epic-duels"]:
        random_game(MODULE, seed, players, options=options, check_each=check)
    assert checked["positions"] > 500 and checked["movers"] > 200 and checked["attacks"] > 100


def attacks_asked_apart(s, a: int, hand) -> list:
    """``a``'s attacks from answers that share nothing: its attack cards (``attack_cards``) in
    the hand, one that is not an action if none is left, and each enemy ``can_attack`` hits
    (held to the board's line of sight by tests/test_epic_duels_space.py)."""
    if s.square[a] == -1 or s.held[a]:
        return []
    cards = s.roster.cards
    if not any(k in hand and (s.actions > 0 or cards[k].free) for k in attack_cards(s, a)):
        return []
    return [("attack", a, d) for d in s.roster.enemies(a) if can_attack(s, a, d)]


def test_one_players_movers_read_their_enemies_squares_once(monkeypatch):
    """``reachable_bits_of`` reads the enemies' squares once for movers whose enemies are the
    same (a roster holds each character's enemies as a tuple of its own: equal, not one)."""
    found = []

    def keep(game):  # (a position of seat 0 with several characters on the board)
        s = game.state
        if not found and sum(s.square[c] != -1 for c in s.roster.chars_of(0)) > 1:
            found.append(s)

    random_game(MODULE, 0, 2, check_each=keep)
    s = found[0]
    chars = tuple(c for c in s.roster.chars_of(0) if s.square[c] != -1)
    assert len(chars) > 1 and len({s.roster.enemies(c) for c in chars}) == 1
    read = []
    squares = _space._squares
    monkeypatch.setattr(_space, "_squares", lambda *args: read.append(args) or squares(*args))
    together = _space.reachable_bits_of(s, chars, 4)
    assert len(read) == 1
    monkeypatch.undo()
    assert together == [_space.reachable_bits(s, c, 4) for c in chars]


def test_when_end_is_listed_is_said_once_for_the_list_and_the_referee(monkeypatch):
    """``end`` waits for a draw, heal, attack or play: ``may_end`` says when, and the list and
    ``is_legal`` both ask it (a rule changed there changes both; they once said it apart)."""
    checked = {"asked": 0}

    for answer in (True, False):

        def check(game, answer=answer):
            s = game.state
            if game.reveal_due() or s.phase not in (MOVE, ACT):
                return
            for seat in game.to_act():
                try:
                    listed = _legal.legal(s, seat)
                except SecretUnavailable:
                    continue
                assert (("end",) in listed) is answer is _legal.is_legal(s, seat, ("end",))
                checked["asked"] += 1

        monkeypatch.undo()
        monkeypatch.setattr(_legal, "may_end", lambda s, acting, answer=answer: answer)
        random_game(MODULE, 1, 2, check_each=check)
    assert checked["asked"] > 100


def test_a_kept_hand_answers_for_that_hand_only():
    """The hands read are kept by the tuple's id, with the tuple: a hand made after another was
    dropped (its id free to be given again) is read anew, never answered with the other's."""
    from types import SimpleNamespace

    from boardstate._secrets import secret_of

    ids = set()
    for n in range(2000):  # (more than the hands kept: the table starts again on the way)
        values = (n % 7, n % 5, n % 3)
        hand = tuple([secret_of(b"", 1, v) for v in values])
        s = SimpleNamespace(hands=(hand,), players=("a",))
        assert _legal.hand_values(s, 0) == values
        assert _legal.hand_cards(s, 0) == tuple(sorted(set(values)))
        ids.add(id(hand))
        del hand, s  # (its id free for the next hand, unless the table keeps the hand)
    assert len(ids) > 2
