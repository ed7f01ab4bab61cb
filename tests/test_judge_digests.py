"""The judge's digests: a player is mailed when the game needs them, and at the end, once.

A three-player Jedi Duel is played to the rules' end through the judge over a real SMTP server
(aiosmtpd, tests/mail_server.py) into each player's Maildir, every player typing the commands
a person would (tests/test_judge_mail.py's ``Club``).  Each player's mails are counted against
the times they had to act: between two mails the player acted (a mail is sent only when they
must), so the mails are at most the requests they sent plus the end.  Each mail's move file is
applied by ``boardstate apply`` in one go; its text says what that player's ``show`` and
``apply`` say; its picture is a PNG shown inline, drawn from the SVG attached beside it.

Then: a game made with ``--mail every-record`` mails every record to everyone (the judge's
behaviour before digests), counted against the digests of the same game; a store written by
the version-1 judge opens, migrated, on SQLite and PostgreSQL; ``judge run`` and ``judge list``
say what they did and where each game stands.
"""

from __future__ import annotations

import email
import email.policy
import io
import random
import re
import sqlite3

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from pg_server import fresh_postgres_url, postgres_url  # noqa: F401  (fixtures used by name)
from test_judge_mail import club, run  # noqa: F401  (the fixture, used by name)

from boardstate.judge import Judge, Outgoing, open_store
from boardstate.judge._store import SCHEMA_VERSION

pytest_plugins = ["mail_server"]  # the fixture mail_system


def _parts(raw: bytes) -> list:
    return list(email.message_from_bytes(raw, policy=email.policy.default).walk())


def _mails_of(player) -> list[bytes]:
    """Every mail in the player's Maildir (all read by now), oldest first."""
    files = sorted((player.inbox.path / "cur").iterdir(), key=lambda p: p.stat().st_mtime_ns)
    return [path.read_bytes() for path in files]


@pytest.mark.slow
def test_three_players_are_mailed_once_per_time_they_must_act_and_at_the_end(club):  # noqa: F811
    table = club(3, ["attach", "body", "mixed"])
    applied = {p.name: [] for p in table.players}  # what each 'apply' printed
    for p in table.players:
        real_apply = p.apply

        def apply(data, real_apply=real_apply, player=p):
            rc, out = real_apply(data)  # (asserts rc 0: the whole move file, in one go)
            shown = run("show", player.copy, "--as", player.name)[1]
            applied[player.name].append((out, shown))
            return rc, out

        p.apply = apply
    moves = table.play(random.Random(3))  # to the rules' end
    assert moves > 30
    for p in table.players:
        assert p.over and not p.refusals
        # Between two mails the player acted: a mail comes only when the game needs them
        # (a join from the invitation, a move, an answer), and once more at the end.
        pattern = "".join("m" if e == "mail" else "a" for e in p.events)
        assert "mm" not in pattern[:-1] and pattern.endswith("m"), (p.name, pattern)
        mails, acts = p.events.count("mail"), p.events.count("act")
        assert mails <= acts + 1, (p.name, mails, acts)
        assert mails >= 3  # (the invitation, at least one turn, the end)
    counts = {p.name: (p.events.count("mail"), p.events.count("act")) for p in table.players}
    rows = len(table.rows())
    # Every mail: the move file, in one go; the words, the table and the picture.
    stem = f"jedi-duel-{table.game_id.hex()[:8]}"
    for p in table.players:
        raws = _mails_of(p)
        assert len(raws) == counts[p.name][0]
        digests = raws[1:]  # (the first is the invitation)
        assert "invited" in _parts(raws[0])[0]["Subject"]
        assert len(applied[p.name]) == len(digests)
        for raw, (said, shown) in zip(digests, applied[p.name]):
            _check_digest(raw, said, shown, p, stem)
    last = table.judge.game(table.game_id)
    assert last.outcome() is not None and last.seq == rows
    print(f"mails per player (mails, acts) for {rows} records: {counts}")
    # judge list: the game is over, with its result
    rc, out = run("judge", "list", "--store", table.store_path)
    assert rc == 0, out
    (line,) = out.splitlines()
    assert f"{rows} records  over: Game over (" in line and "Winner: " in line and "ended " in line


