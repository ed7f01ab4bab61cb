"""Real mail servers on the loopback address, for the judge's transport tests.

``mail_system``: an SMTP server (aiosmtpd) that delivers each message into one Maildir per
recipient, as a mail server with a local delivery agent would: what a ``SmtpOutbox`` sends,
the recipient's ``MaildirInbox`` reads.  ``imap_server``: Dovecot serving one Maildir per
user (any user name, one password); its tests are skipped, saying why, when Dovecot is not
installed or does not start (they fail instead with ``BOARDSTATE_REQUIRE_IMAP=1``, for CI).
A test module uses the fixtures with ``pytest_plugins = ["mail_server"]``.
"""

from __future__ import annotations

import grp
import imaplib
import mailbox
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from aiosmtpd.controller import Controller

from boardstate.judge._inboxes import ImapInbox, MaildirInbox

HOST = "127.0.0.1"


def free_port() -> int:
    """A port nobody listens on now (the kernel's choice; reused at once by the caller)."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


class _Deliver:
    """aiosmtpd handler: each accepted message into each recipient's Maildir, with LF line
    ends as a delivery agent stores it."""

    def __init__(self, system: MailSystem) -> None:
        self.system = system

    async def handle_DATA(self, server, session, envelope):
        self.system.connections.add(session.peer)
        message = envelope.original_content.replace(b"\r\n", b"\n")
        for recipient in envelope.rcpt_tos:
            mailbox.Maildir(self.system.maildir(recipient), create=True).add(message)
        return "250 OK delivered"


class MailSystem:
    """An SMTP server on 127.0.0.1 and the Maildirs it delivers into (under ``root``)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.root.mkdir(parents=True, exist_ok=True)
        self.port = 0
        self.connections: set[tuple] = set()  # the client ends that delivered a message
        self._controller: Controller | None = None

    @property
    def smtp_url(self) -> str:
        return f"smtp://{HOST}:{self.port}"

    def maildir(self, address: str) -> Path:
        return self.root / address.lower()

    def inbox(self, address: str) -> MaildirInbox:
        return MaildirInbox(self.maildir(address))

    def start(self) -> None:
        # The port is free when chosen, not reserved: another process may take it first.
        for attempt in range(5):
            port = self.port or free_port()
            controller = Controller(
                _Deliver(self), hostname=HOST, port=port, server_hostname="mail.test"
            )
            try:
                controller.start()
            except OSError:
                if attempt == 4:
                    raise
                continue
            self.port, self._controller = port, controller
            return

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    def restart(self) -> None:
        """Stop and start again on the same port: clients' open connections break."""
        self.stop()
        self.start()


@pytest.fixture
def mail_system(tmp_path):
    system = MailSystem(tmp_path / "mail")
    system.start()
    yield system
    system.stop()


class ImapServer:
    """Dovecot on 127.0.0.1: every user name logs in with ``password``; user X's INBOX is the
    Maildir ``root/mail/x``."""

    password = "test-secret"

    def __init__(self, root: Path, port: int) -> None:
        self.root, self.port = root, port

    def url(self, user: str, folder: str = "INBOX") -> str:
        return f"imap://{quote(user, safe='')}:{self.password}@{HOST}:{self.port}/{folder}"

    def inbox(self, user: str) -> ImapInbox:
        return ImapInbox(HOST, self.port, user, self.password, ssl=False, timeout=10)

    def client(self, user: str):
        """A plain imaplib session as ``user``, to deliver (APPEND) and to look at flags."""
        conn = imaplib.IMAP4(HOST, self.port, timeout=10)
        conn.login(user, self.password)
        conn.select("INBOX")
        return conn

    def deliver(self, user: str, raw: bytes) -> None:
        conn = self.client(user)
        try:
            typ, data = conn.append("INBOX", None, None, raw)
            assert typ == "OK", data
        finally:
            conn.logout()


