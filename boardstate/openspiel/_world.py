"""A game under way as OpenSpiel sees it, without OpenSpiel: a module's state and what the
engine would hold beside it (a sealed round's commitments, the choices lying face down), one
player action at a time.

OpenSpiel plays turn by turn, so a sealed round is taken one seat after another, in the order
of ``to_act``: each seat's choice is hidden from the others until every acting seat has chosen,
and then ``decide`` runs once on all of them, as the engine runs it.  A face-down choice is
decided on ``HIDDEN`` and turned over, with no action of its own, when the rules say
``TURN_OVER``.  An action is the index of a command in the seat's ``legal`` list, in the
module's own order.

The randomness of a decision comes from the bridge's own generator (``BridgeRng``) keyed with
the world's ``seed``, one stream per decision, so a world and its clone draw alike and a
resampled world (a fresh seed) draws anew.  Nothing is recorded: decide and evolve on states,
as in ``random_playout``.
"""

from __future__ import annotations

from typing import NamedTuple

from .._decider import Decider
from .._module import HIDDEN, Choice
from .._rng import FastRng
from .._secrets import Secret
from .._simulate import PlayoutTable

TERMINAL = -4  # OpenSpiel's PlayerId.TERMINAL
REVEALED = -1  # ``seen``: a sealed round turned over (the actor slot holds no seat)


class BridgeRng(FastRng):
    """The fast path's randomness, whose secrets skip the salt and the hash but each carry a
    commitment of its own (the stream and a count): the determinizer tells hidden values
    apart by their commitments."""

    __slots__ = ("_made",)

    def __init__(self, seed: bytes, stream: bytes) -> None:
        super().__init__(seed, stream)
        self._made = 0

    def secret(self, value, owners: int = 0) -> Secret:
        self._made += 1
        return Secret(b"%s/%d" % (self._stream, self._made), owners, value, b"")


class Seen:
    """One action or turn-over, and the ones before it: the game's history, last first, shared
    by clones.  ``said`` keeps what ``_seen.history`` wrote of the history up to here, by
    seat (asked again for a state, it is written once)."""

    __slots__ = ("earlier", "actor", "command", "how", "said")

    def __init__(self, earlier: Seen | None, actor: int, command, how: Choice) -> None:
        self.earlier = earlier
        self.actor = actor
        self.command = command
        self.how = how
        self.said: dict = {}

    def __deepcopy__(self, memo) -> Seen:
        return self


class World(NamedTuple):
    """One OpenSpiel state's content.  Immutable: a clone shares it (``__deepcopy__``)."""

    state: object  # the module's state, every value known
    seed: bytes  # the key of this world's randomness
    step: int  # decisions made so far: the randomness stream of the next
    seat: int  # the seat to act now (TERMINAL once over)
    commands: tuple  # its legal commands, in the module's order: action i is commands[i]
    how: Choice  # how it chooses: OPEN, SEALED (a round of two or more seats) or FACE_DOWN
    sealed: tuple  # ((seat, command), ...): the sealed round's choices made so far
    face_down: tuple  # ((seat, command, state where laid), ...): choices lying face down
    seen: Seen | None  # every action and turn-over, last first
    moves: int  # player actions so far
    outcome: object  # the module's Outcome once over (None: over by the length limit)
    said: dict  # what ``_seen`` wrote of this world, by what and for whom (written once)

    def __deepcopy__(self, memo) -> World:
        return self