def _check_digest(raw: bytes, applied: str, shown: str, player, stem: str) -> None:
    """One digest: its move file is the one attachment apply took; its words are what apply
    and show said; its picture is a valid PNG, inline, with the SVG beside it."""
    from PIL import Image

    parts = _parts(raw)
    text = next(p for p in parts if p.get_content_type() == "text/plain").get_content()
    attached = {p.get_filename(): p for p in parts if p.get_filename()}
    (moves,) = [
        n for n in attached if re.fullmatch(rf"{stem}-{player.name}-\d{{4}}-\d{{4}}\.msgpack", n)
    ]
    assert attached[moves].get_content_type() == "application/vnd.boardstate+msgpack"
    copy = f"{stem}-{player.name}.msgpack"
    assert f"    boardstate apply {copy} {moves}\n" in text  # (the real names)
    first, last = map(int, moves[:-8].rsplit("-", 2)[1:])
    # What happened since the last mail: the records apply took, described as apply did.
    said = [line.strip() for line in text.splitlines() if _RECORDS.match(line.strip())]
    assert _numbers(said) == list(range(first, last + 1)) and text.count("\n  record") == len(said)
    assert said == [line for line in applied.splitlines() if _RECORDS.match(line)]
    # Whose turn: the mail says it as apply's last line does ("to act: ...", "Game over ...").
    verdict = applied.strip().splitlines()[-1]
    over = verdict.startswith("Game over")
    if over:
        assert verdict in text and f"{stem}-log.msgpack" in attached
    else:
        acting = verdict.removeprefix("to act: ")
        assert f"Your turn, {player.name} (to act: {acting})" in text
        assert f"    boardstate move {copy} --as {player.name} COMMAND -o " in text
    # The table: what 'show --as' printed once the move file was applied.
    table = text.split(f"(boardstate show {copy} --as {player.name}):\n\n", 1)[1]
    assert table.split("\n\nThe table as a picture: ", 1)[0] == shown.rstrip("\n")
    # The picture: a PNG shown in the mail, and the SVG it was drawn from.
    (png,) = [p for p in parts if p.get_content_type() == "image/png"]
    (svg,) = [p for p in parts if p.get_content_type() == "image/svg+xml"]
    assert png.get_content_disposition() == "inline" and png.get_filename().endswith(".png")
    data = png.get_content()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    Image.open(io.BytesIO(data)).verify()  # (chunks and checksums)
    picture = Image.open(io.BytesIO(data))
    assert picture.format == "PNG" and picture.size[0] > 100 and picture.size[1] > 100
    assert svg.get_content().lstrip().startswith(b"<svg") or b"<svg" in svg.get_content()[:200]
    assert f"{png.get_filename()} (shown in this mail)" in text


_RECORDS = re.compile(r"records? (\d+)(?:-(\d+))?: ")  # ("record 7: ...", "records 1-3: ...")


def _numbers(lines) -> list[int]:
    """The record numbers that lines of records in words stand for."""
    numbers: list[int] = []
    for line in lines:
        found = _RECORDS.match(line)
        numbers += range(int(found[1]), int(found[2] or found[1]) + 1)
    return numbers


