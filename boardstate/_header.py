"""The file header: which game this is, under which module and options, and who plays."""

from __future__ import annotations

import datetime as _dt
import hashlib
import os

import attrs

from ._errors import OptionError
from ._records import pack

FORMAT_NAME = "boardstate"
FORMAT_VERSION = 1


def seed_commitment(seed: bytes) -> bytes:
    return hashlib.sha256(b"boardstate-seed" + seed).digest()


@attrs.frozen
class Header:
    module: str
    module_version: str
    data_digest: str
    options: tuple  # ((key, value), ...) sorted by key; values msgpack-native
    players: tuple[str, ...]
    created: str
    seed: bytes | None
    seed_commitment: bytes
    events: tuple  # ((type name, schema version), ...) indexed by event code
    kind: str = "game"  # game | move
    viewer: int | None = None  # a player's view: the seat whose secrets it keeps
    base_seq: int = -1  # move files: the record the new ones follow
    base_hash: bytes = b""
    revision: int = 1  # the module's rules revision the game was created under

    @property
    def game_id(self) -> bytes:
        """Names the game in every copy: the full log, each view and each move file."""
        identity = [
            self.module,
            self.module_version,
            self.data_digest,
            [list(kv) for kv in self.options],
            list(self.players),
            self.created,
            self.seed_commitment,
            [list(e) for e in self.events],
        ]
        if self.revision != 1:  # (files of revision 1 predate revisions: their ids stay)
            identity.append(self.revision)
        return hashlib.sha256(b"boardstate-game" + pack(identity)).digest()

    @property
    def option_map(self) -> dict:
        return dict(self.options)

    @classmethod
    def for_new_game(cls, module, players, raw_options, seed: bytes | None, created: str | None):
        spec = module.spec
        players = tuple(players)
        if not spec.min_players <= len(players) <= spec.max_players:
            raise OptionError(
                f"{spec.name} takes {spec.min_players}–{spec.max_players} players, "
                f"got {len(players)}",
                code="player-count",
            )
        if len(set(players)) != len(players) or any(not p or p.strip() != p for p in players):
            raise OptionError(
                "player names must be distinct, non-empty, without outer spaces", code="bad-player"
            )
        from ._decider import Decider

        options = Decider(module).options(dict(raw_options), players)
        seed = os.urandom(32) if seed is None else seed
        created = created or _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()
        return cls(
            spec.id,
            spec.version,
            spec.data_digest,
            tuple(sorted(options.items())),
            players,
            created,
            seed,
            seed_commitment(seed),
            tuple((c.__event_name__, c.__event_version__) for c in spec.events),
            revision=spec.revision,
        )

    def to_map(self) -> dict:
        out = {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "kind": self.kind,
            "game": self.game_id,
            "module": self.module,
            "module_version": self.module_version,
            "data_digest": self.data_digest,
            "options": [list(kv) for kv in self.options],
            "players": list(self.players),
            "created": self.created,
            "seed": self.seed,
            "seed_commitment": self.seed_commitment,
            "events": [list(e) for e in self.events],
            "viewer": self.viewer,
            "base": [self.base_seq, self.base_hash] if self.kind == "move" else None,
        }
        if self.revision != 1:
            out["revision"] = self.revision
        return out
