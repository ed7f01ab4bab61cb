"""A club's web site of the judge's games (``boardstate judge site --store STORE -o DIR``).

Static files, to serve from any web server or open from disk: ``index.html``, every game of the
store newest first (module, players, where it stands and since when), and per game
``games/<game id>.html``, its replay page as a spectator sees it.  The judge's store holds every
secret of every game (the seed, every card, every sealed choice); the pages are made from it
exactly as ``boardstate replay LOG --html OUT`` makes a spectator's page from a full log: the
same loading and the same writer (``_html``), with no seat, so every position is drawn from the
spectator's view and every record described as a spectator sees it.  Nothing secret is on any
page, finished games included (a player who wants the audit has the log the judge mails at the
end).  No mail address appears: players are named as they play.

The folder is the site's alone: the command writes into a new or empty folder, or one it wrote
before (its marker file, ``MARKER``, says so and lists the pages it wrote); any other folder
with something in it is refused.  Every file is written atomically, the marker first (so a
folder left half-written is still recognised), then the pages, the index, and the marker again.
A run again brings the site up to date: a game page is written again only when its game has
new records or the page was written by another boardstate version (or when asked: a plug-in
module's drawings changed).
"""

from __future__ import annotations

import json
import re
from html import escape
from pathlib import Path

import attrs

from .. import __version__
from .._errors import GameFileError
from .._fileformat import atomic_write
from .._words import stage_line
from ._listing import stored_games

MARKER = ".boardstate-judge-site"
INDEX = "index.html"
GAMES = "games"
HOME = ("../" + INDEX, "\u2190 All games")  # (a game page's link back)
CSP = "default-src 'none'; style-src 'unsafe-inline'"  # (the index: no script, nothing loaded)
_PAGE = re.compile(r"games/[0-9a-f]{64}\.html")  # (the only names the site ever removes)

STYLE = (
    "body{font-family:system-ui,sans-serif;margin:1rem auto;max-width:72rem;padding:0 1rem}"
    "table{border-collapse:collapse;width:100%}"
    "th,td{text-align:left;vertical-align:top;padding:.35rem .6rem;"
    "border-bottom:1px solid #8884}"
    "td.state{max-width:30rem}.about{color:GrayText}"
)


@attrs.frozen
class Site:
    """What a run did: the folder, the game pages written and those already up to date."""

    folder: Path
    written: int
    kept: int

    def line(self) -> str:
        games = self.written + self.kept
        return (
            f"wrote {self.folder / INDEX}: {games} game{'' if games == 1 else 's'} "
            f"({self.written} page{'' if self.written == 1 else 's'} written, "
            f"{self.kept} up to date)"
        )


def write_site(store, folder, *, title: str = "Club games", rewrite: bool = False) -> Site:
    """Write (or bring up to date) the site of ``store``'s games in ``folder``; ``rewrite``:
    every game page again, up to date or not (after a module's drawings changed)."""
    from .._html import save_replay_html  # (the replay page's writer: not for 'judge run')

    folder = Path(folder)
    before = _claim(folder)
    if before is None:
        before = {}
        _write_marker(folder, before)  # (first: a folder left half-written is still ours)
    _make_folder(folder / GAMES)
    pages: dict[str, str] = {}
    rows = []
    written = 0
    for game_id, game, since in stored_games(store):
        name = f"{GAMES}/{game_id.hex()}.html"
        made = f"{len(game.records)} records, boardstate {__version__}"
        if rewrite or before.get(name) != made or not (folder / name).is_file():
            save_replay_html(game, None, folder / name, home=HOME)
            written += 1
        pages[name] = made
        rows.append(_row(name, game_id, game, since))
    for name in set(before) - set(pages):  # (games of another store, written here before)
        if _PAGE.fullmatch(name):
            (folder / name).unlink(missing_ok=True)
    rows.reverse()  # (newest first)
    atomic_write(folder / INDEX, _index(title, rows).encode("utf-8"))
    _write_marker(folder, pages)
    return Site(folder, written, len(pages) - written)


def _claim(folder: Path) -> dict[str, str] | None:
    """The pages a site written here before lists (None: a new or empty folder); a folder
    that holds anything else is refused in one line."""
    if not folder.exists():
        _make_folder(folder)
        return None
    if not folder.is_dir():
        raise GameFileError(f"{folder} is not a folder: name a folder for the site", code="site")
    if not (folder / MARKER).is_file():
        try:
            holds = any(folder.iterdir())
        except OSError as exc:
            raise _unusable(folder, exc) from None
        if holds:
            raise GameFileError(
                f"{folder} is not empty and holds no site of 'boardstate judge site' "
                f"(no {MARKER} in it); name a new or empty folder",
                code="site-foreign",
            )
        return None
    try:
        pages = json.loads((folder / MARKER).read_text("utf-8"))["pages"]
        return {str(k): str(v) for k, v in pages.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}  # (a marker this version cannot read: every page is written again)


def _make_folder(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _unusable(folder, exc) from None


def _unusable(folder: Path, exc: OSError) -> GameFileError:
    return GameFileError(f"cannot use the folder {folder}: {exc.strerror}", code="site-folder")


def _write_marker(folder: Path, pages: dict[str, str]) -> None:
    text = json.dumps({"written-by": "boardstate judge site", "pages": pages}, indent=1)
    atomic_write(folder / MARKER, (text + "\n").encode("utf-8"))


def _row(page: str, game_id: bytes, game, since: str) -> str:
    """One game's line of the index: what a spectator may know of it."""
    stage, _, said = stage_line(game).partition(": ")
    cells = (
        f'<a href="{escape(page)}">{escape(game.module.spec.name)}</a>'
        f'<br><span class="about">{game_id.hex()[:16]}</span>',
        escape(", ".join(game.players)),
        f"<strong>{escape(stage)}</strong>: {escape(said)}",
        escape(since),
        str(len(game.records)),
    )
    return (
        "<tr>"
        + "".join(
            f'<td class="{kind}">{cell}</td>'
            for kind, cell in zip(("game", "players", "state", "when", "records"), cells)
        )
        + "</tr>"
    )


def _index(title: str, rows: list[str]) -> str:
    head = "".join(
        f'<th scope="col">{word}</th>' for word in ("Game", "Players", "State", "When", "Records")
    )
    body = "\n".join(rows) if rows else '<tr><td colspan="5">No games yet.</td></tr>'
    return "\n".join(
        (
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{escape(title)}</title>",
            f"<style>{STYLE}</style>",
            "</head>",
            "<body>",
            f"<h1>{escape(title)}</h1>",
            f'<p class="about">{len(rows)} game{"" if len(rows) == 1 else "s"}, newest first; '
            "each replay shows what a spectator may see (no hidden card or choice).</p>",
            '<table id="games">',
            f"<thead><tr>{head}</tr></thead>",
            f"<tbody>\n{body}\n</tbody>",
            "</table>",
            "</body>",
            "</html>",
            "",
        )
    )
