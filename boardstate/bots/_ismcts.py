"""Information-set Monte Carlo tree search: single observer, with determinization (Cowling,
Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012).

One tree of the observer's information sets.  Every iteration draws a determinization of the
observer's view (``boardstate.rules.determinize``: never the true state), walks the tree with
the moves legal in it (UCB weighed by how often a move was available), adds one node, plays a
rollout (to the end, or to the policy's cut-off and its evaluation) and backs the result up.

The engine's choices shape the tree: another seat's face-down command is one edge (``HIDDEN``:
the observer sees only that a card lies face down; the command itself is the policy's guess in
the determinization); a command turned over is no choice; a sealed round is one node where each
seat chooses by its own statistics, blind to the others' (decoupled UCT), and its child is the
joint choice.  All runs on the fast path (``Sim``): decide and evolve on states, no log.
"""

from __future__ import annotations

import math
import random
import time

from .._determinize import determinize
from .._module import HIDDEN, Choice
from ._sim import Sim, laid, playout, rewards


class Node:
    """An information set of the observer, reached by ``seat``'s move (-1: the root, or a
    sealed round's joint choice); ``w``, the reward ``seat`` collected through it; ``avail``,
    the iterations in which its move was legal.  A sealed round's node keeps each seat's
    statistics per command in ``joint`` (seat -> {command: Node})."""

    __slots__ = ("children", "n", "w", "avail", "seat", "joint")

    def __init__(self, seat: int) -> None:
        self.children: dict = {}
        self.n = 0
        self.w = 0.0
        self.avail = 0
        self.seat = seat
        self.joint: dict | None = None


class Search:
    """One search tree over ``seats`` seats, grown from one seat's view by ``run``."""

    def __init__(self, module, policy, seats: int, *, seed: int = 0, exploration=0.7) -> None:
        self.module = module
        self.policy = policy
        self.seats = seats
        self.sim = Sim(module, seed.to_bytes(8, "big", signed=True))
        self.rng = random.Random(seed)
        self.c = exploration
        self.root = Node(-1)
        self.iterations = 0

    def run(self, view, seat: int, own_face_down=None, *, iterations=None, seconds=None):
        """Grow the tree from ``view`` (``seat``'s view; ``own_face_down``: the command
        ``seat`` has laid face down, if any) for ``iterations``, or until ``seconds`` of CPU
        have passed (both given: whichever comes first).  Returns ``self``."""
        if iterations is None and seconds is None:
            raise ValueError("a search needs iterations or seconds")
        clock = time.process_time
        stop = None if seconds is None else clock() + seconds
        done = 0
        while iterations is None or done < iterations:
            self._iterate(view, seat, own_face_down)
            done += 1
            if stop is not None and clock() >= stop:
                break
        self.iterations += done
        return self

    def stats(self, seat: int) -> list[tuple[object, int, float]]:
        """``seat``'s moves at the root: (command, visits, mean reward), most visited first."""
        root = self.root
        children = root.joint.get(seat, {}) if root.joint is not None else root.children
        out = [(k, c.n, c.w / c.n) for k, c in children.items() if c.n and c.seat == seat]
        out.sort(key=lambda x: (-x[1], -x[2]))
        return out

    def best(self, seat: int):
        """The most visited of ``seat``'s root moves (None before any)."""
        stats = self.stats(seat)
        return stats[0][0] if stats else None

    # ------------------------------------------------------------------ one iteration
    def _iterate(self, view, observer: int, own_face_down) -> None:
        sim, rng = self.sim, self.rng
        made = determinize(self.module, view, observer, rng)
        state, face_down = made.state, dict(made.face_down)
        if own_face_down is not None:
            face_down[observer] = own_face_down
        path = []  # (node reached, the statistics each mover's move updates)
        node = self.root
        result = None
        while (result := sim.outcome(state)) is None:
            how = sim.choice(state)
            acting = sim.to_act(state)
            if how == Choice.TURN_OVER:
                seat = acting[0]
                command = laid(sim, state, seat, face_down, self.policy.pick, rng)
                state = sim.step(state, ((seat, command),))
                continue
            if how == Choice.SEALED and len(acting) > 1:
                node, moves, stats, new = self._sealed(node, state, acting)
            else:
                seat = acting[0]
                node, moves, new = self._open(node, state, seat, how, observer, face_down)
                stats = (node,)
            path.append((node, stats))
            state = sim.step(state, moves)
            if new:
                break
        policy = self.policy
        if result is None:
            state, result = playout(sim, state, face_down, policy.pick, rng, policy.depth)
        seats = self.seats
        reward = rewards(result, seats) if result is not None else policy.evaluate(state, seats)
        self.root.n += 1
        for node, stats in path:
            node.n += 1
            for stat in stats:
                if stat is not node:
                    stat.n += 1
                stat.w += reward[stat.seat]

    def _open(self, node: Node, state, seat: int, how, observer: int, face_down: dict):
        """One seat chooses: ``(child, moves, whether the child is new)``."""
        commands = self.sim.legal(state, seat)
        if how == Choice.FACE_DOWN and seat != observer:  # unseen: one edge
            face_down[seat] = self.policy.pick(state, seat, commands, self.rng)
            child, new = self._child(node, HIDDEN, seat)
            child.avail += not new
            return child, ((seat, HIDDEN),), new
        options = self.policy.candidates(state, seat, commands)
        command = self._select(node.children, options, seat)
        child, new = self._child(node, command, seat)
        if how == Choice.FACE_DOWN:
            face_down[seat] = command
            return child, ((seat, HIDDEN),), new
        return child, ((seat, command),), new

    def _sealed(self, node: Node, state, acting):
        """Every acting seat chooses blind to the others, each by its own statistics at this
        node; the child is the joint choice."""
        if node.joint is None:
            node.joint = {}
        moves, stats = [], []
        for seat in acting:
            options = self.policy.candidates(state, seat, self.sim.legal(state, seat))
            mine = node.joint.setdefault(seat, {})
            command = self._select(mine, options, seat)
            stat = mine.get(command)
            if stat is None:
                stat = mine[command] = Node(seat)
                stat.avail = 1
            moves.append((seat, command))
            stats.append(stat)
        moves = tuple(moves)
        child, new = self._child(node, moves, -1)
        return child, moves, stats, new

    def _child(self, node: Node, key, seat: int):
        child = node.children.get(key)
        if child is not None:
            return child, False
        child = node.children[key] = Node(seat)
        child.avail = 1
        return child, True

    def _select(self, children: dict, options, seat: int):
        """A move not tried yet (at random), else the best by UCB with availability; every
        option's availability counts this iteration."""
        untried = []
        best, best_value = None, -1.0
        c = self.c
        for command in options:
            child = children.get(command)
            if child is None:
                untried.append(command)
                continue
            child.avail += 1
            if untried:
                continue
            value = child.w / child.n + c * math.sqrt(math.log(child.avail) / child.n)
            if value > best_value:
                best, best_value = command, value
        if untried:
            return untried[self.rng.randrange(len(untried))]
        return best
