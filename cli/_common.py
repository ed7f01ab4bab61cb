"""What the command families share: the game file's seat and options, where an output may be
written, the move files and requests a command mails, the players' signing keys, and the lines
that say where a game stands."""

from __future__ import annotations

import os
import sys

import click

import boardstate as bs

from ._errors import BAD_INPUT, fail

# How ``claim_output`` says that an output exists (after "error: PATH exists"), by command.
ADD_FORCE = "; not overwriting it (choose another name, or add --force)"
NO_FORCE = "; not overwriting it (choose another name)"
NEW_NAME = "; not overwriting it (choose a new name)"
NAME_ANOTHER = "; not overwriting it (name another with -o/--out)"
MOVE_FILE_EXISTS = " (a move file from before?): name another with -o/--out"


class OutputFile(click.Path):
    """A file a command writes by its name (not a folder; ``folder=True``: a folder it writes
    into, not a file).  ``-``, standard output where a command writes there (``move``,
    ``apply``, ``export``), is refused where it does not: it was written as a file or folder
    named ``-``, and nothing came out."""

    def __init__(self, *, folder: bool = False, **how) -> None:
        super().__init__(**({"file_okay": False} if folder else {"dir_okay": False}), **how)
        self.named = "folder" if folder else "file"

    def convert(self, value, param, ctx):
        if value == "-":
            self.fail(
                f"'-' is standard output, which this command does not write: name a {self.named}"
            )
        try:  # ('' names no file or folder: never "no output", as ``if out:`` took it)
            bs.path_name(value)
        except bs.BoardstateError as exc:
            self.fail(str(exc))
        return super().convert(value, param, ctx)


def claim_output(
    path, *, force: bool = False, reading=(), refused: str = ADD_FORCE, checked_first=False
) -> None:
    """Stop with one line (exit 2) unless the command may write ``path``: an existing file is
    replaced only with ``force`` ("error: PATH exists" + ``refused``); never a file the command
    reads (even with ``force``), a game file without ``force``, or what is not a regular file
    (``boardstate.check_output``).  ``checked_first``: a path refused both ways is called by
    ``check_output``'s reason rather than "exists" (as ``show``, ``replay`` and ``judge publish``
    have always said)."""
    if checked_first:
        bs.check_output(path, force=force, reading=reading, as_path=False)
    if not force and _exists(path):
        fail(f"error: {path} exists{refused}", BAD_INPUT)
    if not checked_first:
        bs.check_output(path, force=force, reading=reading, as_path=False)


def distinct_outputs(*paths) -> None:
    """Stop with one line (exit 2) when two outputs of one command name the same file (the
    invitation and the copy of ``new``, the copy and the reply of ``join``): the second written
    would replace the first (a player's own copy mailed as the invitation)."""
    named = [p for p in paths if p is not None and p != "-"]
    targets = [bs.check_output(p, force=True, as_path=False) for p in named]
    for i, target in enumerate(targets):
        if target in targets[:i]:
            first = named[targets.index(target)]
            both = first if first == named[i] else f"{first} and {named[i]}"
            fail(f"error: {both}: two outputs would be one file; name two files", BAD_INPUT)


def _exists(path) -> bool:
    """``pathlib.Path(path).exists()``, without ``pathlib`` (3 ms of a command, issue 29); what
    cannot be told (a missing folder, a loop of links, a name too long, a folder that may not
    be searched, a NUL) is no file here: the writer's own check (``check_output``) says why it
    cannot write there (a folder that may not be searched was an internal error)."""
    try:
        os.stat(bs.path_name(path))
    except (OSError, ValueError):
        return False
    return True


def beside(file: str, tail: str) -> str:
    """``str(Path(file).with_name(Path(file).stem + tail))`` (Python 3.11 to 3.13), without
    ``pathlib``: the name of a move file or request written next to the game ``file``, its
    stem being its name less its last suffix (none in ``.hidden``, ``a.`` or ``..``)."""
    whole = bs.path_name(file) if file else ""  # ('': no file, and no name, as pathlib said)
    folder, slash, name = whole.rpartition("/")
    if whole in ("", ".", "/", "//"):  # (pathlib's name of these is empty)
        raise ValueError(f"PosixPath({whole!r}) has an empty name")
    dot = name.rfind(".")
    stem = name[:dot] if 0 < dot < len(name) - 1 else name
    new = stem + tail
    if "/" in new:  # (a player's name from before the name grammar)
        raise ValueError(f"Invalid name {new!r}")
    return folder + slash + new


def seat_of(game: bs.Game, name: str | None) -> int | None:
    return None if name is None else game.seat(name)


def own_seat(game: bs.Game, file: str, player: str) -> int:
    """``player``'s seat, for a command that adds to or takes from ``file``: a signed copy
    (peer, shared deck, hosted) only as its own player, and an invitation (nobody's copy, the
    file the players join from) never."""
    seat = game.seat(player)
    viewer = game.header.viewer
    if game.header.signed and viewer is None:
        fail(
            f"error: {file} is an invitation, nobody's copy: join it first ('boardstate join "
            f"{file} --as NAME -o YOUR-COPY')",
            BAD_INPUT,
        )
    if game.header.signed and viewer != seat:
        fail(f"error: {file} is {game.players[viewer]}'s copy, not {player}'s", BAD_INPUT)
    return seat


