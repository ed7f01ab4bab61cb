"""The hosted mode's pieces: a judge holds the seed and makes every record; players request.

A player's copy holds no seed, so it cannot make a record whose events need randomness or the
deck.  It sends a *request* instead: its player's decision (a join, a command) and the record
it was made on (``base``), signed with the player's key.  The judge re-judges it under the rules,
makes the record (events from the seed, which it committed to in the header before any player
added a nonce), signs it, and puts the player's request beside it, so that every copy can check
that the record says what the player asked for and nothing else.  What a player may see of the
record's hidden values travels to them in letters (the peer mode's encryption, from the judge).

See docs/trust.md ("Hosted mode") for the protocol and the threat model.
"""

from __future__ import annotations

import hashlib
import hmac

import attrs
import msgpack

from ._errors import CorruptFile, ForeignFile, FutureVersion
from ._records import Kind, pack
from ._secrets import Secret

REQUEST_VERSION = 3  # the file format version that brought requests (the hosted mode)
MAX_REQUEST_BYTES = 1 << 16
_REQUEST_FIELDS = frozenset(
    {
        "format",
        "version",
        "kind",
        "game",
        "module",
        "base",
        "actor",
        "record",
        "command",
        "sealed",
        "signature",
    }
)
_SEALED_FIELDS = frozenset({"opening", "reveal"})  # a sealed choice's request only
REQUEST_KINDS = (Kind.JOIN, Kind.MOVE, Kind.COMMIT)


def nonce_of(secret: bytes) -> bytes:
    """A player's nonce for the game's randomness, from their private secret (in their join)."""
    return hmac.digest(secret, b"boardstate-hosted-nonce", hashlib.sha256)


def hosted_key(seed: bytes, nonces) -> bytes:
    """The key of a hosted game's randomness: the judge's committed seed and every player's
    nonce, in seat order.  The judge fixed its seed before seeing any nonce, so it cannot grind
    the result; the players never see the seed until the end, so they cannot predict it."""
    return hashlib.sha256(b"boardstate-hosted" + seed + pack(list(nonces))).digest()


def judged_message(game_id: bytes, body: bytes, stamp: int | None = None) -> bytes:
    """What the judge signs: a record's whole body (number, kind, actor, command, events), and
    in a game with a deadline the judge's time of the record (``_deadline``)."""
    message = b"boardstate-judged" + game_id + body
    return message if stamp is None else message + b"boardstate-time" + pack(stamp)


def request_message(game_id: bytes, base: int, kind: int, actor: int, command: str, sealed):
    """What a player signs: their decision and the record they made it on (not its events:
    the judge makes those).  A request is used once (``replayed``), and never once its player
    has acted after its base (``stale``)."""
    return b"boardstate-request" + game_id + pack([base, kind, actor, command, sealed])


@attrs.frozen
class Request:
    """A player's signed request to the judge (a file of its own kind, or armored text)."""

    game_id: bytes
    module: str
    base: int
    actor: int
    kind: int
    command: str
    sealed: object
    signature: bytes
    # A sealed or face-down choice (kind COMMIT): its opening for the judge alone (encrypted),
    # and the player's signature of the reveal the judge will make when the choice is due.
    opening: bytes = b""
    reveal: bytes = b""

    def message(self) -> bytes:
        return request_message(
            self.game_id, self.base, self.kind, self.actor, self.command, self.sealed
        )

    def encode(self) -> bytes:
        sealed = self.sealed
        if type(sealed) is Secret:  # (a plain form: a request file holds no extension types)
            sealed = [sealed.commitment, sealed.owners]
        extra = {"opening": self.opening, "reveal": self.reveal} if self.kind == Kind.COMMIT else {}
        return pack(
            {
                "format": "boardstate",
                "version": REQUEST_VERSION,
                "kind": "request",
                "game": self.game_id,
                "module": self.module,
                "base": self.base,
                "actor": self.actor,
                "record": self.kind,
                "command": self.command,
                "sealed": sealed,
                "signature": self.signature,
                **extra,  # (after the rest: "kind" stays in the first bytes, see is_request)
            }
        )


def is_request(data: bytes) -> bool:
    """Does ``data`` look like a request file (not a move or game file)?"""
    return b"\xa7request" in data[:96]


