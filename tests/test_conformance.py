"""The conformance suite every installed module must pass (docs/writing-a-module.md, "Testing").

The suite itself ships with the package (``boardstate.testing``, ``boardstate check MODULE``):
here it runs on every installed module, one test per check, so a failure names module and check.
"""

from __future__ import annotations

import re

import pytest

import boardstate as bs
from boardstate.testing import CHECKS
from conftest import all_modules

MODULES = all_modules()
SEEDS = range(60)
LONG_GAMES = {"epic-duels": range(12)}
"""A game of Epic Duels is 250-700 commands, ten times a Duel of the Forces game: fewer seeds
give the suite as many commands to check (and the suite's time stays near a minute)."""


@pytest.mark.parametrize("check", CHECKS, ids=[c.__name__ for c in CHECKS])
@pytest.mark.parametrize("module", MODULES, ids=[m.spec.id for m in MODULES])
def test_module_conforms(module, check):
    assert check(module, LONG_GAMES.get(module.spec.id, SEEDS)) > 0


def test_the_shipped_modules_and_the_example_are_installed():
    """The suite runs on what is installed: the two games and the example plugin (installed by
    the README's test command), or it has not run on them at all."""
    assert {"duel-of-the-forces", "jedi-duel", "rock-paper-scissors"} <= set(bs.installed_modules())


def test_boardstate_check_reports_each_check(tmp_path):
    from click.testing import CliRunner

    from boardstate.cli import cli

    result = CliRunner().invoke(cli, ["check", "rock-paper-scissors", "--seeds", "5"])
    assert result.exit_code == 0, result.output
    assert result.output.count("\nok ") + result.output.startswith("ok ") == len(CHECKS)
    assert "passes all" in result.output


def test_the_suite_finds_an_event_after_the_end():
    """A module that goes on after its outcome is decided (a round played after the match was
    won, as Epic Duels revision 2 went on after a card destroyed the first main character) is
    caught by ``check_nothing_after_the_end``."""
    from boardstate_example_rps import MODULE, RoundPlayed

    from boardstate.testing import check_nothing_after_the_end

    class GoesOn(type(MODULE.rules)):
        def decide(self, table, moves):
            super().decide(table, moves)
            if self.outcome(table.state) is not None:
                table.emit(RoundPlayed((0, 0), -1))  # one more round, after the end

    broken = bs.Module(MODULE.spec, GoesOn())
    with pytest.raises(AssertionError, match="event.s. after the end of the game"):
        check_nothing_after_the_end(broken, range(3))
    assert check_nothing_after_the_end(MODULE, range(3)) > 0


JEDI_RENDER = "boardstate.modules.jedi_duel._render"


@pytest.mark.parametrize(
    ("module_name", "function", "message"),
    [
        (JEDI_RENDER, "rendr", f"module '{JEDI_RENDER}' has no function 'rendr'"),
        (f"{JEDI_RENDER}s", "render", f"no module '{JEDI_RENDER}s'"),
        (
            "boardstate.modules.jedi_dual._render",
            "render",
            "no module 'boardstate.modules.jedi_dual._render'",
        ),
    ],
)
def test_a_misspelt_part_on_first_use_fails_the_suite_naming_it(module_name, function, message):
    """A part ``on_first_use`` names imports nothing when the module is imported (a command
    that draws nothing does not pay for it), so a misspelt module or function is caught by
    the suite's first check, and the first call says the same."""
    from boardstate.rules import on_first_use
    from boardstate.testing import CHECKS

    jedi = bs.get_module("jedi-duel")

    class Misspelt(type(jedi.rules)):
        render = staticmethod(on_first_use(module_name, function))

    broken = bs.Module(jedi.spec, Misspelt())
    check = CHECKS[0]
    assert check.__name__ == "check_every_part_is_found" and check(jedi, range(1)) > 0
    said = f"Misspelt.render: on_first_use('{module_name}', '{function}'): {message}"
    with pytest.raises(AssertionError, match=f"^{re.escape(said)}"):
        check(broken, range(1))
    with pytest.raises(ImportError, match=re.escape(message)):
        broken.rules.render(None, 0)


def test_a_part_whose_module_imports_what_is_missing_says_so_itself(tmp_path, monkeypatch):
    """The named module is there but imports one that is not: its own error, not a
    misspelling."""
    from boardstate.rules._parts import on_first_use

    (tmp_path / "needs_more.py").write_text("import no_such_library\n\ndef svg(): pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match="no_such_library"):
        on_first_use("needs_more", "svg").resolve()
