"""Mental poker's cryptography: a shared deck that no player can see, shuffled by everyone.

Barnett & Smart, "Mental poker revisited" (IMA Cryptography and Coding 2003), over
ristretto255 (a group of prime order l, RFC 9496) as libsodium gives it, through ``rbcl``
(``crypto_core_ristretto255_*``, ``crypto_scalarmult_ristretto255*``).  No field or group
arithmetic is written here: every point and scalar operation, every encoding, hashing to the
group and reducing a scalar is libsodium's.  Every point that comes from a file is checked by
``crypto_core_ristretto255_is_valid_point`` (a canonical encoding of a group element) and
refused if it is the identity; every scalar must be reduced and not zero.

- **Keys.**  Each player's ElGamal key share ``x`` (a scalar from their private secret) and
  public share ``X = xG``, with a Schnorr proof of knowledge (Schnorr 1991), non-interactive by
  Fiat & Shamir ("How to prove yourself", CRYPTO 1986) over a transcript naming the game and the
  seat: nobody can choose a share that cancels another's (a rogue key).  The joint key is
  ``Y = sum X``.
- **Cards.**  Card ``v`` is the point ``M(v) = from_hash(SHA-512("boardstate-card" ‖
  msgpack(v)))``; a face-down card is an ElGamal encryption ``(C1, C2) = (rG, M + rY)``.
- **Shuffles.**  Each player in turn permutes the deck and re-masks every card (adds an
  encryption of the identity), and proves it with a cut-and-choose argument (Sako & Kilian,
  "Receipt-free mix-type voting scheme", EUROCRYPT 1995, the shuffle proof of section 4) at 80
  rounds, non-interactive by Fiat–Shamir: soundness 2^-80.  Each round's shadow deck is
  recomputed by the verifier from its opening, so the proof holds openings only.
- **Draws.**  A partial decryption ``D = xC1`` with a proof that ``log_G X = log_C1 D`` (Chaum &
  Pedersen, "Wallet databases with observers", CRYPTO 1992), non-interactive by Fiat–Shamir over
  a transcript that binds the whole statement (the game, the record, the card's position and
  ciphertext, the seat and its key, the drawer).  ``M = C2 - sum D``.

Every proof is ``c ‖ s`` (64 bytes): the verifier recomputes the commitments from them and
checks the challenge.  Every secret scalar (key shares, masks, nonces) is derived from its
player's private secret (HMAC-SHA-512, reduced by libsodium), never drawn at random, so the
end-of-game audit can make each of them again from the secrets published.
"""

from __future__ import annotations

import hashlib
import hmac

import msgpack
import rbcl

POINT_BYTES = 32
SCALAR_BYTES = 32
PROOF_BYTES = 64
CIPHER_BYTES = 64
SHUFFLE_ROUNDS = 80  # cut-and-choose rounds: a forged shuffle passes with probability 2^-80
IDENTITY = bytes(POINT_BYTES)  # ristretto255's one encoding of the identity

_pack = msgpack.Packer(use_bin_type=True).pack


class BadProof(ValueError):
    """A proof, a point or a scalar that does not check (the reason, in words)."""


# ---------------------------------------------------------------------------------- the group
def scalar_of(data: bytes) -> bytes:
    """A scalar (mod l) from 64 uniform bytes."""
    return rbcl.crypto_core_ristretto255_scalar_reduce(data)


def hash_scalar(*parts) -> bytes:
    """A scalar from a transcript: SHA-512 over its msgpack encoding, reduced mod l."""
    return scalar_of(hashlib.sha512(_pack(list(parts))).digest())


def derived_scalar(secret: bytes, label: bytes) -> bytes:
    """A secret scalar from a private secret and a label (HMAC-SHA-512, reduced; never zero)."""
    out = scalar_of(hmac.digest(secret, label, hashlib.sha512))
    return out if any(out) else derived_scalar(secret, label + b"'")


