"""Determinization: one state consistent with what a seat sees, its hidden values filled in.

A seat's view (``rules.view(state, seat)``) holds the secrets it may not know as ``Secret`` with
the value ``UNKNOWN``.  ``determinize`` fills them with values consistent with that view alone
(never with the true state): what a bot searches on, and what OpenSpiel calls
``resample_from_infostate``.  A module says how, in one of two ways:

- ``unseen(view, seat)``: the multiset of the values its hidden secrets hold (the cards left of
  a published deck list, less what the seat sees); the kit's default then deals them to the
  hidden secrets at random.  ``pinned(view, seat)`` (optional) maps commitments to the values
  the seat knows they hold all the same (a hand it was shown, as copies of its own).
- ``determinize(view, seat, rng)``: the module's own, when hidden values are not one public
  multiset (each player's deck) or another seat has a command face down on the table: it
  returns the state, or a ``Determinized`` with the face-down commands guessed from what
  their players could have chosen.

A view with nothing hidden needs neither: it is its own determinization.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from ._secrets import UNKNOWN, Secret


class Determinized(NamedTuple):
    """A state the rules can play on, and the face-down commands of the other seats.

    ``face_down`` maps a seat to the command it has laid face down and not yet turned over
    (guessed: drawn from the commands that seat could have laid, given its own information);
    the determinizing seat's own face-down command is not in it (it knows it)."""

    state: object
    face_down: dict


def determinize(module, view_state, seat: int, rng) -> Determinized:
    """A state consistent with ``view_state`` (``seat``'s view), every value hidden from
    ``seat`` filled in, and the other seats' face-down commands guessed.

    ``rng`` is a ``random.Random``: the caller's own randomness, never the game's.  The result
    folds to the same view: ``rules.view(result.state, seat) == view_state``.  The module's
    ``determinize`` part answers if it has one; else the kit deals the multiset ``unseen``
    names.  Raises ``TypeError`` for a view that hides values from a module that names
    neither."""
    rules = module.rules
    own = getattr(rules, "determinize", None)
    if own is not None:
        made = own(view_state, seat, rng)
        return made if type(made) is Determinized else Determinized(made, {})
    return Determinized(default_determinize(rules, view_state, seat, rng), {})


def default_determinize(rules, view, seat: int, rng):
    """The kit's default: deal ``rules.unseen(view, seat)`` to the hidden secrets at random
    (``rules.pinned`` first, if given)."""
    if not unknown_secrets(view):
        return view
    unseen = getattr(rules, "unseen", None)
    if unseen is None:
        raise TypeError(
            f"{type(rules).__name__} hides values from a seat's view but gives no "
            "'unseen' or 'determinize' part to fill them in"
        )
    pinned = getattr(rules, "pinned", None)
    return fill_unknown(view, rng, unseen(view, seat), pinned(view, seat) if pinned else None)


def unknown_secrets(state) -> dict[bytes, Secret]:
    """The secrets of ``state`` whose value this copy does not hold, by commitment, in the
    order a walk of the state meets them (tuples and named tuples are walked; a secret met
    twice is one)."""
    found: dict[bytes, Secret] = {}
    _walk(state, found)
    return found


def _walk(value, found: dict) -> None:
    if type(value) is Secret:
        if value.value is UNKNOWN:
            found.setdefault(value.commitment, value)
    elif isinstance(value, tuple):
        for item in value:
            if isinstance(item, (tuple, Secret)):
                _walk(item, found)


def fill_unknown(state, rng, pool, pinned=None):
    """``state`` with each secret of unknown value given one: ``pinned`` (commitment -> value)
    first, then the rest of ``pool`` (the multiset of every hidden secret's value, pinned ones
    included) shuffled with ``rng``.  Raises ``ValueError`` when the pool does not fit."""
    hidden = unknown_secrets(state)
    if not hidden:
        return state
    left = Counter(pool)
    values: dict[bytes, object] = {}
    for commitment, value in (pinned or {}).items():
        if commitment in hidden and commitment not in values:
            if left[value] <= 0:
                raise ValueError(f"a pinned value {value!r} is not in the pool")
            left[value] -= 1
            values[commitment] = value
    rest = list(left.elements())
    free = [c for c in hidden if c not in values]
    if len(rest) != len(free):
        raise ValueError(
            f"{len(free)} hidden values to fill from a pool of {len(rest)} (the module's "
            "'unseen' does not count what the view hides)"
        )
    rng.shuffle(rest)
    values.update(zip(free, rest))
    return with_values(state, values)


def with_values(state, values: dict):
    """``state`` with the secrets named in ``values`` (commitment -> value) holding them
    (unchanged parts are shared, not copied)."""

    def fill(value):
        if type(value) is Secret:
            if value.value is UNKNOWN and value.commitment in values:
                return Secret(value.commitment, value.owners, values[value.commitment], b"")
            return value
        if not isinstance(value, tuple):
            return value
        items = [fill(v) if isinstance(v, (tuple, Secret)) else v for v in value]
        if all(a is b for a, b in zip(items, value)):
            return value
        make = getattr(type(value), "_make", None)
        return make(items) if make is not None else type(value)(items)

    return fill(state)
