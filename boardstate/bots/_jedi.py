"""Jedi Duel: random rollouts say little (most commands are discards), so they stop after
``depth`` commands (a turn or two), where a position is worth the fatigue left.

The strong level's rollouts are informed (``InformedJedi``): most of the time they take the
command with the best immediate fatigue swing, read with the game's own arithmetic (the
attack's damage against the defender's stance, the fatigue a Joker, Force Lightning, a heal
or a discard moves, the damage a defence saves), and the lowest stance card (the fastest
defence); at random the rest of the time, so a rollout still explores.
"""

from __future__ import annotations

from ._policies import Policy, shares


class JediPolicy(Policy):
    """Uniform random rollouts of ``depth`` commands; a position is worth the fatigue left."""

    depth = 15

    def evaluate(self, state, seats: int) -> tuple[float, ...]:
        return shares([f / 21 for f in state.fatigue], 6.0)


class InformedJedi(JediPolicy):
    """Rollouts greedy on the immediate fatigue swing, uniform ``explore`` of the time."""

    explore = 0.25

    def __init__(self) -> None:
        # (the game's arithmetic, read once the strong level plays Jedi Duel)
        from boardstate.modules.jedi_duel import _cards, _combat, _state

        self.rules = _combat
        self.rank = _cards.RANK
        self.phases = (_state.ACTION, _state.DEFEND, (_state.STANCE, _state.SETUP), _state.BLOW)

    def pick(self, state, seat: int, commands, rng):
        if len(commands) == 1 or rng.random() < self.explore:
            return commands[rng.randrange(len(commands))]
        action, defend, stance, _ = self.phases
        phase = state.phase
        if phase == action:  # the most fatigue swung (ties broken at random)
            return max(commands, key=lambda c: self.gain(state, seat, c) + 0.1 * rng.random())
        if phase == defend:
            cost = self.loss
        elif phase in stance:
            cost = self.slowness
        else:
            return commands[rng.randrange(len(commands))]
        return min(commands, key=lambda c: cost(state, seat, c) + 0.1 * rng.random())

    def gain(self, s, seat: int, command) -> float:
        """The fatigue an action swings to ``seat`` (a card kept back is worth half a point)."""
        rules, fatigue = self.rules, s.fatigue
        verb = command[0]
        if verb == "attack":
            target, card, area = command[1], command[2], command[3]
            if area < 0:  # a Joker: the target to the bottom of its column
                return fatigue[target] - rules.column_bottom(fatigue[target])
            return rules.blow_damage(s, target, area, rules.attack_speed(s, seat, card, area))
        if verb == "discard":
            rested = rules.rested_fatigue(fatigue[seat], rules.discard_gain(s, command[1]))
            return rested - fatigue[seat] - 0.5
        if verb == "heal":
            return rules.column_top(fatigue[seat]) - fatigue[seat] - 0.5
        if verb == "lightning":
            return sum(
                f - rules.column_bottom(f) for t, f in enumerate(fatigue) if t != seat and f > 0
            )
        return 0.5  # Force Push/Pull, Force Sense

    def slowness(self, s, seat: int, command) -> float:
        """A stance's card: the lower, the faster its defence (``keep`` alone has none)."""
        return self.rank[command[1]] if len(command) > 1 else 99.0

    def loss(self, s, seat: int, command) -> float:
        """The fatigue a defence leaves ``seat`` to lose (a card spent costs a little)."""
        rules = self.rules
        kind, _card, area, speed, _stance = s.attack
        verb = command[0]
        if kind == self.phases[3]:  # a blow: its damage, against the stance or a Club
            if verb == "take":
                return rules.blow_damage(s, seat, area, speed)
            if verb == "defend":
                return rules.blow_damage(s, seat, area, speed, command[1]) + 0.7
            return 2.0  # a Force Defence spends a royal
        if verb == "take":  # a Joker or Force Lightning: to the bottom of the column
            return s.fatigue[seat] - rules.column_bottom(s.fatigue[seat])
        return 2.0