# ------------------------------------------------------------------ every record, as before
def _in_process(tmp_path, mail: str, moves: int) -> dict[str, int]:
    """A three-player Jedi Duel through the judge in process (the seed and every choice
    fixed), ``moves`` requests after the joins: how many mails each player was sent."""
    import os

    import attrs
    from cryptography.hazmat.primitives import serialization

    import boardstate as bs
    from boardstate._fileformat import parse_raw
    from boardstate._referee import referee_moves
    from boardstate.judge import Mail

    def public(key) -> bytes:
        raw = serialization.Encoding.Raw, serialization.PublicFormat.Raw
        return key.public_key().public_bytes(*raw)

    names = ("ann", "ben", "cat")
    judge = Judge(open_store(str(tmp_path / f"{mail}.sqlite")), Ed25519PrivateKey.generate())
    game_id = judge.create(
        "jedi-duel", [(n, f"{n}@x") for n in names], mail=mail, seed=b"same game", secret=bytes(32)
    )
    copies, count = [], dict.fromkeys(names, 0)

    def deliver() -> None:
        for i, out in judge.store.outbox():
            judge.store.sent(i)
            seat = names.index(out.to.split("@")[0])
            count[names[seat]] += 1
            name, data = out.attachments[0]
            if out.kind == "invitation":
                copy = bs.load_game(parse_raw(data, name))
                copy.header = attrs.evolve(copy.header, viewer=seat, peer_secret=os.urandom(32))
                key = Ed25519PrivateKey.generate()
                copy.signer = key.sign
                copies.append((copy, key))
            else:
                referee_moves(copies[seat][0], parse_raw(data, name))

    asked = [0]

    def ask(request) -> None:
        asked[0] += 1
        digest = asked[0].to_bytes(32, "big")
        mail = Mail(str(asked[0]), digest, "x@x", "", "", (request.encode(),))
        assert judge.handle(mail) == "accepted"
        deliver()

    deliver()
    for seat, (copy, key) in enumerate(copies):
        ask(copy.join_request(seat, public(key)))
    chooser = random.Random(5)
    for _ in range(moves):
        game = judge.game(game_id)
        if game.outcome() is not None:
            break
        seat = game.to_act()[0]
        copy = copies[seat][0]
        ask(copy.request(seat, chooser.choice(copy.legal(seat))))
    return count


@pytest.mark.slow
def test_every_record_mails_everyone_each_request_and_digests_mail_far_less(tmp_path):
    moves = 15
    every = _in_process(tmp_path, "every-record", moves)
    digest = _in_process(tmp_path, "digest", moves)
    requests = 3 + moves  # (the joins, then the moves)
    # Every record: the invitation, then one mail per accepted request, to every player.
    assert every == dict.fromkeys(every, 1 + requests)
    # Digests: each player about once per request of theirs (a turn takes two or three).
    assert sum(digest.values()) < sum(every.values()) / 2
    assert all(digest[name] < every[name] for name in every)
    print(f"{moves} moves: every-record {every}, digest {digest}")


