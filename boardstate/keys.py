"""Players' signing keys (Ed25519: made and used with ``cryptography``, checked with PyNaCl).

A public module (``boardstate.keys``): the CLI's ``key`` commands and anyone scripting the peer
or hosted modes use it.

A key pair lives in the keys folder, ``$BOARDSTATE_KEYS`` or ``$XDG_CONFIG_HOME/boardstate/keys``
(``~/.config/boardstate/keys``): ``NAME.key``, the private key (PEM, PKCS#8), readable and
writable by its owner only (created with mode 0600, never written over), and ``NAME.pub``, the
public key as 64 hexadecimal digits, to hand to the other players.  The signing of records
builds on these (docs/trust.md); ``cryptography`` is imported only when a key is used.
"""

from __future__ import annotations

import functools
import hashlib
import os
import stat
from typing import TYPE_CHECKING

from ._errors import GameFileError, OptionError

if TYPE_CHECKING:
    from pathlib import Path

PUBLIC_BYTES = 32
MAX_KEY_FILE_BYTES = 4096  # (a private key's PEM is 119 bytes, a public key's file 65)
SIGNATURE_BYTES = 64


def keys_dir() -> Path:
    """Where keys are kept (the environment decides; nothing is created here)."""
    return user_folder("BOARDSTATE_KEYS", "XDG_CONFIG_HOME", ".config", "keys")


def user_folder(variable: str, xdg: str, home: str, *under: str) -> Path:
    """A folder of this user's boardstate: ``$variable``, else ``$xdg/boardstate/...``, else
    ``~/home/boardstate/...`` (the XDG base directories)."""
    from pathlib import Path

    from ._folders import user_folder_name

    return Path(user_folder_name(variable, xdg, home, *under))


def _check_name(name: str) -> str:
    from ._names import NAME_RULE, is_name  # (one grammar for players' and keys' names)

    if not is_name(name):
        raise OptionError(f"key name {name!r}: use {NAME_RULE} characters", code="bad-key-name")
    return name


def new_key(name: str, directory: Path | None = None) -> tuple[Path, bytes]:
    """Make a key pair ``name``: ``(path of the private key, public key)``.  An existing key of
    that name is never written over."""
    from pathlib import Path

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    folder = Path(directory) if directory is not None else keys_dir()
    _check_name(name)
    private_path, public_path = folder / f"{name}.key", folder / f"{name}.pub"
    for path in (private_path, public_path):
        if os.path.lexists(path):  # (a link to nothing too; no permission to look: no key)
            raise GameFileError(
                f"{path} exists: a key is never written over (choose another name)",
                code="exists",
            )
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        raise GameFileError(
            f"{folder}: cannot make the keys folder ({exc.strerror})", code="unwritable"
        ) from None
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    public = key.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )
    try:
        fd = os.open(private_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(pem)
        public_path.write_text(public.hex() + "\n")
    except OSError as exc:
        raise GameFileError(
            f"{folder}: cannot write the key ({exc.strerror})", code="unwritable"
        ) from None
    return private_path, public


def load_private(name_or_path, directory: Path | None = None):
    """A private key by name (in the keys folder) or path; refused if others may read it."""
    from pathlib import Path

    from cryptography.hazmat.primitives import serialization

    from ._safety import named  # ('' is no key, never pathlib's '.')

    path = Path(named(name_or_path))
    if not path.suffix and path.parent == Path("."):
        path = (Path(directory) if directory is not None else keys_dir()) / f"{path}.key"
    try:
        data, mode = _key_file(path, "private key")
    except FileNotFoundError:
        raise GameFileError(
            f"{path}: no such key (make one: boardstate key new NAME)", code="no-key"
        ) from None  # (any other failure to read is _key_file's one line)
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise GameFileError(
            f"{path}: other users may read this private key (chmod 600 {path})", code="key-open"
        )
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise GameFileError(f"{path}: not a private key", code="bad-key") from None
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    if not isinstance(key, Ed25519PrivateKey):
        raise GameFileError(f"{path}: not an Ed25519 key", code="bad-key")
    return key


def load_public(path) -> bytes:
    """The public key in the file ``path`` (a ``NAME.pub``); FileNotFoundError if none."""
    data, _ = _key_file(path, "public key")
    try:
        return parse_public(data.decode("ascii"))
    except UnicodeDecodeError:
        raise GameFileError(f"{path}: not a public key (not text)", code="bad-key") from None


def _key_file(path, what: str) -> tuple[bytes, int]:
    """``(bytes, mode)`` of a key file (``read_regular``): a folder, a pipe, a device or a file
    over 4 KiB is no key, one line (they were internal errors, a wait for ever, or all of
    ``/dev/zero``)."""
    from ._safety import NotRegular, read_regular

    try:
        data, found = read_regular(path, MAX_KEY_FILE_BYTES)
    except FileNotFoundError:
        raise
    except NotRegular:
        raise GameFileError(
            f"{path}: not a regular file, so not a {what}", code="bad-key"
        ) from None
    except OSError as exc:
        raise GameFileError(
            f"{path}: cannot read the key ({exc.strerror})", code="unreadable"
        ) from None
    if len(data) > MAX_KEY_FILE_BYTES:
        raise GameFileError(
            f"{path}: over {MAX_KEY_FILE_BYTES} bytes, not a {what}", code="bad-key"
        )
    return data, found.st_mode


def parse_public(text: str) -> bytes:
    """A public key given as 64 hexadecimal digits (the content of a ``.pub`` file)."""
    t = text.strip().lower()
    try:
        raw = bytes.fromhex(t)
    except ValueError:
        raw = b""
    if len(raw) != PUBLIC_BYTES:
        raise OptionError(
            f"not a public key ({PUBLIC_BYTES * 2} hexadecimal digits): {text.strip()[:20]!r}",
            code="bad-key",
        )
    return raw


def sign(key, data: bytes) -> bytes:
    return key.sign(data)


def verifies(public: bytes, signature: bytes, data: bytes) -> bool:
    """Whether ``signature`` is ``public``'s over ``data`` (libsodium's Ed25519, through
    PyNaCl: twice OpenSSL's speed here, and stricter: it refuses small-order keys and points).
    A signature found good is not checked again in this process: a merge makes the records of
    crossing mail again, each with the signature it came with."""
    if len(public) != PUBLIC_BYTES or len(signature) != SIGNATURE_BYTES:
        return False
    seen = hashlib.sha256(public + signature + data).digest()
    if seen in _GOOD:
        return True
    try:
        _verify_key(public).verify(data, signature)
    except Exception as exc:  # (PyNaCl's error imported only when a signature fails)
        from nacl.exceptions import CryptoError

        if isinstance(exc, CryptoError):
            return False
        raise
    if len(_GOOD) >= _GOOD_KEPT:
        del _GOOD[next(iter(_GOOD))]  # (the oldest)
    _GOOD[seen] = None
    return True


_GOOD: dict[bytes, None] = {}  # digests of (key, signature, data) found good, oldest first
_GOOD_KEPT = 4096


@functools.lru_cache(maxsize=256)
def _verify_key(public: bytes):
    """One key object per player's key: a copy checks hundreds of records by the same few."""
    from nacl.signing import VerifyKey

    return VerifyKey(public)


def fingerprint(public: bytes) -> str:
    """A short name for a public key, to read out over the phone (first 8 bytes, hex)."""
    digest = hashlib.sha256(public).hexdigest()[:16]
    return ":".join(digest[i : i + 4] for i in range(0, 16, 4))
