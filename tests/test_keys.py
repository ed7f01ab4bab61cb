"""Players' signing keys: made in their folder, private keys kept private, signatures checked."""

from __future__ import annotations

import os
import stat

import pytest
from click.testing import CliRunner

import boardstate as bs
from boardstate.cli import cli
from boardstate.keys import load_private, new_key, parse_public, sign, verifies


def test_a_new_key_pair_is_private_to_its_owner_and_never_written_over(tmp_path):
    private, public = new_key("alice", tmp_path)
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert parse_public((tmp_path / "alice.pub").read_text()) == public
    with pytest.raises(bs.GameFileError, match="never written over"):
        new_key("alice", tmp_path)
    with pytest.raises(bs.OptionError, match="key name"):
        new_key("../evil", tmp_path)


def test_a_signature_verifies_with_its_own_key_only(tmp_path):
    _, alice = new_key("alice", tmp_path)
    _, bob = new_key("bob", tmp_path)
    signature = sign(load_private("alice", tmp_path), b"record 7")
    assert verifies(alice, signature, b"record 7")
    assert not verifies(bob, signature, b"record 7")
    assert not verifies(alice, signature, b"record 8")
    assert not verifies(alice, signature[:-1] + bytes([signature[-1] ^ 1]), b"record 7")


def test_a_private_key_others_may_read_is_refused(tmp_path):
    private, _ = new_key("alice", tmp_path)
    os.chmod(private, 0o644)
    with pytest.raises(bs.GameFileError, match="other users may read"):
        load_private("alice", tmp_path)


def test_key_new_and_show_at_the_command_line_use_the_configured_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDSTATE_KEYS", str(tmp_path / "keys"))
    made = CliRunner().invoke(cli, ["key", "new", "ann"])
    assert made.exit_code == 0 and "fingerprint" in made.output
    assert (tmp_path / "keys" / "ann.key").exists()
    shown = CliRunner().invoke(cli, ["key", "show", "ann"])
    public = (tmp_path / "keys" / "ann.pub").read_text().strip()
    assert shown.exit_code == 0 and shown.output.startswith(public)
    again = CliRunner().invoke(cli, ["key", "new", "ann"])
    assert again.exit_code == 2 and "never written over" in again.output
    missing = CliRunner().invoke(cli, ["key", "show", "nobody"])
    assert missing.exit_code == 2 and "no such public key" in missing.output
