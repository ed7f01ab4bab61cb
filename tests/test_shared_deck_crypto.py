"""The shared-deck mode's cryptography (``boardstate._mental``): test vectors, and every proof
refused for another statement, a tampered transcript, a point outside the group and a zero
scalar."""

from __future__ import annotations

import hashlib

import pytest
import rbcl

from boardstate import _mental as m

GAME = bytes(range(32))
SECRET = bytes([7]) * 32
ROUNDS = 8  # (the full 80 rounds: ``test_a_full_shuffle_proof_checks_and_a_forged_one_fails``)

# Encodings ristretto255 refuses (RFC 9496, appendix A.2): a field element not reduced, a
# negative one, one whose square root does not exist; the Edwards encoding of the base point
# (a point of Ed25519, not an encoding of ristretto255); and the identity, a valid encoding
# that no key, share or card may be.
NOT_CANONICAL = bytes.fromhex("00" + "ff" * 31)
NEGATIVE = bytes.fromhex("01" + "00" * 31)
NOT_A_POINT = bytes.fromhex("26948d35ca62e643e26a83177332e6b6afeb9d08e4268b650f1f5bbd8d81d371")
EDWARDS_BASE = bytes.fromhex("58" + "66" * 31)
IDENTITY = bytes(32)
OUTSIDE = (NOT_CANONICAL, NEGATIVE, NOT_A_POINT, EDWARDS_BASE, IDENTITY)
ZERO = bytes(32)


def keys():
    return m.key_share(SECRET, GAME)


# ---------------------------------------------------------------------------------- vectors
def test_vectors():
    """Fixed inputs give these outputs on every machine (libsodium's arithmetic, SHA-2, msgpack):
    a change to an encoding or a transcript changes one of them."""
    x, public = keys()
    assert x.hex() == "8a56308118a1321636ad9669e9e76c67cb72cd21350b9c397bc0483692a75f04"
    assert public.hex() == "e8664770e6a644d0f075ea888c5a93c228560dfbf8279d1b02b2d65004208d16"
    assert m.prove_key(x, public, (GAME, 0)).hex() == (
        "00f1daa7a2e754d4cb05633f29d15840fe60d16db6aa1e96fdc96fb1719cd90e"
        "2f58153dcd573cd72e42215412a7f9582b908a1b7d83b70c6d76597556f71705"
    )
    assert m.card_point(0).hex() == (
        "9acdf1d1c2b4e95fdddd2e3e20c56ff82516876ed2bc6470d764e440adec0106"
    )
    deck = m.opened_deck(range(3), public)
    assert deck[0].hex() == (
        "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76"
        "768b6bfd276605f9882339ef2bbbe58e344f200a8cdf3dfbc9f675182d862c36"
    )
    share, proof = m.prove_share(x, public, deck[1], (GAME, 4, 1, 0, 1))
    assert share == public  # (the opened deck's C1 is G: the share of x is xG)
    assert proof.hex() == (
        "66d14b66b1b76de77d954194bd242e15948b5a44998f514ed20d28e49fafd005"
        "ff92a08a517117170597ded68d13443bba762c85b05acea08fdb72c04dcfa505"
    )
    out, perm, rhos = m.shuffle(deck, public, bytes([9]) * 32)
    assert perm == [2, 0, 1]
    digest = hashlib.sha256(b"".join(out)).hexdigest()
    assert digest == "c3c36d3c3c8bf51a6cf21ed8cdf1498d86ae4f4dbab55651b487548651933ba3"
    proof = m.prove_shuffle(deck, out, perm, rhos, public, bytes([5]) * 32, (GAME, 0), ROUNDS)
    assert [len(o) for o in proof] == [99, 32, 32, 99, 99, 32, 99, 32]
    digest = hashlib.sha256(b"".join(proof)).hexdigest()
    assert digest == "6f2a4117fadd4e625f4d010c0dab73693efd58cc44a0ea81878411455309afc3"


def test_the_group_is_ristretto255_as_rfc_9496_gives_it():
    """RFC 9496's own vectors (appendix A.1, A.3): multiples of the generator and a hash to
    the group; every bad encoding of A.2 used here, the Edwards one and the identity refused as
    points; a zero or unreduced scalar refused, and a multiple that would be the identity."""
    one, two = (1).to_bytes(32, "little"), (2).to_bytes(32, "little")
    assert m.base(one).hex() == "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76"
    assert m.base(two).hex() == "6a493210f7499cd17fecb510ae0cea23a110e8d5b901f8acadd3095c73a3b919"
    espresso = hashlib.sha512(b"Ristretto is traditionally a short shot of espresso coffee")
    assert rbcl.crypto_core_ristretto255_from_hash(espresso.digest()).hex() == (
        "3066f82a1a747d45120d1740f14358531a8f04bbffe6a819f86dfe50f44a0a46"
    )
    assert m.check_point(m.base(two)) == m.base(two)
    for p in OUTSIDE:
        with pytest.raises(m.BadProof):
            m.check_point(p)
    order = bytes.fromhex("edd3f55c1a631258d69cf7a2def9de14" + "00" * 15 + "10")
    for s in (ZERO, order, b"\xff" * 32, one[:31]):
        with pytest.raises(m.BadProof):
            m.check_scalar(s)
    assert m.check_scalar(m.s_sub(ZERO, one)) == m.s_sub(ZERO, one)  # l - 1: the largest
    with pytest.raises(m.BadProof):  # lG is the identity: libsodium refuses it
        m.mul(order, m.base(one))
    with pytest.raises(m.BadProof):
        m.mul(one, IDENTITY)


