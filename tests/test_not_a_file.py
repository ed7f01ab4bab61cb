"""Nothing but a regular file is ever written over: ``check_output`` (before a command's work)
and every atomic write (the last word) refuse a device, a directory or a pipe alike, and a path
they cannot look at, with ``_safety.regular_or_nothing``'s one message and code."""

import os

import pytest

import boardstate as bs


@pytest.mark.parametrize("kind", ["directory", "pipe"])
def test_what_is_not_a_regular_file_is_refused_by_both(tmp_path, kind):
    """(No device: a broken check run as root would replace /dev/null.)"""
    path = str(tmp_path / kind)
    os.mkdir(path) if kind == "directory" else os.mkfifo(path)
    for write in (lambda: bs.check_output(path), lambda: bs.atomic_write(path, b"a game")):
        with pytest.raises(bs.GameFileError) as refused:
            write()
        assert refused.value.code == "not-a-file"
        assert refused.value.reason == f"{path}: not a regular file; not writing there"
    assert os.listdir(tmp_path) == [kind]  # no temporary file left


def test_a_loop_of_links_is_refused_by_both_and_stays(tmp_path):
    """A link in a loop names no file to write through: both refuse it alike, and the links
    stay links (the atomic write read the loop as nothing there and replaced the link)."""
    os.symlink(tmp_path / "b.svg", tmp_path / "a.svg")
    os.symlink(tmp_path / "a.svg", tmp_path / "b.svg")
    path = str(tmp_path / "a.svg")
    for write in (lambda: bs.check_output(path), lambda: bs.atomic_write(path, b"drawn")):
        with pytest.raises(bs.GameFileError) as refused:
            write()
        assert refused.value.code == "unwritable"
        assert refused.value.reason.startswith(f"{path}: cannot write (")
    assert sorted(os.listdir(tmp_path)) == ["a.svg", "b.svg"]
    assert os.path.islink(path) and os.path.islink(tmp_path / "b.svg")


def test_a_path_that_cannot_be_looked_at_is_one_line_from_both(tmp_path, monkeypatch):
    """A failure to look other than a missing file (here no permission, as a folder without
    its search right gives a user who is not root): the same ``GameFileError`` from both, not
    the ``OSError`` itself (the command line's "internal error")."""
    path = str(tmp_path / "out.svg")
    looked = os.stat

    def stat(at, *args, **kwargs):
        if os.fspath(at) == path:
            raise PermissionError(13, "Permission denied", path)
        return looked(at, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat)
    for write in (lambda: bs.check_output(path), lambda: bs.atomic_write(path, b"drawn")):
        with pytest.raises(bs.GameFileError) as refused:
            write()
        assert refused.value.code == "unwritable"
        assert refused.value.reason == f"{path}: cannot write (Permission denied)"
    assert os.listdir(tmp_path) == []


def test_a_new_name_or_a_regular_file_is_written(tmp_path):
    new, old = tmp_path / "new.svg", tmp_path / "old.svg"
    old.write_bytes(b"old")
    for path in (new, old):
        assert bs.check_output(path) == path
        bs.atomic_write(path, b"drawn")
        assert path.read_bytes() == b"drawn"


def test_the_target_as_a_string_is_the_paths_own(tmp_path):
    """``as_path=False`` (a command that uses neither, so imports no ``pathlib``): the same
    target as the ``Path`` given by default, as a string, for ``check_output`` and ``locked``;
    and the same refusal of the file the command reads."""
    (tmp_path / "real.svg").write_bytes(b"old")
    os.symlink(tmp_path / "real.svg", tmp_path / "link.svg")
    for name in ("new.svg", "real.svg", "link.svg"):
        given = str(tmp_path / name)
        target = bs.check_output(given, as_path=False)
        assert type(target) is str and target == str(bs.check_output(given))
    assert target == str(tmp_path / "real.svg")  # (a link is written through)
    with bs.locked(str(tmp_path / "link.svg"), as_path=False) as held:
        assert held == target
    with bs.locked(str(tmp_path / "link.svg")) as held:
        assert str(held) == target and not isinstance(held, str)
    with pytest.raises(bs.GameFileError) as refused:
        bs.check_output(target, reading=[str(tmp_path / "link.svg")], as_path=False)
    assert refused.value.code == "would-overwrite"
