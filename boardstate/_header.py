"""The file header: which game this is, under which module and options, and who plays.

``read_header`` is the one check every reader runs on a header (``read_raw`` / ``parse_raw``,
so ``load_game``, ``verify``, ``apply_moves`` and every command): each field's type and range,
the module's own limits (player count, event table), the game id and the seed commitment.
``Header.for_new_game`` holds a new game to the same checks, so what is written can be read.
Players' names are checked by ``_names`` (the name grammar, stated once).
"""

from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import os
from typing import TYPE_CHECKING

import attrs

from ._errors import BoardstateError, CorruptFile, ForeignFile, FutureVersion, OptionError, short
from ._header_fields import (
    HASH_BYTES,
    _Bad,
    _base,
    _event_table,
    _hash,
    _module_of,
    _options,
    _revision,
    _text,
)
from ._names import check_new_names, check_players
from ._records import pack

if TYPE_CHECKING:
    from ._deadline import Deadline

FORMAT_NAME = "boardstate"
FORMAT_VERSION = 6  # v2: the peer mode (trust, joins, deals, signatures); v3: the hosted mode
# (a judge; records carry their player's request); v4: the peer mode's protocol 2; v5: the
# shared-deck mode; v6: a hosted game's deadline (its records carry the judge's time).  Open
# games still write v1, peer games v2 (protocol 1) or v4, hosted games without a deadline v3.
TRUST_MODES = ("open", "peer", "hosted", "shared-deck")
_TRUST_VERSION = {"open": 1, "peer": 2, "hosted": 3, "shared-deck": 5}
SEEDLESS = ("peer", "shared-deck")  # modes made by a player, whose randomness is everyone's
PEER_PROTOCOLS = (1, 2)  # the peer mode's protocols, oldest first; a new game plays the newest
# (2: a share of the randomness rides on a mail sent anyway, docs/trust.md)
_PROTOCOL_VERSION = 4  # the file format of a peer game under a protocol after 1
_DEADLINE_VERSION = 6  # the file format of a hosted game with a deadline
_LATER_VERSIONS = {("peer", _PROTOCOL_VERSION), ("hosted", _DEADLINE_VERSION)}
JUDGE_KEY_BYTES = 64  # the hosted mode's judge: Ed25519 public key, then X25519 public key

# Limits on a header (docs/file-format.md, "Limits").  A header is read from a bounded prefix of
# the file with its own unpacker limits, before anything else is trusted.
MAX_HEADER_BYTES = 1 << 20  # the whole encoded header map
MAX_SEED_BYTES = 1024  # the seed (``--seed TEXT``)
SALT_BYTES = 32  # ``seed_salt``
HEADER_LIMITS = dict(
    max_buffer_size=MAX_HEADER_BYTES,
    max_str_len=1 << 16,  # an option's text (a card's name, a hero list)
    max_bin_len=MAX_SEED_BYTES,
    max_array_len=1 << 12,  # the options, the players, the event table, a card list
    max_map_len=32,  # the header map itself (at most 23 keys); options are arrays, never maps
    max_ext_len=0,  # no extension types in a header
)


