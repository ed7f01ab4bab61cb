"""Several judges on one store and one inbox make what one judge makes (docs/trust.md, "Several
judges on one store").

The stream of tests/test_judge_crash.py (six Jedi Duel games' requests, interleaved) is dropped
into one directory inbox; three ``boardstate judge run`` processes serve it at once, over one
store (SQLite, and PostgreSQL from tests/pg_server.py) and one directory outbox.  The store must
then hold what the single judge of the reference made, byte for byte (every game's rows, every
message answered once, the same mail queued), and the outbox must hold the reference's mail,
each exactly once: no valid request refused (a judge judging on a cached game older than the
store), no judge exiting on a conflict or on a mail another judge took, no mail sent twice or
written over another.
"""

from __future__ import annotations

import collections
import re
import signal
import subprocess
import time

from pg_server import fresh_postgres_url, postgres_url  # noqa: F401  (fixtures used by name)
from test_judge_crash import (  # (the stream, its reference judge, and their helpers)
    JUDGE,
    _command,
    _key_file,
    contents,
    create_games,
    drop,
    judge_key,
    reference,  # noqa: F401  (a fixture used by name)
    sent_mail,
    waiting,
    where,  # noqa: F401  (a fixture used by name)
)

from boardstate.judge import Judge, open_store

JUDGES = 3


def test_several_judges_on_one_store_and_inbox_make_what_one_judge_makes(
    where,  # noqa: F811  (the fixtures imported above)
    reference,  # noqa: F811
    tmp_path,
):
    game_ids = reference["game_ids"]
    with open_store(where) as store:
        assert create_games(Judge(store, judge_key())) == game_ids
    inbox, outbox = tmp_path / "inbox", tmp_path / "outbox"
    drop(inbox, list(enumerate(reference["stream"])))
    key = _key_file(tmp_path / "keys")
    run = [*_command(), "judge", "run", "--store", where, "--key", str(key), "--from", JUDGE]
    run += ["--inbox", f"dir:{inbox}", "--outbox", f"dir:{outbox}", "--poll", "0.02"]
    logs = [tmp_path / f"judge-{n}.log" for n in range(JUDGES)]
    children = []
    try:
        for log in logs:
            with open(log, "wb") as said:
                children.append(subprocess.Popen(run, stdout=said, stderr=said))
        deadline = time.monotonic() + 600  # (each digest draws a picture: 0.2 s of CPU)
        with open_store(where) as store:
            while time.monotonic() < deadline:
                for child, log in zip(children, logs):
                    assert child.poll() is None, f"a judge stopped: {log.read_text()}"
                if not waiting(inbox) and not store.outbox():
                    break
                time.sleep(0.05)
        time.sleep(0.3)  # (a judge that would send a mail twice has had its chance)
    finally:
        for child in children:
            child.send_signal(signal.SIGTERM)
            child.wait()
    said = "".join(log.read_text() for log in logs)
    assert waiting(inbox) == [], f"messages never handled: {said}"
    assert "error" not in said, said  # (no judge stopped, nor judged with an internal error)
    assert not re.search(r"[1-9]\d* refused", said), said  # (no valid request refused)

    with open_store(where) as store:
        made = contents(store, game_ids)
    expected = reference["store"]
    for g in game_ids:
        assert made["games"][g] == expected["games"][g], f"game {g.hex()[:12]} differs"
    assert sorted(made["answered"]) == sorted(expected["answered"])
    assert collections.Counter(m for m, _ in made["queued"]) == collections.Counter(
        m for m, _ in expected["queued"]
    )
    assert all(sent == 1 for _, sent in made["queued"])
    mail = sent_mail(outbox)
    missing = reference["mail"] - mail
    twice = mail - reference["mail"]
    assert not missing and not twice, (
        f"{sum(missing.values())} of {sum(reference['mail'].values())} mails never written, "
        f"{sum(twice.values())} written more than once"
    )


def test_a_claim_excludes_every_other_store_object_until_released(where):  # noqa: F811
    with open_store(where) as one, open_store(where) as two:
        assert one.claim(b"game 1")
        assert not two.claim(b"game 1") and not one.claim(b"game 1")
        assert two.claim(b"game 2")  # (other names are free)
        one.release(b"game 1")
        assert two.claim(b"game 1")
        two.release(b"game 1")
        two.release(b"game 2")
    with open_store(where) as three:  # (a closed store holds nothing)
        assert three.claim(b"game 2")