def test_cards_are_distinct_points_of_the_group_and_decrypt_back():
    points = [m.card_point(v) for v in range(54)]
    assert len(set(points)) == 54 and all(m.check_point(p) for p in points)
    x, public = keys()
    x2, public2 = m.key_share(b"another player" + bytes(18), GAME)
    joint = m.joint_key([public, public2])
    deck = m.opened_deck(range(54), joint)
    deck, _perm, _rhos = m.shuffle(deck, joint, b"k" * 32)
    for cipher in deck[:5]:
        shares = [m.decryption_share(x, cipher), m.decryption_share(x2, cipher)]
        assert m.card_of(m.decrypt(cipher, shares), range(54)) in range(54)
        with pytest.raises(m.BadProof):  # (one share alone decrypts to no card)
            m.card_of(m.decrypt(cipher, shares[:1]), range(54))


# ---------------------------------------------------------------------------------- Schnorr
def test_a_key_proof_checks_for_its_statement_only():
    x, public = keys()
    proof = m.prove_key(x, public, (GAME, 0))
    assert m.check_key(public, proof, (GAME, 0)) == public
    other = m.key_share(b"x" * 32, GAME)[1]
    for bad in (
        lambda: m.check_key(public, proof, (GAME, 1)),  # another seat
        lambda: m.check_key(public, proof, (bytes(32), 0)),  # another game
        lambda: m.check_key(other, proof, (GAME, 0)),  # another key (a rogue key)
        lambda: m.check_key(public, _flip(proof, 3), (GAME, 0)),  # a tampered challenge
        lambda: m.check_key(public, _flip(proof, 40), (GAME, 0)),  # a tampered response
        *(lambda p=p: m.check_key(p, proof, (GAME, 0)) for p in OUTSIDE),
        lambda: m.check_key(public, ZERO + proof[32:], (GAME, 0)),  # a zero challenge
        lambda: m.check_key(public, proof[:32] + ZERO, (GAME, 0)),  # a zero response
        lambda: m.check_key(public, proof[:32] + b"\xff" * 32, (GAME, 0)),  # not reduced
        lambda: m.check_key(public, proof[:63], (GAME, 0)),
    ):
        with pytest.raises(m.BadProof):
            bad()


# ---------------------------------------------------------------------------------- DLEQ
def test_a_decryption_share_checks_for_its_statement_only():
    x, public = keys()
    joint = m.joint_key([public, m.key_share(b"y" * 32, GAME)[1]])
    deck, _perm, _rhos = m.shuffle(m.opened_deck(range(4), joint), joint, b"s" * 32)
    context = (GAME, 12, 2, 1, 0)  # game, record, position, drawer, seat
    share, proof = m.prove_share(x, public, deck[2], context)
    assert m.check_share(public, deck[2], share, proof, context) == share
    wrong = m.decryption_share(m.key_share(b"z" * 32, GAME)[0], deck[2])
    for bad in (
        lambda: m.check_share(public, deck[3], share, proof, context),  # another card
        lambda: m.check_share(public, deck[2], share, proof, (GAME, 13, 2, 1, 0)),  # record
        lambda: m.check_share(public, deck[2], share, proof, (GAME, 12, 3, 1, 0)),  # position
        lambda: m.check_share(public, deck[2], share, proof, (GAME, 12, 2, 0, 0)),  # drawer
        lambda: m.check_share(public, deck[2], wrong, proof, context),  # a wrong share
        lambda: m.check_share(joint, deck[2], share, proof, context),  # another key
        lambda: m.check_share(public, deck[2], share, _flip(proof, 0), context),
        lambda: m.check_share(public, deck[2], share, _flip(proof, 63), context),
        *(lambda p=p: m.check_share(public, deck[2], p, proof, context) for p in OUTSIDE),
        lambda: m.check_share(public, deck[2], share, proof[:32] + b"\xff" * 32, context),
        lambda: m.check_share(public, deck[2], share, ZERO + proof[32:], context),
        lambda: m.check_share(public, deck[2], share, proof[:32] + ZERO, context),
    ):
        with pytest.raises(m.BadProof):
            bad()
    # A share replayed for another card: the right share of that card, with this proof, fails.
    replayed = m.decryption_share(x, deck[3])
    with pytest.raises(m.BadProof):
        m.check_share(public, deck[3], replayed, proof, context)


