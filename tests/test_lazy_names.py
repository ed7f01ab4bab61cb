"""Names a package imports when first asked for (issue 29, ``boardstate/_lazy.py``): one helper
gives the façades (``boardstate``, ``boardstate.rules``, ``boardstate.geometry``,
``boardstate.trust``) their module-level ``__getattr__`` and ``__dir__``.

A lazy name is imported on first use only, and kept in the package's namespace once asked
for; ``dir()`` lists it; any other name is the usual ``AttributeError`` naming the package."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

import boardstate as bs
from boardstate import geometry, rules, trust

FACADES = {
    "boardstate": bs._LAZY,
    "boardstate.rules": dict.fromkeys(rules.DRAWING, "_drawing"),
    "boardstate.geometry": geometry.DRAWING,
    "boardstate.trust": {plug: where[1:] for where, plug in trust._Plugs._WHERE.values()},
}


@pytest.fixture()
def package(tmp_path, monkeypatch):
    """A package of two lazy names: ``thing`` (of its ``_part``) and ``sub`` (a submodule)."""
    root = tmp_path / "lazy_pkg"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text(
        "from boardstate._lazy import on_first_use_names\n"
        "__getattr__, __dir__ = on_first_use_names(globals(), {'thing': '_part', 'sub': 'sub'})\n"
    )
    (root / "_part.py").write_text("thing = object()\n")
    (root / "sub" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield importlib.import_module("lazy_pkg")
    for name in [m for m in sys.modules if m == "lazy_pkg" or m.startswith("lazy_pkg.")]:
        del sys.modules[name]


def test_a_lazy_name_is_imported_on_first_use_and_kept(package):
    assert "lazy_pkg._part" not in sys.modules and "thing" not in vars(package)
    assert {"thing", "sub"} <= set(dir(package))
    thing = package.thing
    assert thing is sys.modules["lazy_pkg._part"].thing
    assert vars(package)["thing"] is thing  # (kept: later reads are plain attribute reads)
    assert "lazy_pkg.sub" not in sys.modules
    assert package.sub is sys.modules["lazy_pkg.sub"]  # (a name that is its own submodule)


def test_any_other_name_is_the_usual_attribute_error(package):
    with pytest.raises(AttributeError, match=r"^module 'lazy_pkg' has no attribute 'nothing'$"):
        package.nothing  # noqa: B018
    assert not hasattr(package, "_part_of_nothing") and getattr(package, "nothing", 7) == 7
    assert "lazy_pkg._part" not in sys.modules  # (a wrong name imports nothing)


@pytest.mark.parametrize("name", sorted(FACADES))
def test_each_facade_lists_and_finds_its_lazy_names(name):
    facade = importlib.import_module(name)
    assert facade.__getattr__.__module__ == "boardstate._lazy"  # (the one helper)
    assert set(FACADES[name]) <= set(dir(facade))
    for lazy, where in FACADES[name].items():
        found = importlib.import_module(f"{name}.{where}")
        assert getattr(facade, lazy) is (found if where == lazy else getattr(found, lazy))
    with pytest.raises(AttributeError, match=f"^module '{name}' has no attribute 'no_such'$"):
        facade.no_such  # noqa: B018


def test_the_facades_import_their_lazy_names_on_first_use_only():
    """In a fresh interpreter: no lazy name's submodule is imported with its façade; asking
    for one name imports that name's submodule."""
    script = (
        "import importlib, json, sys\n"
        f"facades = {json.dumps(FACADES)}\n"
        "for name in facades:\n"
        "    importlib.import_module(name)\n"
        "def loaded(name):\n"
        "    return sorted({w for w in facades[name].values() if f'{name}.{w}' in sys.modules})\n"
        "before = {name: loaded(name) for name in facades}\n"
        "asked = {}\n"
        "for name, table in facades.items():\n"
        "    lazy = sorted(table)[0]\n"
        "    getattr(sys.modules[name], lazy)\n"
        "    asked[name] = (table[lazy], loaded(name))\n"
        "print(json.dumps([before, asked]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    before, asked = json.loads(done.stdout)
    assert before == {name: [] for name in FACADES}
    for name, (where, loaded) in asked.items():
        assert where in loaded, name
