"""The open mode (hot seat, and open play by mail): a seeded copy, no joins, no signatures.

Every copy that holds the seed makes the same randomness; a copy without it (a view, or a
player's copy of a game whose seed is kept by its creator) draws nothing (``SealedRng``).  The
base class of the other plugs holds the answers where a mode adds nothing.
"""

from __future__ import annotations

from .._decider import ENGINE_RULE
from .._errors import GameFileError, IllegalCommand, SecretUnavailable
from .._rng import Rng, SealedRng


class OpenTrust:
    """Nobody joins, nothing is signed, nothing waits for a player's share."""

    signed = False  # records carry their makers' signatures
    loaded_by_rederiving = False  # a copy read back is folded, not decided again
    rebuilt_by_rederiving = False  # a shortened log is folded again, not decided again
    keeps_canonical_order = False  # unsettled records that commute kept in one order
    reveals_are_checked_against_the_game = False  # a reveal opens a value the game holds
    joins = False  # players join the game's log (each with their keys)
    joins_by_request = False  # a join is a request another copy (the judge) makes a record of
    moves_by_request = False  # a move is a request the judge makes the records of
    randomness_from_others = False  # a random number waits for the other players' shares
    # What a copy of this mode checks only in part, and what checks the rest (said once: at
    # the join, and by ``verify``)
    checked_in_part = "checked on the hash chain only: this copy has no seed"
    # Whether a record asks nothing of the mode (its ``seal``, ``on_request``, ``on_append``,
    # ``joined``, ``waits`` and ``due`` all this class's: set for each mode,
    # ``__init_subclass__``; on one plug, ``__setattr__``): the engine then does not call
    # them, five or six calls a record on the referee's path.  (A hook patched onto a class
    # after it was made is not seen: patch it on the plug, or subclass.)
    adds_nothing = True

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls.adds_nothing = all(getattr(cls, n) is getattr(OpenTrust, n) for n in _PER_RECORD)
        # (a mode whose hooks are asked anyway sets its fields as any object does: the signed
        # modes set some every record)
        cls.__setattr__ = OpenTrust.__setattr__ if cls.adds_nothing else object.__setattr__

    def __setattr__(self, name: str, value) -> None:
        # A hook set on one plug (a test's spy, ``monkeypatch.setattr``) is asked from then on,
        # as a class's is: else the engine would skip it without a word.
        if name in _PER_RECORD:
            object.__setattr__(self, "adds_nothing", False)
        object.__setattr__(self, name, value)

    def maker_of(self, game, actor: int) -> str:
        """Who made ``actor``'s records, in words."""
        return game.players[actor]

    # -------------------------------------------------------------------- a new game
    @staticmethod
    def creator_keys(peer_secret: bytes | None, judge_key: bytes | None) -> tuple:
        """``(the creator's private secret, the judge's public keys)`` a new game's header
        needs (the open mode: neither)."""
        return peer_secret, None

    @staticmethod
    def creators_copy(header, seat: int | None, peer_secret: bytes | None):
        """The header of the creator's own copy (the open mode: the game's header)."""
        return header

    def __init__(self) -> None:
        self.keys: dict[int, bytes] = {}  # seat -> Ed25519 public key (none in the open mode)
        self.exchange: dict[int, bytes] = {}  # seat -> X25519 public key (for letters)
        self.pending = None  # a decision waiting for the players' shares
        self.unmade = False  # the last decision ran with secrets another copy made
        self.audit_secrets: dict[int, bytes] = {}  # the end-of-game audit's published secrets
        self.links_given: dict[int, int] = {}

    # -------------------------------------------------------------------- randomness
    def seed(self, game) -> bytes | None:
        return game.header.seed

    def rng(self, game, seq: int):
        seed = self.seed(game)
        return Rng(seed, b"record:%d" % seq) if seed is not None else SealedRng()

    def start(self, game) -> tuple:
        """The setup's ``(events, state after them)``."""
        return game.decider.start(game.state, self.rng(game, 0))

    def decide(self, game, moves, openings=None) -> tuple:
        """The module's ``(events, state after them)`` for ``moves``, in the next record."""
        return game.decider.decide(game.state, moves, self.rng(game, game.seq), openings)

    # -------------------------------------------------------------------- waiting
    def joined(self, game) -> bool:
        """Every player has joined (in a mode where players join)."""
        return True

    def waits(self, game) -> bool:
        """Whether the game waits for a join or a share before anyone may act."""
        return False

    def waiting_for(self, game) -> tuple[int, ...]:
        return ()

    def due(self, game) -> str:
        """What the next record must be ("join", "link", "arrange"), or "" (play on)."""
        return ""

    # -------------------------------------------------------------------- records
    def seal(self, game, record):
        """``record`` with what this mode adds to a record this copy makes (nothing)."""
        return record

    def remade(self, game, record):
        """A record made again by a merge (it keeps what its maker signed)."""
        return record

    def check_signature(self, game, record) -> None:
        """What this copy checks of a record it did not make, beyond the rules (nothing)."""

    def check_forfeit(self, game, seat: int) -> None:
        """A forfeit is a hosted game's judge's deadline record: never in this mode."""
        raise IllegalCommand(
            "only a hosted game's judge forfeits a player, at a deadline its header names",
            code="bad-deadline",
            rule=ENGINE_RULE,
        )

    def on_request(self, game, record) -> None:
        """What the mode learns from the request a record answers (none in the open mode)."""

    def on_append(self, game, record) -> None:
        """What the mode learns from a record added to the log (nothing)."""

    def reveal_request(self, game, commitment) -> tuple | None:
        """What a reveal this copy makes carries (the hosted mode: the player's signed
        reveal); ``False``: nothing to carry, make it."""
        return False

    def open_letters(self, game, actor: int, seq: int, letters, openings: tuple) -> tuple:
        return openings

    # -------------------------------------------------------------------- joins and deals
    def check_join(self, game, seat: int, sealed) -> tuple:
        raise IllegalCommand(
            "a join in a game where nobody joins (the open mode)", code="bad-join", rule=ENGINE_RULE
        )

    def check_deal(self, game, seat: int, sealed) -> tuple:
        raise IllegalCommand(
            f"no deal is due from {game.name_of(seat)} now", code="early-deal", rule=ENGINE_RULE
        )

    def supply(self, game, seat: int):
        raise SecretUnavailable(
            f"this copy does not hold {game.players[seat]}'s secret: deal from their copy",
            code="no-opening",
        )

    def deal_held(self, game) -> list:
        return []

    def join(self, game, seat: int, public_key: bytes) -> list:
        return self.check_join(game, seat, None)

    # -------------------------------------------------------------------- requests
    def judge(self, game, request) -> list:
        raise GameFileError("only the judge's copy of a hosted game judges requests")

    def check_request(self, game, request, seq: int | None = None) -> None:
        raise IllegalCommand("a request in a game without a judge", code="bad-request")

    def request(self, game, seat: int, text: str):
        raise GameFileError("requests are sent to a judge: this game has none", code="no-judge")

    def join_request(self, game, seat: int, public_key: bytes):
        raise GameFileError("requests are sent to a judge: this game has none", code="no-judge")


_PER_RECORD = ("seal", "on_request", "on_append", "joined", "waits", "due")
