"""``boardstate key``: the players' signing keys (Ed25519).

``key new NAME`` makes a key pair in the keys folder (``$BOARDSTATE_KEYS``, else
``~/.config/boardstate/keys``): the private key readable by its owner only, the public key as
text to give the other players.  ``key show NAME`` prints a public key and its fingerprint.
"""

from __future__ import annotations

from pathlib import Path

import click

from boardstate.keys import fingerprint, keys_dir, load_public, new_key

from ._errors import BAD_INPUT, fail, one_line_errors


@click.group()
def key() -> None:
    """Players' signing keys: make one, show one."""


@key.command("new")
@click.argument("name")
@click.option("--dir", "directory", type=click.Path(file_okay=False), help="The keys folder.")
@one_line_errors
def key_new(name, directory):
    """Make the key pair NAME: NAME.key (private, mode 0600) and NAME.pub (give it out)."""
    private, public = new_key(name, Path(directory) if directory else None)
    click.echo(f"made {private} (private: keep it, never send it)")
    click.echo(f"public key {public.hex()} ({private.with_suffix('.pub')})")
    click.echo(f"fingerprint {fingerprint(public)}")


@key.command("show")
@click.argument("name")
@click.option("--dir", "directory", type=click.Path(file_okay=False), help="The keys folder.")
@one_line_errors
def key_show(name, directory):
    """Print the public key NAME and its fingerprint (to compare with the other players)."""
    path = Path(directory or keys_dir()) / f"{name}.pub"
    try:
        public = load_public(path)
    except FileNotFoundError:
        fail(f"error: {path}: no such public key (make one: boardstate key new {name})", BAD_INPUT)
    click.echo(f"{public.hex()}  fingerprint {fingerprint(public)}")
