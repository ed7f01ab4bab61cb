"""The engine asks a trust plug's per-record hooks (``seal``, ``on_request``, ``on_append``,
``joined``, ``waits``, ``due``) of every mode that fills any of them, and skips them only for
a mode that keeps all six as the open mode has them (``OpenTrust.adds_nothing``)."""

from __future__ import annotations

import pytest

import boardstate as bs
from boardstate._records import Row
from boardstate._rederive import Referee
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


_HOOKS = ("seal", "on_request", "on_append", "joined", "waits", "due")


def _one_hook(name: str) -> type:
    """A plug that fills only ``name``: it answers as the open mode does, and is heard."""

    def heard(self, game, *args):
        self.heard.append(name)
        return getattr(OpenTrust, name)(self, game, *args)

    def __init__(self) -> None:
        OpenTrust.__init__(self)
        self.heard = []

    return type(f"Only_{name}", (OpenTrust,), {"__init__": __init__, name: heard})


@pytest.mark.parametrize("name", _HOOKS)
def test_a_mode_filling_one_hook_is_asked_it(name):
    """Each hook alone makes a mode one the engine asks (``__init_subclass__`` looks at all
    six), and both the player's path and the referee's ask it."""
    plug_class = _one_hook(name)
    assert plug_class.adds_nothing is False
    module = bs.get_module(DOTF)
    game = bs.Game.new(module, ["alice", "bob"], {}, seed=b"h", created="2026-01-01")
    game.trust = plug_class()
    game.play(0, "play 3")
    game.play(1, "play 5")
    asked_in_play = set(game.trust.heard)
    fresh = bs.Game(module, game.header)
    fresh.trust = plug = plug_class()
    Referee(fresh).run(Row.of(r) for r in game.records)
    assert fresh.head_hash == game.head_hash
    if name != "due":  # (a player's path asks what is due through ``Game.due`` only where
        assert name in asked_in_play  # it waits: the referee asks it of every record)
    assert name in plug.heard


def test_the_referee_refuses_a_record_while_a_mode_waits():
    """The referee's own question (``due``) asked of a mode that fills nothing else."""

    class Waiting(OpenTrust):
        def due(self, game) -> str:
            return "join" if game.seq > 0 else ""  # (after the setup)

    module = bs.get_module(DOTF)
    game = bs.Game.new(module, ["alice", "bob"], {}, seed=b"h", created="2026-01-01")
    game.play(0, "play 3")
    fresh = bs.Game(module, game.header)
    fresh.trust = Waiting()
    with pytest.raises(bs.VerificationFailed) as failed:
        Referee(fresh).run(Row.of(r) for r in game.records)
    assert failed.value.code == "waiting"


@pytest.mark.parametrize("name", _HOOKS)
def test_a_hook_filled_on_one_plug_is_asked(name):
    """A hook set on a plug (not its class: a test's spy, ``monkeypatch.setattr``) is asked
    as a class's would be."""
    heard = []

    def spy(game, *args):
        heard.append(name)
        return getattr(OpenTrust, name)(plug, game, *args)

    module = bs.get_module(DOTF)
    game = bs.Game.new(module, ["alice", "bob"], {}, seed=b"h", created="2026-01-01")
    game.play(0, "play 3")
    fresh = bs.Game(module, game.header)
    plug = fresh.trust
    setattr(plug, name, spy)
    assert plug.adds_nothing is False and type(plug).adds_nothing is True
    Referee(fresh).run(Row.of(r) for r in game.records)
    fresh.play(1, "play 5")
    assert name in heard


def test_a_mode_asked_anyway_sets_its_fields_plainly():
    """Only a mode whose hooks may be skipped looks at what is set on it."""
    assert OpenTrust.__setattr__ is not object.__setattr__
    for name, plug in PLUGS.items():
        assert (plug.__setattr__ is object.__setattr__) is (not plug.adds_nothing), name
