"""Secrets as salted commitments, and their reveals.

A ``Secret`` stands in an event for a value some players may not know.  The log stores, for
everyone, only ``commitment = SHA-256("boardstate-commit" || salt || msgpack(value))`` and the
owner set; a copy that may know the value also holds the *opening* (salt and value).  A
``Reveal`` carries value and salt in public so anyone can check it against the commitment.
"""

from __future__ import annotations

import hashlib

import attrs
import msgpack

_PREFIX = b"boardstate-commit"


class _Unknown:
    """The value of a secret this copy does not hold (a face-down card)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNKNOWN"

    def __reduce__(self):
        return "UNKNOWN"


UNKNOWN = _Unknown()


_pack = msgpack.Packer(use_bin_type=True).pack


def commit(value, salt: bytes) -> bytes:
    return hashlib.sha256(_PREFIX + salt + _pack(value)).digest()


@attrs.frozen(slots=True)
class Secret:
    """A committed value.  ``owners`` is a bit mask of the seats that may know it (0: nobody)."""

    commitment: bytes
    owners: int = 0
    value: object = UNKNOWN
    salt: bytes | None = None

    @property
    def known(self) -> bool:
        return self.value is not UNKNOWN

    def sealed(self) -> Secret:
        """The secret as a copy without its opening holds it: itself if it is so already (a
        frozen value; a spectator's view seals every card of every state ``log`` tells)."""
        if self.value is UNKNOWN and self.salt is None:
            return self
        return secret_of(self.commitment, self.owners)

    def owned_by(self, seat: int) -> bool:
        return bool(self.owners >> seat & 1)


def _setters(cls) -> tuple:
    """The slot setters of a frozen attrs class, in field order: a value made with its slots
    set directly (attrs' frozen ``__init__`` looks a setter up and calls it for each field, a
    third of the time of making one, and the referee makes several a record)."""
    return tuple(cls.__dict__[a.name].__set__ for a in attrs.fields(cls))


_new = object.__new__
_set_commitment, _set_owners, _set_value, _set_salt = _setters(Secret)


def secret_of(commitment: bytes, owners: int, value=UNKNOWN, salt: bytes | None = None):
    """``Secret(commitment, owners, value, salt)``, its slots set directly (``_setters``)."""
    secret = _new(Secret)
    _set_commitment(secret, commitment)
    _set_owners(secret, owners)
    _set_value(secret, value)
    _set_salt(secret, salt)
    return secret


@attrs.frozen(slots=True)
class Reveal:
    """A public opening of an earlier commitment."""

    commitment: bytes
    salt: bytes
    value: object

    def checks(self) -> bool:
        return commit(self.value, self.salt) == self.commitment


_set_opened, _set_opening_salt, _set_opened_value = _setters(Reveal)


def reveal_of(commitment: bytes, salt: bytes, value) -> Reveal:
    """``Reveal(commitment, salt, value)``, its slots set directly (``_setters``): the
    referee reads one from every reveal record."""
    opening = _new(Reveal)
    _set_opened(opening, commitment)
    _set_opening_salt(opening, salt)
    _set_opened_value(opening, value)
    return opening


def make_secret(value, salt: bytes, owners: int = 0) -> Secret:
    return secret_of(commit(value, salt), owners, value, salt)


def reveal(secret: Secret) -> Reveal:
    """Open ``secret`` in public.  Needs the opening: a sealed secret cannot be revealed."""
    if secret.value is UNKNOWN:
        from ._errors import SecretUnavailable

        raise SecretUnavailable(
            "this copy of the game does not hold that secret", code="no-opening"
        )
    return reveal_of(secret.commitment, secret.salt, secret.value)


def seats_mask(*seats: int) -> int:
    mask = 0
    for s in seats:
        mask |= 1 << s
    return mask


def committed_form(value):
    """``value`` as the log commits to it: a secret is its commitment and owners, whether this
    copy holds its opening or not (tuples are walked).  Two copies compare events by this."""
    if isinstance(value, Secret):
        return ("secret", value.commitment, value.owners)
    if isinstance(value, tuple):
        return tuple(committed_form(v) for v in value)
    return value