def parse_options(pairs) -> dict:
    """``--option KEY=VALUE``s as a dict; a key given twice is refused (the last one won,
    without a word: ``--option edition=parlett-original --option edition=...``)."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise bs.OptionError(f"option {pair!r} is not KEY=VALUE", code="bad-option")
        if key.strip() in out:
            raise bs.OptionError(f"option {key.strip()!r} is given twice", code="bad-option")
        out[key.strip()] = value.strip()
    return out


def load_key(name: str):
    from boardstate.keys import load_private

    return load_private(name)


def public_key_bytes(key) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def sign_as(game: bs.Game, key: str | None) -> None:
    """A peer game's copy signs its player's records: with ``key``, or the key in the keys
    folder whose public half is the one this player joined with (loaded when first used)."""
    # (a peer copy puts each step it completes in canonical order)
    game.keep_canonical = game.trust.keeps_canonical_order
    if not game.header.signed or game.header.viewer is None:
        return
    seat = game.header.viewer
    loaded = []

    def sign(data: bytes) -> bytes:
        if not loaded:
            loaded.append(joined_key(game, seat, key))
        return loaded[0].sign(data)

    game.signer = sign


def joined_key(game: bs.Game, seat: int, key: str | None):
    joined = game.keys.get(seat)
    if key is None:
        from boardstate.keys import keys_dir, load_public

        folder = keys_dir()
        for pub in sorted(folder.glob("*.pub")) if folder.is_dir() else ():
            try:
                if load_public(pub) == joined:
                    key = pub.stem
                    break
            except (OSError, bs.BoardstateError):
                continue
        if key is None:
            key = game.players[seat]
    signing = load_key(key)
    if joined is not None and public_key_bytes(signing) != joined:
        fail(
            f"error: key {key} is not the key {game.players[seat]} joined this game with",
            BAD_INPUT,
        )
    return signing


def write_reply(
    game: bs.Game,
    base_seq: int,
    file: str,
    out: str | None,
    *,
    always: bool,
    reading=(),
    player: str | None = None,
    text: bool = False,
) -> None:
    new = game.last_seq - base_seq
    if new <= 0:
        return
    if out is None and not always:
        return
    path = out
    if path is None:  # a default name that sorts: game, first record, player; never over a file
        who = f"-{player}" if player else ""
        suffix = ".txt" if text else ".msgpack"
        path = beside(file, f"-{base_seq + 1:04d}{who}{suffix}")
        claim_output(path, reading=reading, refused=MOVE_FILE_EXISTS)
    bs.save_moves(game, base_seq, path, text=text)
    if path == "-":
        return
    click.echo(
        f"wrote {path} ({new} record{'s' if new != 1 else ''}): send it to the other players"
    )


def write_request(request, path: str, *, reading, text: bool, force: bool) -> None:
    """A hosted game's request for the judge, written atomically (or armored text)."""
    data = request.encode()
    if text:
        said = request.command or ("a sealed choice" if request.opening else "join")
        data = bs.armor(
            data, f"{request.module} {request.game_id.hex()[:12]}: request: {said}"
        ).encode()
    if path == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    claim_output(path, force=force, reading=reading, refused=NAME_ANOTHER)
    bs.atomic_write(path, data)
    click.echo(f"wrote {path}: mail it to the judge")


def echo_report(game: bs.Game, state, echo=click.echo) -> None:
    line = game.decider.report(state)
    if line:
        echo(line)


def echo_after(game: bs.Game, seat: int | None, echo=click.echo, *, before=None) -> None:
    """What the records just added settled (only if they changed it: the state ``before``
    them reported something else) and what comes next."""
    line = game.decider.report(game.state)
    if line and (before is None or line != game.decider.report(before)):
        echo(line)
    echo(bs.next_line(game))


def echo_records(game: bs.Game, records, viewer: int | None, echo=click.echo, **how) -> None:
    """The records a command added, one line each (the trust mode's own in one line a run)."""
    for line in bs.records_said(game, records, viewer, **how):
        echo(line)


def each_state(game: bs.Game) -> list:
    """The state after each record (to step back and forth)."""
    header = game.header
    evolve = game.decider.evolve
    state = game.decider.initial(header.options, header.players, header.revision)
    out = []
    for rec in game.records:
        for ev in rec.events:
            state = evolve(state, ev)
        out.append(state)
    return out


def revision_note(game: bs.Game) -> str:
    """Which rules revision an older game is played under, and what changed since."""
    note = game.revision_note()
    return f"note: this game is {note}" if note else ""


def settled_line(game, states, i, *, since: int | None = None) -> str:
    """What record ``i`` settled (records ``since`` + 1 to ``i``, when given), in the
    module's words ('' when nothing new)."""
    before = i - 1 if since is None else since
    line = game.decider.report(states[i])
    if line and (before < 0 or line != game.decider.report(states[before])):
        return line
    return ""