def _dovecot_config(root: Path, port: int) -> str:
    """A Dovecot configuration that owns nothing outside ``root``.

    Dovecot refuses to access mail as root, so when the tests run as root the mail belongs
    to ``nobody``; otherwise everything runs as the current user (no chroot, which needs root).
    """
    if os.geteuid() == 0:
        owner = pwd.getpwnam("nobody")
        (root / "mail").mkdir()
        os.chown(root / "mail", owner.pw_uid, owner.pw_gid)
        root.chmod(0o755)  # login processes run as dovenull and reach the sockets under root
        as_user = ""
    else:
        owner = pwd.getpwuid(os.geteuid())
        (root / "mail").mkdir()
        as_user = f"""
default_login_user = {owner.pw_name}
default_internal_user = {owner.pw_name}
default_internal_group = {grp.getgrgid(owner.pw_gid).gr_name}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
}}
"""
    return f"""
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = {HOST}
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain
auth_failure_delay = 0
first_valid_uid = 1
mail_location = maildir:{root}/mail/%Lu
service imap-login {{
  inet_listener imap {{
    address = {HOST}
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
passdb {{
  driver = static
  args = password={ImapServer.password}
}}
userdb {{
  driver = static
  args = uid={owner.pw_uid} gid={owner.pw_gid}
}}
{as_user}"""


def _wait_for_greeting(port: int, process: subprocess.Popen, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with socket.create_connection((HOST, port), timeout=1) as sock:
                if sock.recv(100).startswith(b"* OK"):
                    return True
        except OSError:
            time.sleep(0.05)
    return False


def _unavailable(reason: str):
    """Skip, saying why; fail instead where CI promises Dovecot (BOARDSTATE_REQUIRE_IMAP=1)."""
    if os.environ.get("BOARDSTATE_REQUIRE_IMAP") == "1":
        pytest.fail(f"BOARDSTATE_REQUIRE_IMAP=1 but {reason}", pytrace=False)
    pytest.skip(reason)


def _start_dovecot(dovecot: str, root: Path, port: int) -> tuple[subprocess.Popen, str]:
    """Dovecot on ``port``, and '' once it greets; else why not (the process, to be stopped)."""
    (root / "dovecot.conf").write_text(_dovecot_config(root, port))
    process = subprocess.Popen(
        [dovecot, "-F", "-c", str(root / "dovecot.conf")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group, stopped as one below
    )
    if _wait_for_greeting(port, process, 10):
        return process, ""
    log = root / "dovecot.log"
    why = log.read_text() if log.exists() else ""
    if process.poll() is not None:
        why += " " + process.stdout.read().decode(errors="replace")
    return process, " ".join(why.split())[-500:] or "no output"


def _stop_dovecot(process: subprocess.Popen) -> None:
    # SIGTERM to the whole group: the master alone takes seconds to wind its children down.
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    process.wait(10)
    process.stdout.close()


@pytest.fixture
def imap_server():
    dovecot = shutil.which("dovecot") or shutil.which("dovecot", path="/usr/sbin:/sbin")
    if dovecot is None:
        _unavailable("Dovecot is not installed (Debian: apt-get install dovecot-imapd)")
    process = None
    try:
        # The port is free when chosen, not reserved (pytest-xdist's workers each start their
        # own servers): when another takes it first, a new directory and port (three tries).
        for attempt in range(3):
            # Not tmp_path: as root, the mail belongs to 'nobody', who must reach it.
            root = Path(tempfile.mkdtemp(prefix="boardstate-imap-"))
            port = free_port()
            try:
                process, why = _start_dovecot(dovecot, root, port)
            except KeyError as exc:  # no user 'nobody' (or no name for this uid)
                _unavailable(f"no user to own the IMAP test mail: {exc}")
            if not why:
                break
            _stop_dovecot(process)
            process = None
            shutil.rmtree(root, ignore_errors=True)
            if attempt == 2 or "in use" not in why:
                _unavailable(f"Dovecot did not start: {why}")
        yield ImapServer(root, port)
    finally:
        if process is not None:
            _stop_dovecot(process)
        shutil.rmtree(root, ignore_errors=True)