def seed_commitment(seed: bytes, salt: bytes | None = None) -> bytes:
    """``SHA-256("boardstate-seed" || salt || seed)``; files without a salt (made before salts
    existed) keep the unsalted ``SHA-256("boardstate-seed" || seed)``."""
    return hashlib.sha256(b"boardstate-seed" + (salt or b"") + seed).digest()


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
    seed_salt: bytes | None = None  # full logs only, beside the seed (None: an unsalted game)
    shared: int | None = None  # game files: the last record another copy holds (it was mailed,
    # or came from another copy); None: the file does not say (made before it was kept)
    given_id: bytes | None = None  # a compact move file: the game id it names (its header
    # holds no players, options or event table: the receiver's game holds them)
    trust: str = "open"  # open | peer (docs/trust.md)
    peer_secret: bytes | None = None  # the peer mode: this copy's player's private secret
    # (only in that player's own game file; never in a move file or another copy); the hosted
    # mode: the same for a player's copy, and the judge's own secret in the judge's copy
    judge: bytes | None = None  # the hosted mode: the judge's public keys (JUDGE_KEY_BYTES)
    protocol: int = 1  # the peer mode: the protocol it is played under (PEER_PROTOCOLS)
    deadline: Deadline | None = None  # the hosted mode: a time per move (``_deadline``)

    @property
    def peer(self) -> bool:
        return self.trust == "peer"

    @property
    def hosted(self) -> bool:
        return self.trust == "hosted"

    @property
    def signed(self) -> bool:
        """Do records carry signatures (and letters) beside them?"""
        return self.trust != "open"

    @property
    def format_version(self) -> int:
        if self.deadline is not None:
            return _DEADLINE_VERSION
        return _PROTOCOL_VERSION if self.protocol != 1 else _TRUST_VERSION[self.trust]

    @property
    def compact(self) -> bool:
        """A move file's header that names its game by id only."""
        return self.given_id is not None

    def compact_map(self) -> dict:
        """A move file's header, compact: the game id, module and base (what the id commits
        to is in the receiver's copy already)."""
        out = {
            "format": FORMAT_NAME,
            "version": self.format_version,
            "kind": "move",
            "game": self.game_id,
            "module": self.module,
            "module_version": self.module_version,
            "base": [self.base_seq, self.base_hash],
        }
        if self.revision != 1:
            out["revision"] = self.revision
        if self.trust != "open":
            out["trust"] = self.trust
        if self.protocol != 1:
            out["protocol"] = self.protocol
        return out

    @functools.cached_property
    def game_id(self) -> bytes:
        """Names the game in every copy: the full log, each view and each move file.  (Hashed
        once a header, kept beside its fields: not one of them, so neither compared, shown
        nor pickled; a header is frozen.  Reading a file asked for it twice, 17 µs each.)"""
        if self.given_id is not None:
            return self.given_id
        identity = [  # (tuples: msgpack arrays, as lists are)
            self.module,
            self.module_version,
            self.data_digest,
            self.options,
            self.players,
            self.created,
            self.seed_commitment,
            self.events,
        ]
        if self.revision != 1 or self.trust != "open":  # (older ids stay as they were)
            identity.append(self.revision)
        if self.trust != "open":
            identity.append(self.trust)
        if self.judge is not None:
            identity.append(self.judge)
        if self.protocol != 1:
            identity.append(self.protocol)
        if self.deadline is not None:
            identity.append(self.deadline.to_list())
        return hashlib.sha256(b"boardstate-game" + pack(identity)).digest()

    @property
    def option_map(self) -> dict:
        return dict(self.options)

    @classmethod
    def for_new_game(
        cls,
        module,
        players,
        raw_options,
        seed: bytes | None,
        created: str | None,
        seed_salt: bytes | None = None,
        trust: str = "open",
        judge: bytes | None = None,
        protocol: int | None = None,
        deadline: Deadline | None = None,
    ):
        """A new game's header.  ``seed_salt`` (default: 32 random bytes) salts the seed's
        commitment; pass one to make byte-identical files in tests.  ``protocol``: a peer game's
        (default: the newest; an older one to play with copies made before it)."""
        spec = module.spec
        players = tuple(players)
        check_players(spec, players)
        check_new_names(players)
        if seed is not None and (type(seed) is not bytes or len(seed) > MAX_SEED_BYTES):
            raise OptionError(f"the seed must be at most {MAX_SEED_BYTES} bytes", code="bad-seed")
        salt = os.urandom(SALT_BYTES) if seed_salt is None else seed_salt
        if type(salt) is not bytes or len(salt) != SALT_BYTES:
            raise OptionError(f"the seed salt must be {SALT_BYTES} bytes", code="bad-seed")
        from ._decider import Decider

        if trust not in TRUST_MODES or (deadline and trust != "hosted"):
            modes = "hosted: a judge keeps deadlines" if deadline else ", ".join(TRUST_MODES)
            raise OptionError(f"no trust mode {trust!r} (modes: {modes})", code="bad-trust")
        decider = Decider(module)
        options = decider.options(dict(raw_options), players)
        decider.check_trust(trust, options, players, spec.revision)
        if protocol is not None and (trust != "peer" or protocol not in PEER_PROTOCOLS):
            raise OptionError(
                f"no protocol {protocol!r} in the {trust} mode (the peer mode's: "
                f"{', '.join(map(str, PEER_PROTOCOLS))})",
                code="bad-trust",
            )
        if trust in SEEDLESS:
            if seed is not None:
                raise OptionError(
                    "a peer game has no seed: its randomness comes from every player",
                    code="bad-seed",
                )
            return cls._checked(
                cls(
                    spec.id,
                    spec.version,
                    spec.data_digest,
                    tuple(sorted(options.items())),
                    players,
                    created or _now(),
                    None,
                    # (no seed: a random name, so every id is new; tests may fix it)
                    os.urandom(HASH_BYTES) if seed_salt is None else seed_salt,
                    tuple((c.__event_name__, c.__event_version__) for c in spec.events),
                    revision=spec.revision,
                    shared=0,
                    trust=trust,
                    protocol=(PEER_PROTOCOLS[-1] if protocol is None else protocol)
                    if trust == "peer"
                    else 1,
                ),
                module,
            )
        if (trust == "hosted") != (judge is not None):
            raise OptionError(
                "a hosted game is made by its judge, with the judge's keys", code="bad-trust"
            )
        seed = os.urandom(32) if seed is None else seed
        created = created or _now()
        header = cls(
            spec.id,
            spec.version,
            spec.data_digest,
            tuple(sorted(options.items())),
            players,
            created,
            seed,
            seed_commitment(seed, salt),
            tuple((c.__event_name__, c.__event_version__) for c in spec.events),
            revision=spec.revision,
            seed_salt=salt,
            shared=0,  # (the new file itself goes to every player: its setup record is theirs)
            trust=trust,
            judge=judge,
            deadline=deadline,
        )
        return cls._checked(header, module)

    @classmethod
    def _checked(cls, header, module):
        """What is written must read back: the reader's own checks, on the encoded header."""
        data = pack(header.to_map())
        if len(data) > MAX_HEADER_BYTES:
            raise OptionError(
                f"the game's header would take {len(data)} bytes (options too large; the "
                f"limit is {MAX_HEADER_BYTES})",
                code="too-large",
            )
        try:
            decoded = _decode_header(data)
        except ValueError as exc:  # (msgpack's limits: an array, a string or a bin too long)
            raise OptionError(
                f"the game's header would not read back: {exc} (options too large; "
                "docs/file-format.md, Limits)",
                code="too-large",
            ) from None
        try:
            read_header(decoded, "the new game", module)
        except BoardstateError as exc:
            raise OptionError(exc.reason, code="bad-option") from None
        return header

    def to_map(self) -> dict:
        out = {
            "format": FORMAT_NAME,
            "version": self.format_version,
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
        if self.seed_salt is not None and self.seed is not None:  # (only ever beside the seed)
            out["seed_salt"] = self.seed_salt
        if self.shared is not None and self.kind == "game":
            out["shared"] = self.shared
        if self.trust != "open":
            out["trust"] = self.trust
        if self.protocol != 1:
            out["protocol"] = self.protocol
        if self.peer_secret is not None:
            out["peer_secret"] = self.peer_secret
        if self.judge is not None:
            out["judge"] = self.judge
        if self.deadline is not None:
            out["deadline"] = self.deadline.to_list()
        return out


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()


# ---------------------------------------------------------------------------------- checks
_REQUIRED = frozenset(
    {
        "format",
        "version",
        "kind",
        "game",
        "module",
        "module_version",
        "data_digest",
        "options",
        "players",
        "created",
        "seed",
        "seed_commitment",
        "events",
        "viewer",
        "base",
    }
)
_OPTIONAL = frozenset(
    {"revision", "seed_salt", "shared", "trust", "peer_secret", "judge", "protocol", "deadline"}
)


def _decode_header(data: bytes):
    import msgpack

    unpacker = msgpack.Unpacker(raw=False, use_list=False, strict_map_key=True, **HEADER_LIMITS)
    unpacker.feed(data)
    return unpacker.unpack()


def read_header(m, name: str, module=None):
    """Check a decoded header map field by field; ``(Header, module)``.

    Every reader runs this (through ``read_raw`` / ``parse_raw``).  Raises ``ForeignFile`` (not
    a boardstate header), ``FutureVersion`` (a newer format, module or rules revision),
    ``GameFileError`` (a module that is not installed) or ``CorruptFile`` (anything else, with
    the field named).  ``module``: check against this module instead of the installed one.
    """
    if type(m) is not dict or m.get("format") != FORMAT_NAME:
        raise ForeignFile(f"{name}: not a boardstate file")
    version = m.get("version")
    if type(version) is not int or version < 1:
        raise CorruptFile(f"{name}: corrupt header (no format version)")
    if version > FORMAT_VERSION:
        raise FutureVersion(
            f"{name}: written in file format v{version}; this boardstate reads "
            f"up to v{FORMAT_VERSION} (upgrade boardstate)"
        )
    try:
        return _read_header(m, name, module)
    except _Bad as exc:
        raise CorruptFile(f"{name}: corrupt header ({exc})") from None


_COMPACT = frozenset({"format", "version", "kind", "game", "module", "module_version", "base"})


def _read_compact(m: dict, name: str, module):
    """A compact move file's header: the game id, module, version, base (and revision)."""
    keys = set(m)
    if not _COMPACT <= keys:
        raise _Bad(f"no {sorted(_COMPACT - keys)[0]!r}")
    if keys - _COMPACT - {"revision", "trust", "protocol"}:
        raise _Bad(f"unexpected field {short(sorted(map(str, keys - _COMPACT))[0])}")
    module_id, module_version = _module_of(m)
    game = _hash(m, "game")
    base = _base(m["base"])
    revision = _revision(m)
    header = Header(
        module=module_id,
        module_version=module_version,
        data_digest="",
        options=(),
        players=(),
        created="",
        seed=None,
        seed_commitment=b"",
        events=(),
        kind="move",
        base_seq=base[0],
        base_hash=base[1],
        revision=revision,
        given_id=game,
        trust=_trust(m),
        protocol=_protocol(m, name),
    )
    return header, _installed(module, header, name)


def _read_header(m: dict, name: str, module):
    if m.get("kind") == "move" and "options" not in m:
        return _read_compact(m, name, module)
    keys = set(m)
    if not _REQUIRED <= keys:
        raise _Bad(f"no {sorted(_REQUIRED - keys)[0]!r}")
    if keys - _REQUIRED - _OPTIONAL:
        raise _Bad(f"unexpected field {short(sorted(map(str, keys - _REQUIRED - _OPTIONAL))[0])}")
    kind = _text(m, "kind")
    if kind not in ("game", "move"):
        raise _Bad(f"kind: unknown file kind {short(kind)}")
    module_id, module_version = _module_of(m)
    data_digest = _text(m, "data_digest", empty=True)  # (a module without data files)
    created = _text(m, "created")
    try:
        _dt.datetime.fromisoformat(created)
    except ValueError:
        raise _Bad(f"created: {short(created)} is not an ISO 8601 time") from None
    options = _options(m["options"])
    players = m["players"]
    if type(players) is not tuple or not all(type(p) is str for p in players):
        raise _Bad("players: not an array of strings")
    seed = m["seed"]
    if seed is not None and type(seed) is not bytes:
        raise _Bad("seed: neither bytes nor nil")
    salt = m.get("seed_salt")
    if "seed_salt" in m and (type(salt) is not bytes or len(salt) != SALT_BYTES or seed is None):
        raise _Bad(f"seed_salt: not {SALT_BYTES} bytes beside a seed")
    commitment = _hash(m, "seed_commitment")
    game = _hash(m, "game")
    events = _event_table(m["events"])
    viewer = m["viewer"]
    if viewer is not None and (
        type(viewer) is not int
        or not 0 <= viewer < len(players)
        or seed is not None
        or kind != "game"
    ):
        raise _Bad("viewer: not nil, nor a seat of a view without a seed")
    base = m["base"]
    if kind == "game":
        if base is not None:
            raise _Bad("base: a game file has none")
        base_seq, base_hash = -1, b""
    else:
        if seed is not None or viewer is not None:
            raise _Bad("a move file carries no seed and no viewer")
        base_seq, base_hash = _base(base)
    revision = _revision(m)
    shared = m.get("shared")
    if "shared" in m and (type(shared) is not int or shared < 0 or kind != "game"):
        raise _Bad("shared: not a record number >= 0 of a game file")
    trust = _trust(m)
    peer_secret = m.get("peer_secret")
    if "peer_secret" in m and (
        type(peer_secret) is not bytes
        or len(peer_secret) != HASH_BYTES
        or trust == "open"
        or (viewer is None and not (trust == "hosted" and seed is not None))
    ):
        raise _Bad("peer_secret: not 32 bytes of a player's copy (or the judge's)")
    judge = m.get("judge")
    if (trust == "hosted") != ("judge" in m) or (
        judge is not None and (type(judge) is not bytes or len(judge) != JUDGE_KEY_BYTES)
    ):
        raise _Bad(f"judge: not the {JUDGE_KEY_BYTES} bytes of a hosted game's judge keys")
    if trust in SEEDLESS and seed is not None:
        raise _Bad(f"seed: a {trust} game has none")
    deadline = None
    if "deadline" in m or m["version"] == _DEADLINE_VERSION:  # (else none, and none wanted)
        from ._deadline import Deadline  # (a hosted game's: not every command's, issue 29)

        try:
            deadline = Deadline.in_header(m, _DEADLINE_VERSION)
        except ValueError as exc:
            raise _Bad(str(exc)) from None
    header = Header(
        module=module_id,
        module_version=module_version,
        data_digest=data_digest,
        options=options,
        players=players,
        created=created,
        seed=seed,
        seed_commitment=commitment,
        events=events,
        kind=kind,
        viewer=viewer,
        base_seq=base_seq,
        base_hash=base_hash,
        revision=revision,
        seed_salt=salt,
        shared=shared,
        trust=trust,
        peer_secret=peer_secret,
        judge=judge,
        protocol=_protocol(m, name),
        deadline=deadline,
    )
    if game != header.game_id:
        raise CorruptFile(f"{name}: the header's game id does not match its content")
    if seed is not None and seed_commitment(seed, salt) != commitment:
        raise CorruptFile(f"{name}: the seed does not match its commitment")
    return header, _installed(module, header, name)


def _installed(module, header: Header, name: str):
    """The module the header names (installed, unless given), checked against the header."""
    if module is None:
        from ._registry import get_module

        try:
            module = get_module(header.module)
        except BoardstateError as exc:
            from ._errors import GameFileError

            raise GameFileError(f"{name}: {exc.reason}", code=exc.code) from None
    key = (
        id(module),
        header.module_version,
        header.revision,
        header.compact,
        header.events,
        header.players,
        header.options,
    )
    try:
        known = _CHECKED.get(key) is module
    except TypeError:  # (an option's value no hash takes: checked, not kept)
        known, key = False, None
    if not known:
        _check_against(module, header, name)
        if key is not None:
            if len(_CHECKED) >= _CHECKED_KEPT:
                _CHECKED.clear()
            _CHECKED[key] = module
    return module


# Headers found within the installed module's limits (``_check_against``), by what the check
# reads of them: the games of one set-up share it, and the check was a third of reading a
# header.  (Equal keys get the same verdict: every comparison it makes is by equality.)
_CHECKED: dict[tuple, object] = {}
_CHECKED_KEPT = 64


def _check_against(module, header: Header, name: str) -> None:
    """The installed module's own limits: version, revision, event table, players."""
    spec = module.spec
    file_major = int(header.module_version.split(".")[0])
    if file_major > spec.major:
        raise FutureVersion(
            f"{name}: made with {header.module} {header.module_version}; installed "
            f"is {spec.version} (needs {header.module} >= {file_major}.0)"
        )
    from ._decider import Decider

    Decider(module).check_revision(header.revision, name, header.module_version)
    if header.compact:  # (the rest is the receiver's game's, checked when it was read)
        return
    installed = spec.events
    for code, (event_name, version) in enumerate(header.events):
        if code >= len(installed):
            raise FutureVersion(
                f"{name}: event type {short(event_name)} is newer than the installed "
                f"{spec.id} {spec.version} (upgrade the module)"
            )
        cls = installed[code]
        if event_name != cls.__event_name__:
            raise _Bad(
                f"events: entry {code} is {short(event_name)}, the module's event {code} is "
                f"{cls.__event_name__!r}"
            )
        if version > cls.__event_version__:
            raise FutureVersion(
                f"{name}: event {event_name!r} has schema {version}, this installation reads "
                f"up to {cls.__event_version__}; upgrade the module"
            )
    try:
        check_players(spec, header.players)
    except OptionError as exc:
        raise _Bad(f"players: {exc.reason}") from None
    for key, value in header.options:  # (an option declared with choices is stored as one)
        option = spec.option(key)
        if option is not None and option.choices and value not in option.choices:
            raise _Bad(f"options: {key} is {short(value)}, not one of {', '.join(option.choices)}")


def _trust(m: dict) -> str:
    trust = m.get("trust", "open")
    if trust not in TRUST_MODES or ("trust" in m and trust == "open"):
        raise _Bad(f"trust: not a mode other than open (absent means open): {short(trust)}")
    version = m.get("version")
    if version != _TRUST_VERSION[trust] and (trust, version) not in _LATER_VERSIONS:
        raise _Bad(  # (each mode writes its own version)
            f"version: v{version} is not an {trust} game's (open v1, peer v2 or v4, hosted v3 "
            f"or v6, shared-deck v5)"
        )
    return trust


def _protocol(m: dict, name: str) -> int:
    """A peer game's protocol: 1 in a v2 file (absent), a later one in a v4 file."""
    protocol = m.get("protocol", 1)
    later = m.get("version") == _PROTOCOL_VERSION
    if type(protocol) is not int or later != ("protocol" in m) or (later and protocol < 2):
        raise _Bad("protocol: not an integer > 1 in a v4 peer file (absent means 1, in v2)")
    if protocol > PEER_PROTOCOLS[-1]:
        raise FutureVersion(
            f"{name}: made under the peer mode's protocol {protocol}; this boardstate plays protocols "
            f"up to {PEER_PROTOCOLS[-1]} (upgrade boardstate)"
        )
    return protocol


def check_records(header: Header, count: int, name: str) -> None:
    """What a header says of its file's records, once they are counted: ``shared`` names one
    of them (the last record another copy holds)."""
    if header.shared is not None and header.shared >= count:
        raise CorruptFile(
            f"{name}: corrupt header (shared: record {header.shared}, but the last record is "
            f"{count - 1})"
        )
