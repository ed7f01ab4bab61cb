"""The shared-deck mode's cryptography (``boardstate._mental``): test vectors, and every proof
refused for another statement, a tampered transcript, a point outside the group and a zero
scalar."""

from __future__ import annotations

import hashlib

import pytest

from boardstate import _mental as m

GAME = bytes(range(32))
SECRET = bytes([7]) * 32
ROUNDS = 8  # (the full 80 rounds: ``test_a_full_shuffle_proof_checks_and_a_forged_one_fails``)

# A point outside the prime-order subgroup (of order 8: on the curve, of small order), one not
# on the curve at all, and one whose encoding is not canonical.
SMALL_ORDER = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
NOT_ON_CURVE = bytes([2]) + bytes(31)
NOT_CANONICAL = bytes([0xFF] * 31 + [0x7F])
ZERO = bytes(32)


def keys():
    return m.key_share(SECRET, GAME)


# ---------------------------------------------------------------------------------- vectors
def test_vectors():
    """Fixed inputs give these outputs on every machine (libsodium's arithmetic, SHA-2, msgpack):
    a change to an encoding or a transcript changes one of them."""
    x, public = keys()
    assert x.hex() == "8a56308118a1321636ad9669e9e76c67cb72cd21350b9c397bc0483692a75f04"
    assert public.hex() == "5c3bebbb80bbfda315637cf6b3cab45310989a35b6b2143cc7382e7f83a783b6"
    assert m.prove_key(x, public, (GAME, 0)).hex() == (
        "4948c8ccc49b353645dbc0f5b9f60cf449c08924f61d745bb170fa241bea1b07"
        "77a1368af2ddc87686dedf9bc20b34f7d7173605c2f9505809ea0805bef58a0c"
    )
    assert m.card_point(0).hex() == (
        "7c0465f7f74f6b511c6a2c4611e9d4b069af2ffad219c4a1e49511cef73da9ce"
    )
    deck = m.opened_deck(range(3), public)
    assert deck[0].hex() == (
        "5866666666666666666666666666666666666666666666666666666666666666"
        "4ac19fa787458fa0500b65a0bcd3ac72f1651f8535e2371f2734890e16b3d1e3"
    )
    share, proof = m.prove_share(x, public, deck[1], (GAME, 4, 1, 0, 1))
    assert share == public  # (the opened deck's C1 is G: the share of x is xG)
    assert proof.hex() == (
        "565de7be02c37eb92c3cdbe580411a180dace613691acdc33a0b301e9470a003"
        "e5bf36da188657762bde023e39c9bbdfba49e70ef5c8b1d05cdbf02fb3783f09"
    )
    out, perm, rhos = m.shuffle(deck, public, bytes([9]) * 32)
    assert perm == [2, 0, 1]
    digest = hashlib.sha256(b"".join(out)).hexdigest()
    assert digest == "4a7e4a50dae852df48e94feec479ee16b4c1a71961a5a25044d0480109d08516"
    proof = m.prove_shuffle(deck, out, perm, rhos, public, bytes([5]) * 32, (GAME, 0), ROUNDS)
    assert [len(o) for o in proof] == [32, 32, 32, 99, 32, 99, 32, 32]
    digest = hashlib.sha256(b"".join(proof)).hexdigest()
    assert digest == "25211ac58206f0c6d6e3288836b89fcdc43cac0ade39765dbce18c3faec572aa"


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
        lambda: m.check_key(SMALL_ORDER, proof, (GAME, 0)),
        lambda: m.check_key(NOT_ON_CURVE, proof, (GAME, 0)),
        lambda: m.check_key(NOT_CANONICAL, proof, (GAME, 0)),
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
        lambda: m.check_share(public, deck[2], SMALL_ORDER, proof, context),
        lambda: m.check_share(public, deck[2], NOT_ON_CURVE, proof, context),
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
        "a point outside the group": lambda: m.check_shuffle(
            deck, [SMALL_ORDER + out[0][32:], *out[1:]], proof, joint, (GAME, 0), ROUNDS
        ),
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
