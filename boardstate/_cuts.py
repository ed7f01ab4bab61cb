"""A game cut back to its first records: a merge of crossing mail rebuilds the log from the
record where two copies parted (``Game.truncate``).

A copy re-derived by the rules starts from the game as the last cut left it, when the records
before that cut are still the same: merges follow one another in a long game, and re-deriving
from the setup each time made them grow with the square of its length."""

from __future__ import annotations

import attrs

from ._commitments import OnFile
from ._header import Header
from ._records import Record, Row
from ._rederive import Referee
from ._snapshot import SHARED_FIELDS, restored, shared_of, state_bytes, state_from
from ._takeback import Checkpoint


def cut_to(game, count: int) -> None:
    """Keep only the first ``count`` records of ``game`` (the live state folded again)."""
    if game.trust.rebuilt_by_rederiving:  # (what waits for whom: the rules run again)
        shared = game.header.shared  # (a rebuild makes the records again: kept as it was)
        header = game.header
        if shared is not None and shared >= count:
            header = attrs.evolve(header, shared=count - 1 if count else None)
        fresh, done = _cut_before(game, count)
        fresh.header = header
        Referee(fresh, signed=False).run(Row.of(r) for r in game.records[done:count])
        fresh.header = attrs.evolve(fresh.header, shared=shared)
    else:
        fresh = type(game)(game.module, game.header, codes=game.codes)
        for record in game.records[:count]:
            fresh.append(record)
    signer, audit, keep = game.signer, game.audit_secrets, game.keep_canonical
    game.__dict__.update(fresh.__dict__)
    game.signer, game.audit_secrets, game.keep_canonical = signer, audit, keep
    if game.trust.rebuilt_by_rederiving and game.keep_records:
        kept = _copy(game)
        game._last_cut = None if kept is None else [count, game.head_hash, kept]


def _cut_before(game, count: int):
    """``(a game holding the first records of this one, how many)``: the copy of the game
    the last cut left, if the records up to it are unchanged (the hash of the last of
    them: the chain), taken once (a merge refused puts back a game whose kept copy is
    gone); else a new game."""
    cut = game._last_cut
    if cut is not None and cut[2] is not None and cut[0] <= count:
        at, head, kept = cut
        if (game.records[at - 1].hash if at else game.header.game_id) == head:
            cut[2] = None
            kept = kept() if callable(kept) else kept  # (``start_cuts_at``'s, made now)
            if kept is not None:
                return kept, at
    return type(game)(game.module, game.header, codes=game.codes), 0


def start_cuts_at(game, make) -> None:
    """The next cut of ``game`` back to its last record or later may start from the game
    ``make()`` gives (a copy of ``game`` as it is now, or None), made only if a cut asks: the
    game a checked read started from its saved state (``_checked``), so that a merge does not
    re-derive the log from the setup."""
    game._last_cut = [game.seq, game.head_hash, make]


def _copy(game):
    """An independent copy: what appends change is copied (``_snapshot``, pickled: quicker
    than ``copy.deepcopy``); the records, headers, takebacks' checkpoints, the commitments
    left on file and the module's states, values that appends replace and never change, are
    shared.  None if a value cannot be copied (a module's read-only mapping: the cut
    re-derives from the setup)."""
    states = [game.state, game._facts_of, game._facts_cache]  # (states are values: a module's
    pending = getattr(game.trust, "pending", None)  # state is never changed in place)
    if pending is not None:
        states.append(pending.base)
    shared = shared_of(game, (), game.signer, *states)
    try:
        fields = state_from(state_bytes(game, shared, (Header, Record, Checkpoint, OnFile)), shared)
    except Exception:  # (pickle's complaints about a value it cannot copy)
        return None
    kept = object.__new__(type(game))
    kept.__dict__.update({name: getattr(game, name) for name in SHARED_FIELDS})
    restored(kept, fields, game.records.copy())  # (a log left in its file stays there)
    kept.signer = game.signer
    return kept
