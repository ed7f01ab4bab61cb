"""One file checked: its manifest line (``Checked``), made the same way in every process.

The worker's whole job is ``check_path`` (a process of this machine reads the file itself) or
``check_data`` (a Ray worker is sent the bytes: it needs no shared disk).  Both end in the same
``check_data``, and a file that cannot be read is a verdict like any other, never an error
that stops the run.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat

import attrs

from .._errors import BoardstateError, GameFileError
from .._fileformat import MAX_FILE_BYTES, parse_raw, read_raw
from .._referee import verify

OK, FAILED, UNREADABLE, ERROR = "ok", "failed", "unreadable", "error"
VERDICTS = (OK, FAILED, UNREADABLE, ERROR)


@attrs.frozen
class Checked:
    """A manifest line: one file and its verdict.

    ``verdict``: ``ok`` (every record re-derived), ``failed`` (``record`` is the first illegal
    one, ``code`` and ``rule`` say why), ``unreadable`` (not a game file this installation can
    read: ``code`` says which kind, e.g. ``truncated``, ``foreign``, ``future-version``) or
    ``error`` (a bug in boardstate or a module: please report it).  ``records``: the records
    checked (with the failing one); ``rederived``: those re-derived in full.  Nothing in a line
    depends on the machine, the process or the time: two runs over the same files write the
    same lines, however the work was shared out.
    """

    path: str
    verdict: str
    sha256: str | None = None  # of the file's bytes as stored
    size: int | None = None
    module: str | None = None
    module_version: str | None = None
    revision: int | None = None
    records: int | None = None
    rederived: int | None = None
    record: int | None = None
    code: str | None = None
    rule: str | None = None
    reason: str | None = None

    @property
    def ok(self) -> bool:
        return self.verdict == OK

    @property
    def key(self) -> str:
        """What a manifest is sorted by, one line each."""
        return self.path

    def line(self) -> str:
        """The manifest line: canonical JSON (sorted keys, no spaces), no newline."""
        return json.dumps(attrs.asdict(self), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_line(cls, line: str) -> Checked:
        data = json.loads(line)
        if not isinstance(data, dict) or data.get("verdict") not in VERDICTS:
            raise ValueError("not a manifest line")
        names = {a.name for a in attrs.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})

    def said(self) -> str:
        """One line for a person: the path and what was found."""
        if self.verdict == OK:
            return f"ok: {self.path}: {self.records} records re-derived and verified"
        if self.verdict == FAILED:
            rule = f" (rule: {self.rule})" if self.rule else ""
            return f"FAILED: {self.path}: record {self.record}: {self.reason} [{self.code}]{rule}"
        return f"{self.verdict.upper()}: {self.reason} [{self.code}]"


def read_file(path: str) -> bytes:
    """A file's bytes, bounded as ``read_raw`` bounds them; what cannot be read raises the
    ``GameFileError`` that ``read_raw`` (and so ``boardstate verify FILE``) would."""
    try:
        st = os.stat(path)
        if stat.S_ISREG(st.st_mode) and st.st_size <= MAX_FILE_BYTES:
            with open(path, "rb") as f:
                return f.read(MAX_FILE_BYTES + 1)
    except OSError:
        pass
    read_raw(path)  # (says why, in the words of a single file's verify)
    raise GameFileError(f"{path}: cannot read", code="unreadable")  # (it changed meanwhile)


def check_path(path: str) -> Checked:
    """Read and check one file (in whatever process runs this)."""
    try:
        data = read_file(path)
    except BoardstateError as exc:
        return unreadable(path, exc)
    return check_data(path, data)


def check_data(path: str, data: bytes) -> Checked:
    """Check one file's bytes: every record re-derived, as ``boardstate verify FILE`` does."""
    found = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
    try:
        raw = parse_raw(data, path)
        header = raw.header
        found.update(
            module=header.module, module_version=header.module_version, revision=header.revision
        )
        verdict = verify(raw, keep_records=False)
    except BoardstateError as exc:
        return unreadable(path, exc, **found)
    except MemoryError:
        return Checked(path, UNREADABLE, code="out-of-memory", reason="out of memory", **found)
    except Exception as exc:  # a bug: a verdict too, so that the run goes on
        why = " ".join(f"{type(exc).__name__}: {exc}".split())
        return Checked(path, ERROR, code="internal", reason=why, **found)
    if verdict.ok:
        return Checked(path, OK, records=verdict.records, rederived=verdict.rederived, **found)
    failure = verdict.failure
    return Checked(
        path,
        FAILED,
        records=verdict.records,
        rederived=verdict.rederived,
        record=failure.seq,
        code=failure.code,
        rule=failure.rule or None,
        reason=failure.reason,
        **found,
    )


def unreadable(path: str, exc: BoardstateError, **found) -> Checked:
    """The verdict on a file that is not a game this installation reads."""
    return Checked(
        path, UNREADABLE, code=exc.code, rule=exc.rule or None, reason=exc.reason, **found
    )


def check_item(item) -> Checked:
    """A worker's task: a path (read here), ``(path, bytes)`` (read by the driver and sent),
    or a ``Checked`` already (the driver could not read the file: that is its verdict)."""
    if isinstance(item, Checked):
        return item
    if isinstance(item, tuple):
        return check_data(*item)
    return check_path(item)


def _sent(path: str):
    """What the driver sends a remote worker for ``path``: its bytes, or its verdict."""
    try:
        return (path, read_file(path))
    except BoardstateError as exc:
        return unreadable(path, exc)


def _died(item, why: str) -> Checked:
    path = item if isinstance(item, str) else item.path if isinstance(item, Checked) else item[0]
    return Checked(path, ERROR, code="worker-died", reason=why)


def check_files(paths, runner, *, stop=None):
    """Every file of ``paths`` checked by ``runner`` (``make_runner``): a ``Checked`` for each,
    in the order they are done.  A remote runner (Ray) is sent each file's bytes, read here."""
    paths = list(paths)
    items = map(_sent, paths) if runner.remote else paths
    chunk = runner.chunk_size(len(paths))
    return runner.map(check_item, items, chunk=chunk, stop=stop, died=_died)
