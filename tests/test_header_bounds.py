"""Header fields the format bounds (issue 24, item 9): ``version`` is the trust mode's own (open
v1, peer v2, hosted v3: an open game claiming v2 was read), and ``shared`` names a record of
the file (checked once the records are counted: a record past the end was read)."""

from __future__ import annotations

import pytest
from test_hardening_files import OLD_SAMPLE, craft, refused, run, write


@pytest.mark.parametrize("command", ["verify", "show", "replay"])
@pytest.mark.parametrize(
    "changes, words",
    [
        ({"version": 2}, "version: v2 is not an open game's"),
        ({"version": 3}, "version: v3 is not an open game's"),
        ({"shared": 63}, "shared: record 63, but the last record is 62"),
        ({"shared": 10**6}, "shared: record 1000000"),
    ],
)
def test_a_header_field_out_of_its_bounds_is_corrupt(tmp_path, changes, words, command):
    path = write(tmp_path, "forged.msgpack", craft(OLD_SAMPLE.read_bytes(), **changes))
    line = refused(run(command, path))
    assert words in line and "corrupt" in line, line


def test_shared_at_the_last_record_reads(tmp_path):
    path = write(tmp_path, "ok.msgpack", craft(OLD_SAMPLE.read_bytes(), shared=62))
    rc, out, err = run("verify", path)
    assert rc == 0, err