def check_scalar(s, what: str = "a scalar") -> bytes:
    """``s`` as a scalar of a proof: 32 bytes, reduced mod l (libsodium reduces it to
    itself), not zero."""
    if type(s) is not bytes or len(s) != SCALAR_BYTES:
        raise BadProof(f"{what} is not {SCALAR_BYTES} bytes")
    if not any(s):
        raise BadProof(f"{what} is zero")
    if scalar_of(s + bytes(32)) != s:
        raise BadProof(f"{what} is not reduced")
    return s


def check_point(p, what: str = "a point") -> bytes:
    """``p`` as a point of the group: 32 bytes, a canonical ristretto255 encoding, not the
    identity."""
    if type(p) is not bytes or len(p) != POINT_BYTES:
        raise BadProof(f"{what} is not {POINT_BYTES} bytes")
    if not rbcl.crypto_core_ristretto255_is_valid_point(p):
        raise BadProof(f"{what} is not a ristretto255 point (or not canonically encoded)")
    if p == IDENTITY:
        raise BadProof(f"{what} is the identity")
    return p


def base(s: bytes) -> bytes:
    """``sG``."""
    return rbcl.crypto_scalarmult_ristretto255_base(s)


def mul(s: bytes, p: bytes) -> bytes:
    """``sP`` (libsodium refuses a zero scalar, an invalid point and the identity as a
    result)."""
    try:
        return rbcl.crypto_scalarmult_ristretto255(s, p)
    except (RuntimeError, ValueError, TypeError):
        raise BadProof(
            "a scalar multiple is the identity, or its point is outside the group"
        ) from None


def add(p: bytes, q: bytes) -> bytes:
    return rbcl.crypto_core_ristretto255_add(p, q)


def sub(p: bytes, q: bytes) -> bytes:
    return rbcl.crypto_core_ristretto255_sub(p, q)


def s_add(a: bytes, b: bytes) -> bytes:
    return rbcl.crypto_core_ristretto255_scalar_add(a, b)


def s_sub(a: bytes, b: bytes) -> bytes:
    return rbcl.crypto_core_ristretto255_scalar_sub(a, b)


def s_mul(a: bytes, b: bytes) -> bytes:
    return rbcl.crypto_core_ristretto255_scalar_mul(a, b)


def card_point(value) -> bytes:
    """The point that stands for the card ``value`` (any msgpack value)."""
    key = _pack(value)
    point = _card_points.get(key)
    if point is None:
        digest = hashlib.sha512(b"boardstate-card" + key).digest()
        point = _card_points[key] = rbcl.crypto_core_ristretto255_from_hash(digest)
    return point


_card_points: dict[bytes, bytes] = {}  # (per process: a deck's cards, made once)


# ---------------------------------------------------------------------------------- keys
def key_share(secret: bytes, game_id: bytes) -> tuple[bytes, bytes]:
    """``(x, X)``: a player's ElGamal key share of one game, from their private secret."""
    out = _key_shares.get((secret, game_id))
    if out is None:
        x = derived_scalar(secret, b"boardstate-elgamal" + game_id)
        out = _key_shares[(secret, game_id)] = (x, base(x))
    return out


_key_shares: dict[tuple, tuple] = {}  # (per process, as _peer's chains)


def _challenge(*parts) -> bytes:
    c = hash_scalar(*parts)
    return c if any(c) else hash_scalar(b"again", *parts)


def prove_key(x: bytes, public: bytes, context: tuple) -> bytes:
    """A Schnorr proof of knowledge of ``x`` with ``public = xG``, bound to ``context``."""
    k = derived_scalar(x, b"boardstate-schnorr" + _pack(list(context)))
    c = _challenge(b"boardstate-schnorr", list(context), public, base(k))
    return c + s_add(k, s_mul(c, x))


def check_key(public, proof, context: tuple) -> bytes:
    """``public`` is a point of the group whose discrete log the prover knows (``BadProof``)."""
    check_point(public, "the key share")
    c, s = _split(proof)
    commitment = sub(base(s), mul(c, public))
    if c != _challenge(b"boardstate-schnorr", list(context), public, commitment):
        raise BadProof("the proof of the key share does not check")
    return public


