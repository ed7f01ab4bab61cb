"""``Commitments``, every commitment a game has made (``boardstate/_commitments.py``): a set of
32-byte digests, as a ``set`` answers, across its merges of the newest into the sorted bytes,
pickled and copied; and a commitment made again is still refused once they are merged."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from boardstate._commitments import _MERGE_AT, Commitments


@pytest.mark.parametrize("count", [0, 1, 7, _MERGE_AT - 1, _MERGE_AT, 3 * _MERGE_AT + 5])
def test_it_answers_as_a_set_of_bytes(count):
    pick = random.Random(count)
    held, same = Commitments(), set()
    made = [pick.randbytes(32) for _ in range(count)]
    for i, commitment in enumerate(made):
        assert (commitment in held) is (commitment in same) is False
        held.add(commitment)
        same.add(commitment)
        if i % 5 == 0:  # (one made before, added again: held once)
            again = made[pick.randrange(i + 1)]
            held.update([again])
            assert again in held
    assert held == same and len(held) == len(same)
    assert list(held) == sorted(same)
    for other in (pick.randbytes(32) for _ in range(200)):
        assert (other in held) is (other in same)
    assert b"short" not in held and "text" not in held
    assert held.packed() == b"".join(sorted(same))


def test_pickled_and_copied_it_is_the_same_set_and_copies_part():
    pick = random.Random(1)
    held = Commitments()
    held.update(pick.randbytes(32) for _ in range(_MERGE_AT + 10))
    assert pickle.loads(pickle.dumps(held, pickle.HIGHEST_PROTOCOL)) == held
    for other in (copy.copy(held), copy.deepcopy(held), Commitments(held.packed())):
        new = pick.randbytes(32)
        other.add(new)
        assert new in other and new not in held and other != held


def test_only_32_byte_commitments_are_held():
    held = Commitments()
    with pytest.raises(ValueError):
        held.add(b"x" * 31)
    with pytest.raises(ValueError):
        held.add("x" * 32)
    with pytest.raises(ValueError):
        Commitments(b"x" * 33)


def test_a_commitment_made_again_after_a_merge_is_refused():
    """The game's own check (a signed choice replayed) on the compact form: a commitment
    merged into the sorted bytes long ago is still found."""
    import boardstate as bs
    from boardstate._secrets import Secret

    game = bs.Game.new(bs.get_module("duel-of-the-forces"), ["ann", "ben"], {}, seed=b"c")
    pick = random.Random(2)
    old = pick.randbytes(32)
    game.committed.add(old)
    game.committed.update(pick.randbytes(32) for _ in range(2 * _MERGE_AT))
    assert old not in game.committed._recent  # (merged into the sorted bytes)
    with pytest.raises(bs.IllegalCommand) as refused:
        game.check_commit(0, Secret(old, 1))
    assert refused.value.code == "replayed"


@pytest.mark.parametrize(
    ("on_file", "new"), [(0, 0), (0, 5), (1, 0), (5, 5), (3000, 10), (40, 2 * _MERGE_AT + 3)]
)
def test_commitments_left_on_file_with_new_ones_answer_as_a_set(tmp_path, on_file, new):
    """A copy read from its saved game finds the old commitments in the file (``OnFile``) and
    streams them into the next one with the new ones put in their places (``chunks``): the
    same sorted digests as a set of all of them, none twice (some added again), copies apart."""
    import os

    from boardstate._commitments import OnFile

    pick = random.Random(on_file * 7 + new)
    saved = sorted({pick.randbytes(32) for _ in range(on_file)})
    path = tmp_path / "commitments"
    path.write_bytes(b"".join(saved))
    held, same = Commitments(b"", OnFile(os.open(path, os.O_RDONLY), 0, len(saved))), set(saved)
    for commitment in [pick.randbytes(32) for _ in range(new)] + saved[::7]:
        held.add(commitment)
        same.add(commitment)
    assert b"".join(held.chunks()) == held.packed() == b"".join(sorted(same))
    assert len(held) == len(same) and all(c in held for c in same)
    assert not any(pick.randbytes(32) in held for _ in range(50))
    other = copy.copy(held)
    one_more = pick.randbytes(32)
    other.add(one_more)
    assert one_more in other and one_more not in held
    assert pickle.loads(pickle.dumps(held)) == held
