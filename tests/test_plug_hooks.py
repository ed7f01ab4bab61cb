"""The engine asks a trust plug's per-record hooks (``seal``, ``on_request``, ``on_append``,
``joined``, ``waits``, ``due``) of every mode that fills any of them, and skips them only for
a mode that keeps all six as the open mode has them (``OpenTrust.adds_nothing``)."""

from __future__ import annotations

import boardstate as bs
from boardstate.trust import PLUGS
from boardstate.trust.open import OpenTrust

DOTF = "duel-of-the-forces"


class Listening(OpenTrust):
    """The open mode, with every hook heard (and one that makes the game wait, when asked)."""

    def __init__(self) -> None:
        super().__init__()
        self.heard: list[str] = []
        self.hold = False

    def seal(self, game, record):
        self.heard.append("seal")
        return record

    def on_request(self, game, record) -> None:
        self.heard.append("request")

    def on_append(self, game, record) -> None:
        self.heard.append("append")

    def joined(self, game) -> bool:
        self.heard.append("joined")
        return True

    def waits(self, game) -> bool:
        self.heard.append("waits")
        return self.hold

    def due(self, game) -> str:
        return "join" if self.hold else ""


def test_only_the_open_mode_adds_nothing():
    assert {name: plug.adds_nothing for name, plug in PLUGS.items()} == {
        "open": True,
        "peer": False,
        "hosted": False,
        "shared-deck": False,
    }
    assert Listening.adds_nothing is False


def test_a_mode_that_fills_the_hooks_is_asked_on_every_record():
    game = bs.Game.new(bs.get_module(DOTF), ["alice", "bob"], {}, seed=b"h", created="2026-01-01")
    plug = Listening()
    game.trust = plug
    game.play(0, "play 3")
    assert {"seal", "request", "append", "joined", "waits"} <= set(plug.heard)
    plug.hold = True  # (a mode that waits for a join: nobody may act)
    assert game.to_act() == () and not game.is_legal(1, "play 3")