def joint_key(publics) -> bytes:
    out = None
    for p in publics:
        out = p if out is None else add(out, p)
    return out


def _split(proof) -> tuple[bytes, bytes]:
    if type(proof) is not bytes or len(proof) != PROOF_BYTES:
        raise BadProof(f"a proof is not {PROOF_BYTES} bytes")
    return check_scalar(proof[:32], "the proof's challenge"), check_scalar(
        proof[32:], "the proof's response"
    )


# ---------------------------------------------------------------------------------- ElGamal
def opened_deck(values, joint: bytes) -> list[bytes]:
    """The deck before any shuffle: every card encrypted with randomness 1 (anyone can check
    it; the shuffles hide it)."""
    g = base(_ONE)
    return [g + add(card_point(v), joint) for v in values]


_ONE = (1).to_bytes(32, "little")


def check_cipher(c, what: str = "a card") -> tuple[bytes, bytes]:
    if type(c) is not bytes or len(c) != CIPHER_BYTES:
        raise BadProof(f"{what} is not {CIPHER_BYTES} bytes")
    return check_point(c[:32], what), check_point(c[32:], what)


def remask(cipher: bytes, rho: bytes, joint: bytes) -> bytes:
    """The same card under fresh randomness: ``(C1 + rho G, C2 + rho Y)``."""
    return add(cipher[:32], base(rho)) + add(cipher[32:], mul(rho, joint))


def unmask(cipher: bytes, rho: bytes, joint: bytes) -> bytes:
    """The inverse of ``remask``."""
    return sub(cipher[:32], base(rho)) + sub(cipher[32:], mul(rho, joint))


def decryption_share(x: bytes, cipher: bytes) -> bytes:
    return mul(x, cipher[:32])


def _share_transcript(context, public, cipher, share, a, b):
    return (b"boardstate-dleq", list(context), public, cipher, share, a, b)


def prove_share(x: bytes, public: bytes, cipher: bytes, context: tuple) -> tuple[bytes, bytes]:
    """``(D, proof)``: the partial decryption of ``cipher`` under ``x``, and a Chaum–Pedersen
    proof that ``log_G public = log_C1 D``, bound to ``context``."""
    share = decryption_share(x, cipher)
    k = derived_scalar(x, b"boardstate-dleq" + _pack([list(context), cipher]))
    a, b = base(k), mul(k, cipher[:32])
    c = _challenge(*_share_transcript(context, public, cipher, share, a, b))
    return share, c + s_add(k, s_mul(c, x))


def check_share(public: bytes, cipher: bytes, share, proof, context: tuple) -> bytes:
    """``share`` is ``cipher``'s partial decryption under ``public``'s key (``BadProof``)."""
    check_point(share, "the decryption share")
    c, s = _split(proof)
    a = sub(base(s), mul(c, public))
    b = sub(mul(s, cipher[:32]), mul(c, share))
    if c != _challenge(*_share_transcript(context, public, cipher, share, a, b)):
        raise BadProof("the proof of the decryption share does not check")
    return share


def decrypt(cipher: bytes, shares) -> bytes:
    """The card's point, once every player's share is in."""
    out = cipher[32:]
    for d in shares:
        out = sub(out, d)
    return out


def card_of(point: bytes, values) -> object:
    """Which of ``values`` the point stands for (``BadProof`` if none)."""
    for v in values:
        if card_point(v) == point:
            return v
    raise BadProof("the card decrypts to no card of the deck")


# ---------------------------------------------------------------------------------- shuffles
def _permutation(rng_key: bytes, n: int) -> list[int]:
    from ._rng import Rng

    return list(Rng(rng_key, b"permutation").shuffled(range(n)))


def _scalars(key: bytes, n: int) -> list[bytes]:
    return [derived_scalar(key, b"rho:%d" % i) for i in range(n)]