def decode_request(data: bytes, name: str) -> Request:
    """A request file's content, every field checked (one-line ``CorruptFile`` otherwise)."""
    if len(data) > MAX_REQUEST_BYTES:
        raise CorruptFile(f"{name}: a request larger than {MAX_REQUEST_BYTES} bytes")
    try:
        m = msgpack.unpackb(
            data,
            raw=False,
            use_list=False,
            strict_map_key=True,
            max_bin_len=MAX_REQUEST_BYTES,
            max_str_len=MAX_REQUEST_BYTES,
            max_array_len=64,
            max_map_len=16,
            max_ext_len=0,
        )
    except (ValueError, msgpack.UnpackException) as exc:
        raise CorruptFile(f"{name}: not a boardstate request ({exc or 'malformed'})") from None
    if type(m) is not dict or m.get("format") != "boardstate" or m.get("kind") != "request":
        raise CorruptFile(f"{name}: not a boardstate request")
    version = m.get("version")
    if type(version) is int and version > REQUEST_VERSION:
        raise FutureVersion(
            f"{name}: a request in file format v{version}; this boardstate reads up to "
            f"v{REQUEST_VERSION} (upgrade boardstate)"
        )
    sealed_fields = _SEALED_FIELDS if m.get("record") == Kind.COMMIT else frozenset()
    if set(m) != _REQUEST_FIELDS | sealed_fields or version != REQUEST_VERSION:
        raise CorruptFile(f"{name}: a malformed request (its fields)")
    game, module, base, actor = m["game"], m["module"], m["base"], m["actor"]
    kind, command, sealed, signature = m["record"], m["command"], m["sealed"], m["signature"]
    if (
        type(game) is not bytes
        or len(game) != 32
        or type(module) is not str
        or type(base) is not int
        or base < 0
        or type(actor) is not int
        or actor < 0
        or kind not in REQUEST_KINDS
        or type(command) is not str
        or len(command) > 4096
        or type(signature) is not bytes
        or len(signature) != 64
    ):
        raise CorruptFile(f"{name}: a malformed request (a field's type or range)")
    if kind == Kind.JOIN:
        if (
            type(sealed) is not tuple
            or len(sealed) != 3
            or not all(type(v) is bytes and len(v) == 32 for v in sealed)
            or command
        ):
            raise CorruptFile(f"{name}: a malformed join request")
    elif kind == Kind.COMMIT:
        opening, reveal = m["opening"], m["reveal"]
        if (
            type(sealed) is not tuple
            or len(sealed) != 2
            or type(sealed[0]) is not bytes
            or len(sealed[0]) != 32
            or sealed[1] != 1 << actor
            or command
            or type(opening) is not bytes
            or not 0 < len(opening) <= 4096
            or type(reveal) is not bytes
            or len(reveal) != 64
        ):
            raise CorruptFile(f"{name}: a malformed request (a sealed choice)")
        sealed = Secret(sealed[0], sealed[1])
        return Request(game, module, base, actor, kind, "", sealed, signature, opening, reveal)
    elif sealed is not None:
        raise CorruptFile(f"{name}: a malformed request (a move carries no sealed value)")
    return Request(game, module, base, actor, kind, command, sealed, signature)


def _opening_cipher(secret: bytes, their_public: bytes, game_id: bytes, commitment: bytes):
    from ._peer import _cipher

    nonce = hashlib.sha256(b"boardstate-opening" + game_id + commitment).digest()[:12]
    return _cipher(secret, their_public, game_id), nonce


def seal_opening(secret, judge_public, game_id, commitment, salt, value) -> bytes:
    """A sealed choice's opening, for the judge alone (the player's and the judge's X25519
    keys, as letters are)."""
    cipher, nonce = _opening_cipher(secret, judge_public, game_id, commitment)
    return cipher.encrypt(nonce, pack([salt, value]), None)


def open_opening(judge_secret, player_public, game_id, commitment, box):
    """``(salt, value)`` of a sealed choice's opening, or None if it does not decrypt."""
    cipher, nonce = _opening_cipher(judge_secret, player_public, game_id, commitment)
    try:
        salt, value = msgpack.unpackb(cipher.decrypt(nonce, box, None), raw=False, use_list=False)
    except Exception:
        return None
    return (salt, value) if type(salt) is bytes else None


def check_game(request: Request, game_id: bytes, name: str) -> None:
    if request.game_id != game_id:
        raise ForeignFile(
            f"{name}: a request for another game ({request.game_id.hex()[:12]}, not "
            f"{game_id.hex()[:12]})"
        )