class Bridge:
    """One module, players and options: how a world starts and goes on."""

    def __init__(
        self,
        module,
        players: int,
        raw_options: dict,
        revision: int,
        max_game_length: int,
        max_actions: int,
    ) -> None:
        decider = self.decider = Decider(module)
        spec = module.spec
        if not spec.min_players <= players <= spec.max_players:
            raise ValueError(
                f"{spec.id} takes {spec.min_players}-{spec.max_players} players, not {players}"
            )
        decider.check_revision(revision, "openspiel")
        self.module = module
        self.players = tuple(f"p{i}" for i in range(players))
        self.options = decider.options(raw_options, self.players)
        self.initial = decider.initial(self.options, self.players, revision)
        self.max_game_length = max_game_length
        self.max_actions = max_actions
        rules = module.rules
        self._decide_into = rules.decide
        self._start = rules.start
        self.evolve = decider.evolve
        self.legal = decider.legal
        self.to_act = decider.to_act
        self.outcome = decider.outcome
        self.choice = getattr(rules, "choice", None) or decider.choice
        self.view = rules.view
        self.notation = rules.notation

    def __deepcopy__(self, memo) -> Bridge:
        return self

    # ------------------------------------------------------------------ the game goes on
    def first(self, seed: bytes) -> World:
        """The world after the set-up (``start``), its randomness keyed with ``seed``."""
        table = PlayoutTable(self.initial, self.evolve, BridgeRng(seed, b"start"))
        self._start(table)
        return self.settle(table.state, seed, 0, (), (), None, 0)

    def play(self, world: World, action: int) -> World:
        """The world after the seat to act gives its command number ``action``."""
        state, seat, how = world.state, world.seat, world.how
        command = world.commands[action]
        seen = Seen(world.seen, seat, command, how)
        sealed, face_down, step = world.sealed, world.face_down, world.step
        if how == Choice.SEALED:
            sealed = (*sealed, (seat, command))
            acting = self.to_act(state)
            if len(sealed) < len(acting):  # (the next seat of the round: nothing else changed)
                moves = world.moves + 1
                if moves >= self.max_game_length:
                    return self.settle(state, world.seed, step, sealed, face_down, seen, moves)
                done = {s for s, _ in sealed}
                seat = next(s for s in acting if s not in done)
                commands = self.commands(state, seat)
                return world._replace(
                    seat=seat, commands=commands, sealed=sealed, seen=seen, moves=moves, said={}
                )
            chosen = dict(sealed)
            moves = tuple([(s, chosen[s]) for s in acting])
            seen, sealed = Seen(seen, REVEALED, moves, Choice.TURN_OVER), ()
        elif how == Choice.FACE_DOWN:
            face_down = (*face_down, (seat, command, state))
            moves = ((seat, HIDDEN),)
        else:
            moves = ((seat, command),)
        state = self.decide(state, world.seed, step, moves)
        return self.settle(state, world.seed, step + 1, sealed, face_down, seen, world.moves + 1)

    def decide(self, state, seed: bytes, step: int, moves: tuple):
        table = PlayoutTable(state, self.evolve, BridgeRng(seed, b"step:%d" % step))
        self._decide_into(table, moves)
        return table.state

    def settle(self, state, seed, step, sealed, face_down, seen, moves) -> World:
        """Turn over the face-down choices that are due; then whose action it is."""
        choice, to_act, outcome = self.choice, self.to_act, self.outcome
        while True:
            result = outcome(state)
            if result is not None or moves >= self.max_game_length:
                over = (TERMINAL, (), Choice.OPEN, (), ())
                return World(state, seed, step, *over, seen, moves, result, {})
            how = choice(state)
            if how != Choice.TURN_OVER:
                break
            (seat,) = to_act(state)
            command = next(c for s, c, _ in face_down if s == seat)
            face_down = tuple([f for f in face_down if f[0] != seat])
            state = self.decide(state, seed, step, ((seat, command),))
            step += 1
            seen = Seen(seen, seat, command, Choice.TURN_OVER)
        acting = to_act(state)
        if how == Choice.SEALED and len(acting) >= 2:
            done = {s for s, _ in sealed}
            seat = next(s for s in acting if s not in done)
        else:
            how = Choice.OPEN if how == Choice.SEALED else how
            seat = acting[0]
        commands = self.commands(state, seat)
        return World(
            state, seed, step, seat, commands, how, sealed, face_down, seen, moves, None, {}
        )

    def commands(self, state, seat: int) -> tuple:
        """``seat``'s legal commands: action i is the i-th."""
        commands = tuple(self.legal(state, seat))
        if len(commands) > self.max_actions:
            raise ValueError(
                f"{self.module.spec.id}: {len(commands)} legal commands, more than "
                f"max_actions={self.max_actions}: load the game with a larger max_actions"
            )
        return commands

    # ------------------------------------------------------------------ the result
    def returns(self, world: World) -> list[float]:
        """Zero-sum: the winners share the pot of one point from every player (a winner of a
        game of n won alone gets n - 1, every other player -1); nobody won, or the game was cut
        off at ``max_game_length``: 0 each."""
        n = len(self.players)
        result = world.outcome
        if world.seat != TERMINAL or result is None or not result.winners:
            return [0.0] * n
        share = n / len(result.winners)
        return [share - 1.0 if s in result.winners else -1.0 for s in range(n)]