def shuffle(deck: list[bytes], joint: bytes, key: bytes) -> tuple[list[bytes], list[int], list]:
    """``(new deck, perm, rhos)``: ``new[i] = remask(deck[perm[i]], rhos[i])``, the permutation
    and the masks from ``key`` (a secret of the shuffler)."""
    perm, rhos = _permutation(key, len(deck)), _scalars(key, len(deck))
    return [remask(deck[perm[i]], rhos[i], joint) for i in range(len(deck))], perm, rhos


def _shuffle_bits(context, deck_in, deck_out, shadows, rounds: int) -> list[int]:
    h = hashlib.sha512(_pack([b"boardstate-shuffle", list(context), deck_in, deck_out]))
    for shadow in shadows:
        h.update(b"".join(shadow))
    digest = h.digest()
    return [digest[j // 8] >> (j % 8) & 1 for j in range(rounds)]


def prove_shuffle(
    deck_in, deck_out, perm, rhos, joint: bytes, key: bytes, context: tuple, rounds=None
) -> list[bytes]:
    """The cut-and-choose argument that ``deck_out`` is ``deck_in`` permuted and re-masked:
    one opening per round (a 32-byte seed, or the permutation and masks that lead from that
    round's shadow deck to ``deck_out``)."""
    rounds = SHUFFLE_ROUNDS if rounds is None else rounds
    n = len(deck_in)
    seeds = [hmac.digest(key, b"shadow:%d" % j, hashlib.sha256) for j in range(rounds)]
    shadows = [shuffle(deck_in, joint, seed) for seed in seeds]
    bits = _shuffle_bits(context, deck_in, deck_out, [s[0] for s in shadows], rounds)
    out = []
    for j, bit in enumerate(bits):
        if not bit:
            out.append(seeds[j])
            continue
        _, perm_j, rhos_j = shadows[j]
        inverse = [0] * n
        for i, p in enumerate(perm_j):
            inverse[p] = i
        sigma = [inverse[perm[i]] for i in range(n)]
        taus = [s_sub(rhos[i], rhos_j[sigma[i]]) for i in range(n)]
        out.append(bytes(sigma) + b"".join(taus))
    return out


def check_shuffle(deck_in, deck_out, proof, joint: bytes, context: tuple, rounds=None) -> None:
    """``BadProof`` unless ``proof`` shows ``deck_out`` to be a shuffle of ``deck_in``."""
    rounds = SHUFFLE_ROUNDS if rounds is None else rounds
    n = len(deck_in)
    if type(deck_out) not in (list, tuple) or len(deck_out) != n or n > 255:
        raise BadProof("the shuffled deck does not hold the deck's cards")
    for c in deck_out:
        check_cipher(c, "a shuffled card")
    if len(set(deck_out)) != n:
        raise BadProof("the shuffled deck holds one card twice")
    if type(proof) not in (list, tuple) or len(proof) != rounds:
        raise BadProof(f"the shuffle's proof is not {rounds} rounds")
    shadows = []
    for opening in proof:
        if type(opening) is not bytes:
            raise BadProof("a round of the shuffle's proof is malformed")
        if len(opening) == 32:
            shadows.append(shuffle(deck_in, joint, opening)[0])
            continue
        if len(opening) != n + n * SCALAR_BYTES:
            raise BadProof("a round of the shuffle's proof is malformed")
        sigma = list(opening[:n])
        if sorted(sigma) != list(range(n)):
            raise BadProof("a round of the shuffle's proof is not a permutation")
        shadow = [b""] * n
        for i in range(n):
            tau = check_scalar(opening[n + 32 * i : n + 32 * i + 32], "a mask")
            shadow[sigma[i]] = unmask(deck_out[i], tau, joint)
        shadows.append(shadow)
    bits = _shuffle_bits(context, list(deck_in), list(deck_out), shadows, rounds)
    for j, bit in enumerate(bits):
        if bit != (len(proof[j]) != 32):
            raise BadProof("the shuffle's proof does not check (a forged shuffle)")