# ------------------------------------------------------------------ a store from before
def _version_1_store(where: str) -> None:
    """The tables and rows a version-1 judge left: a game with three records, two players,
    and a mail queued in the version-1 outbox form (no kind)."""
    import msgpack

    blob = "BLOB" if where.startswith("sqlite:") else "BYTEA"
    serial = (
        "INTEGER PRIMARY KEY"
        if where.startswith("sqlite:")
        else "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"
    )
    mail = msgpack.packb(["ann@x", "moves", "text", [["m.msgpack", b"\x01"]]], use_bin_type=True)
    statements = [
        "CREATE TABLE store_version (version INTEGER NOT NULL)",
        "INSERT INTO store_version (version) VALUES (1)",
        f"CREATE TABLE games (n {serial}, game_id {blob} NOT NULL UNIQUE, header {blob} NOT NULL)",
        f"CREATE TABLE records (game_id {blob} NOT NULL REFERENCES games (game_id),"
        f" seq INTEGER NOT NULL, data {blob} NOT NULL, PRIMARY KEY (game_id, seq))",
        f"CREATE TABLE players (game_id {blob} NOT NULL REFERENCES games (game_id),"
        " seat INTEGER NOT NULL, name TEXT NOT NULL, address TEXT NOT NULL,"
        " PRIMARY KEY (game_id, seat))",
        f"CREATE TABLE answered (digest {blob} PRIMARY KEY)",
        f"CREATE TABLE outbox (id {serial}, mail {blob} NOT NULL, sent INTEGER NOT NULL DEFAULT 0)",
    ]
    game = b"g" * 32
    rows = [
        ("INSERT INTO games (game_id, header) VALUES (?, ?)", (game, b"header")),
        *[
            ("INSERT INTO records (game_id, seq, data) VALUES (?, ?, ?)", (game, s, b"r%d" % s))
            for s in range(3)
        ],
        *[
            (
                "INSERT INTO players (game_id, seat, name, address) VALUES (?, ?, ?, ?)",
                (game, s, n, f"{n}@x"),
            )
            for s, n in enumerate(("ann", "ben"))
        ],
        ("INSERT INTO outbox (mail) VALUES (?)", (mail,)),
    ]
    if where.startswith("sqlite:"):
        with sqlite3.connect(where[len("sqlite:") :]) as conn:
            for sql in statements:
                conn.execute(sql)
            for sql, params in rows:
                conn.execute(sql, params)
    else:
        import psycopg

        with psycopg.connect(where, autocommit=True) as conn:
            for sql in statements:
                conn.execute(sql)
            for sql, params in rows:
                conn.execute(sql.replace("?", "%s"), params)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_version_1_store_is_migrated_when_opened(backend, tmp_path, request):
    if backend == "sqlite":
        where = f"sqlite:{tmp_path / 'old.sqlite'}"
    else:
        where = request.getfixturevalue("fresh_postgres_url")
    _version_1_store(where)
    game = b"g" * 32
    for _ in range(2):  # (and a second open finds it migrated)
        with open_store(where) as store:
            assert store.load(game) == (b"header", [b"r0", b"r1", b"r2"])
            assert store.settings(game) == {"mail": "digest", "changed": None}
            assert store.mailed(game) == [2, 2]  # (the version-1 judge mailed every record)
            ((mail_id, queued),) = store.outbox()
            assert queued == Outgoing("ann@x", "moves", "text", (("m.msgpack", b"\x01"),), "")
    with open_store(where) as store:
        store.accept(game, 3, [b"r3"], b"m" * 32, [], {1: 3})
        assert store.mailed(game) == [2, 3]
        assert store.settings(game)["changed"] is not None
        store.sent(mail_id)
        assert store.outbox() == []
    if backend == "sqlite":
        with sqlite3.connect(where[len("sqlite:") :]) as conn:
            assert conn.execute("SELECT version FROM store_version").fetchall() == [
                (SCHEMA_VERSION,)
            ]