# ---------------------------------------------------------------------------------- shuffles
def _deck(n=6):
    x, public = keys()
    joint = m.joint_key([public, m.key_share(b"y" * 32, GAME)[1]])
    return m.opened_deck(range(n), joint), joint


def test_a_shuffle_proof_checks_for_its_statement_only():
    deck, joint = _deck()
    out, perm, rhos = m.shuffle(deck, joint, b"p" * 32)
    proof = m.prove_shuffle(deck, out, perm, rhos, joint, b"q" * 32, (GAME, 0), ROUNDS)
    m.check_shuffle(deck, out, proof, joint, (GAME, 0), ROUNDS)
    opened = [i for i, o in enumerate(proof) if len(o) != 32][0]
    n = len(deck)
    swapped = list(out)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    cases = {
        "another statement": lambda: m.check_shuffle(deck, out, proof, joint, (GAME, 1), ROUNDS),
        "another deck out": lambda: m.check_shuffle(deck, swapped, proof, joint, (GAME, 0), ROUNDS),
        "another key": lambda: m.check_shuffle(deck, out, proof, deck[0][:32], (GAME, 0), ROUNDS),
        "a tampered seed": lambda: m.check_shuffle(
            deck,
            out,
            _put(proof, proof.index(next(o for o in proof if len(o) == 32)), b"s" * 32),
            joint,
            (GAME, 0),
            ROUNDS,
        ),
        "a tampered mask": lambda: m.check_shuffle(
            deck, out, _put(proof, opened, _flip(proof[opened], n + 5)), joint, (GAME, 0), ROUNDS
        ),
        "a zero mask": lambda: m.check_shuffle(
            deck,
            out,
            _put(proof, opened, proof[opened][:n] + ZERO + proof[opened][n + 32 :]),
            joint,
            (GAME, 0),
            ROUNDS,
        ),
        "not a permutation": lambda: m.check_shuffle(
            deck,
            out,
            _put(proof, opened, bytes([0]) * n + proof[opened][n:]),
            joint,
            (GAME, 0),
            ROUNDS,
        ),
        **{
            f"a card with {p.hex()[:8]}": lambda p=p: m.check_shuffle(
                deck, [p + out[0][32:], *out[1:]], proof, joint, (GAME, 0), ROUNDS
            )
            for p in OUTSIDE
        },
        "a card twice": lambda: m.check_shuffle(
            deck, [out[0], out[0], *out[2:]], proof, joint, (GAME, 0), ROUNDS
        ),
        "a round short": lambda: m.check_shuffle(deck, out, proof[:-1], joint, (GAME, 0), ROUNDS),
    }
    for name, bad in cases.items():
        with pytest.raises(m.BadProof):
            bad()
            pytest.fail(name)


def test_a_substituted_card_cannot_be_proven_a_shuffle():
    """The shuffler swaps one card for a card of their choice (a second ace): whatever
    openings they choose, the proof does not check; to pass, every one of the rounds' challenge
    bits must fall the way they guessed (here: 8 rounds, tried a few times; at 80, 2^-80)."""
    deck, joint = _deck()
    out, perm, rhos = m.shuffle(deck, joint, b"p" * 32)
    forged = list(out)
    forged[0] = m.remask(m.opened_deck([0], joint)[0], rhos[0], joint)  # another card
    for attempt in range(3):
        proof = m.prove_shuffle(
            deck, forged, perm, rhos, joint, b"q%d" % attempt + bytes(30), (GAME, 0), ROUNDS
        )
        with pytest.raises(m.BadProof):
            m.check_shuffle(deck, forged, proof, joint, (GAME, 0), ROUNDS)


def test_a_full_shuffle_proof_checks_and_a_forged_one_fails():
    """The real thing: 54 cards, 80 rounds (about 70 KB; seconds of CPU each way)."""
    deck, joint = _deck(54)
    out, perm, rhos = m.shuffle(deck, joint, b"p" * 32)
    proof = m.prove_shuffle(deck, out, perm, rhos, joint, b"q" * 32, (GAME, 0))
    assert len(proof) == m.SHUFFLE_ROUNDS and sum(map(len, proof)) < 100_000
    m.check_shuffle(deck, out, proof, joint, (GAME, 0))
    with pytest.raises(m.BadProof):
        m.check_shuffle(deck, out[::-1], proof, joint, (GAME, 0))


def _flip(data: bytes, i: int) -> bytes:
    return data[:i] + bytes([data[i] ^ 1]) + data[i + 1 :]


def _put(seq, i, value):
    out = list(seq)
    out[i] = value
    return out
