"""attrs' generated methods kept compiled (``boardstate._attrscode``): a second process
compiles none of boardstate's, and the classes it makes behave as attrs' own, the hash's
per-process seed included; a program's own classes are left to attrs; a cache file others may
write is not believed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from attr import _make

import boardstate._attrscode as attrscode

MAKE_CLASSES = """
import json, attrs, boardstate
from attr import _make

@attrs.frozen
class Point:
    x: int
    y: int = attrs.field(default=0, validator=attrs.validators.instance_of(int))

@attrs.define
class Box:
    items: list = attrs.field(factory=list)

codes = _make._compile_and_eval.__self__
p = Point(1)
try:
    Point(1, "two")
    validated = False
except TypeError:
    validated = True
print(json.dumps({
    "added": codes.added,
    "kept Point": any("Point" in key for key in codes.kept),
    "kept ours": any(" boardstate." in key for key in codes.used),
    "hash": hash(p) == hash((hash("<attrs generated hash __main__.Point>"), 1, 0)),
    "eq": p == Point(1, 0) and p != Point(2),
    "repr": repr(p),
    "box": repr(Box()),
    "validated": validated,
}))
"""


def _run(cache):
    env = {**os.environ, "BOARDSTATE_CACHE": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", MAKE_CLASSES], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_second_process_compiles_nothing_and_its_classes_are_attrs_own(tmp_path):
    first, second = _run(tmp_path), _run(tmp_path)
    assert first["added"] and not second["added"]  # (the engine's classes)
    for seen in (first, second):
        assert seen["kept ours"] and not seen["kept Point"]  # (a program's class: attrs' own way)
        assert seen["hash"] and seen["eq"] and seen["validated"]
        assert (seen["repr"], seen["box"]) == ("Point(x=1, y=0)", "Box(items=[])")


ATTRS_OWN = """
import json, boardstate, attrs
from attr import _make

codes = _make._compile_and_eval.__self__
five, again = attrs.validators.instance_of(int), attrs.validators.instance_of(int)
made = attrs.Factory(list)
print(json.dumps({
    "added": codes.added,
    "attrs' own": sorted(k.split("\\0")[0] for k in codes.used if " attr." in k.split("\\0")[0]),
    "validator": [repr(five), five == again, hash(five) == hash(again)],
    "factory hash": hash(made) == hash((hash("<attrs generated hash attr._make.Factory>"), list, False)),
}))
"""


def test_attrs_own_classes_are_kept_when_boardstate_imports_attrs(tmp_path):
    """attrs makes its own classes (validators, ``Attribute``, ``Factory``) as it is imported:
    imported by boardstate first, their code is kept too, and behaves as attrs' own."""
    env = {**os.environ, "BOARDSTATE_CACHE": str(tmp_path)}
    seen = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", ATTRS_OWN], env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        seen.append(json.loads(done.stdout))
    first, second = seen
    assert first["added"] and not second["added"]
    for one in seen:
        assert "<attrs generated methods attr.validators._InstanceOfValidator>" in one["attrs' own"]
        assert "<attrs generated __hash__ attr._make.Factory>" in one["attrs' own"]
        assert one["validator"] == ["<instance_of validator for type <class 'int'>>", True, True]
        assert one["factory hash"]


def test_a_file_others_may_write_is_not_believed(tmp_path):
    _run(tmp_path)
    (kept,) = (tmp_path / "attrs").iterdir()
    kept.chmod(0o666)
    assert _run(tmp_path)["added"]  # (compiled again, and written anew: this user's alone)
    assert kept.stat().st_mode & 0o777 == 0o600
    assert not _run(tmp_path)["added"]


def test_the_kept_code_is_the_code_attrs_compiles(tmp_path, monkeypatch):
    """A class's script, through the kept code (compiled, then read back), is attrs' own
    compiled code: the same instructions, constants (the hash seed put back) and names."""
    import attrs

    monkeypatch.setenv("BOARDSTATE_CACHE", str(tmp_path))
    scripts = []

    def record(script, globs, locs=None, filename=""):
        scripts.append((script, dict(globs), filename))
        eval(compile(script, filename, "exec"), globs, locs)

    monkeypatch.setattr(_make, "_compile_and_eval", record)

    @attrs.frozen
    class Seeded:
        a: int
        b: str = "b"

    ((script, globs, filename),) = scripts

    def every(filename):
        return True

    writer, reader = attrscode._Codes(record, every), None
    for codes in (writer, reader):
        codes = codes or attrscode._Codes(record, every)
        got, want = dict(globs), dict(globs)
        codes.compile_and_eval(script, got, None, filename)
        codes.save()
        exec(compile(script, filename, "exec"), want)
        for name in ("__init__", "__repr__", "__eq__", "__hash__"):
            assert _same(got[name].__code__, want[name].__code__), name
    assert writer.added and not codes.added


def _same(one, other) -> bool:
    if one.co_code != other.co_code or one.co_names != other.co_names:
        return False
    if (one.co_filename, one.co_firstlineno) != (other.co_filename, other.co_firstlineno):
        return False
    pairs = zip(one.co_consts, other.co_consts, strict=True)
    return all(_same(a, b) if hasattr(a, "co_code") else a == b for a, b in pairs)


def test_another_attrs_is_left_alone(monkeypatch):
    def _compile_and_eval(source, namespace):  # (another signature: not ours to replace)
        pass

    monkeypatch.setattr(_make, "_compile_and_eval", _compile_and_eval)
    attrscode.install()
    assert _make._compile_and_eval is _compile_and_eval