# ------------------------------------------------------------------ what judge run and list say
def test_judge_run_and_list_say_what_they_did_and_where_games_stand(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDSTATE_KEYS", str(tmp_path / "keys"))
    monkeypatch.chdir(tmp_path)
    assert run("key", "new", "judge")[0] == 0
    store = ["--store", "club.sqlite"]
    rc, out = run(
        "judge", "new", "jedi-duel", "--player", "ann=ann@x.org", "--player", "ben=ben@x.org",
        "--player", "cat=cat@x.org", "--mail", "every-record", *store, "--key", "judge",
    )  # fmt: skip
    assert rc == 0 and "(mail: every-record)" in out, out
    with open_store("club.sqlite") as opened:
        (game_id,) = opened.game_ids()
        assert opened.settings(game_id)["mail"] == "every-record"
    rc, out = run("judge", "list", *store)
    assert rc == 0 and re.fullmatch(
        rf"{game_id.hex()[:16]}  jedi-duel  ann, ben, cat  1 records  "
        r"waiting for joins: ann, ben, cat  \(since \d{4}-\d\d-\d\dT[\d:]{8}\+00:00\)\n",
        out,
    ), out
    serve = ["judge", "run", *store, "--key", "judge", "--inbox", "dir:in", "--outbox", "dir:out"]
    rc, out = run(*serve, "--once")  # (only invitations to send: it says so)
    assert rc == 0 and out == "3 mails sent (3 invitations)\n", out
    rc, out = run(*serve, "--once")
    assert rc == 0 and out == "nothing to do: no new mail, none queued\n", out
    (tmp_path / "in" / "junk.eml").write_text("From: ann@x.org\nSubject: hi\n\nhello\n")
    rc, out = run(*serve, "--once")
    assert rc == 0 and out == "1 message judged (1 refused); 1 mail sent (1 refusal)\n", out
    rc, out = run("judge", "new", "jedi-duel", "--player", "ann=ann@x", "--mail", "weekly",
                  *store, "--key", "judge")  # fmt: skip
    assert rc == 2 and "Invalid value for '--mail'" in out and "Traceback" not in out


# ------------------------------------------------------------------ a request sent, not answered
def test_a_copy_that_sent_a_request_waits_for_the_judge_and_refuses_a_second():
    from test_hosted import Hosted

    import boardstate as bs

    table = Hosted(3, seed=4)
    seat = table.judge.to_act()[0]
    copy, name = table.copies[seat], table.judge.players[seat]
    choice = copy.legal(seat)[0]
    request = copy.request(seat, choice)
    # The copy says what it sent and that it waits; nothing is legal while it waits.
    said = f"sent: {choice} (made on record {copy.last_seq}); waiting for the judge's answer"
    assert copy.due() == "judge" and copy.waiting_text() == said
    assert bs.next_line(copy) == said
    assert bs.status_lines(copy, seat)[-2:] == [said[0].upper() + said[1:], "To act: the judge"]
    assert copy.legal(seat) == [] and copy.to_act() == ()
    # A second move is refused here, in one line (the judge would refuse it as stale once it
    # has taken the first); the engine's words may still be said (a resignation out of turn:
    # a judge ahead of the copy answers with a catch-up)
    with pytest.raises(bs.IllegalCommand) as refused:
        copy.request(seat, choice)
    assert refused.value.code == "waiting" and "\n" not in str(refused.value)
    assert str(refused.value).startswith(f"{said}: nothing else can be asked first")
    assert copy.request(seat, "note wait").command == "note wait"
    # The other copies do not wait: it is not theirs.
    for other, theirs in enumerate(table.copies):
        if other != seat:
            assert theirs.due() == "" and theirs.to_act() == (seat,)
    # The judge's answer, applied, ends the wait.
    table.ask(request)
    assert copy.due() == "" and copy.waiting_text() == ""
    assert table.judge.records[-1].actor == seat and copy.head_hash == table.judge.head_hash
    acting = table.judge.to_act()[0]
    assert table.copies[acting].legal(acting) != []
    assert name in bs.describe(copy, copy.records[-1])


def test_a_join_sent_says_so_until_the_judge_makes_it():
    import os

    import attrs
    from cryptography.hazmat.primitives import serialization

    import boardstate as bs
    from boardstate._fileformat import encode_public, parse_raw

    key = Ed25519PrivateKey.generate()
    judge = bs.Game.new(
        bs.get_module("jedi-duel"),
        ("ann", "ben"),
        {},
        trust="hosted",
        judge_key=key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        ),
    )
    copy = bs.load_game(parse_raw(encode_public(judge), "invite"))
    copy.header = attrs.evolve(copy.header, viewer=0, peer_secret=os.urandom(32))
    mine = Ed25519PrivateKey.generate()
    copy.signer = mine.sign
    assert copy.waiting_text() == "waiting for ann, ben to join"
    copy.join_request(
        0,
        mine.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw),
    )
    assert copy.waiting_text() == (
        "sent: your join (made on record 0); waiting for the judge's answer"
    )
    with pytest.raises(bs.IllegalCommand) as refused:
        copy.join_request(0, b"k" * 32)
    assert refused.value.code == "waiting"


def test_a_mail_setting_the_judge_does_not_know_is_refused(tmp_path):
    from boardstate.judge import StoreError

    judge = Judge(open_store(str(tmp_path / "judge.sqlite")), Ed25519PrivateKey.generate())
    with pytest.raises(StoreError, match="no mail setting 'weekly'") as refused:
        judge.create("jedi-duel", [("ann", "ann@x"), ("ben", "ben@x")], mail="weekly")
    assert refused.value.code == "bad-mail"
    assert judge.store.game_ids() == [] and judge.store.outbox() == []
