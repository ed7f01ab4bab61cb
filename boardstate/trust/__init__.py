"""Trust modes as plugs: what a mode adds to a game's log, chosen once from the header.

A game (``boardstate._game.Game``) keeps the log and its fold; it never asks which mode it is
in.  It asks its plug (``plug_for(header)``):

- ``start(game)`` / ``decide(game, moves, openings)``: the rules' events now, and what the
  decision waits for (the peer mode: the players' shares of the randomness);
- ``rng(game, seq)``: the randomness of a record (a seed, a key from the players' nonces, or
  none in this copy);
- ``seal(game, record)``: what a made record needs besides its body (a signature, letters, the
  player's request);
- ``check_signature(game, record)``: what a copy checks of a record it did not make;
- ``on_append(game, record)``: what the mode learns from a record (keys, links, requests);
- ``due(game)`` / ``waiting_for(game)``: what the game waits for before anyone may act.

A plug that keeps ``seal``, ``on_request``, ``on_append``, ``joined``, ``waits`` and ``due`` as
``OpenTrust`` has them is not asked them (``OpenTrust.adds_nothing``, the open mode: told of a
class when it is made, of a plug when one of them is set on it).

Each mode is one module of this package and imports no ``Game``: ``open`` (hot seat and
open play by mail), ``peer`` (no third party: every player signs, randomness from everyone's
share), ``hosted`` (a judge makes every record from the players' signed requests) and
``shared_deck`` (the peer mode with one deck nobody can see, dealt without a dealer: mental
poker).  A
fourth mode is one new module, one entry in ``PLUGS``, and its tests.  See docs/trust.md for
what each mode protects, and docs/architecture.md for where the plugs sit.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module

from .._lazy import on_first_use_names


class _Plugs(Mapping):
    """Mode name -> plug class, each imported when a game in that mode first asks for it: the
    shared deck's group arithmetic (``rbcl``, libsodium's ristretto255) was a third of the
    start-up of a command on any other game, and an open game needs none of the signed modes'
    code (issue 29)."""

    _WHERE = {
        "open": (".open", "OpenTrust"),
        "peer": (".peer", "PeerTrust"),
        "hosted": (".hosted", "HostedTrust"),
        "shared-deck": (".shared_deck", "SharedDeckTrust"),
    }

    def __getitem__(self, mode: str):
        module, name = self._WHERE[mode]
        return getattr(import_module(module, __name__), name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._WHERE)

    def __len__(self) -> int:
        return len(self._WHERE)


PLUGS: Mapping[str, type] = _Plugs()


def plug_for(header):
    """The trust plug of a game with ``header`` (its ``trust`` field names the mode)."""
    return PLUGS[header.trust]()


# (each plug's class, imported on first use as in PLUGS)
__getattr__, __dir__ = on_first_use_names(
    globals(), {plug: module[1:] for module, plug in _Plugs._WHERE.values()}
)


__all__ = ["PLUGS", "HostedTrust", "OpenTrust", "PeerTrust", "SharedDeckTrust", "plug_for"]
