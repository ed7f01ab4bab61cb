"""A game's replay as one self-contained HTML page: every position, the move list, the result.

The page needs nothing but itself: no network, no other file.  Its pictures are the module's
``svg(state, seat)`` drawings made fit to embed (``_html_svg``; a module that draws none shows
its text ``render`` in a ``<pre>``); its style and its small script are inline
(``_html_assets``), and a Content-Security-Policy forbids loading anything else.  The engine
draws nothing of the game, and neither does the script: it only puts the module's pictures
back together.

Small: the first position is in the markup; every position is packed once, as what changed
since the one before, all of them compressed together (``_html_pack``), and the script
unpacks them with the browser's own ``DecompressionStream``.  An Epic Duels game of 945
records is a page of 0.5 MB instead of 40 MB (docs/performance.md, "Replay page sizes").

No spoilers: with scripts on, the move list shows the moves up to the current one and the
result only at the last; the button ``#everything`` (``aria-pressed``) shows them all, and a
page written with ``spoilers=True`` (``replay --html OUT --spoilers``) opens so.

Everything game-specific on the page comes from what the viewer may see: each position is
drawn from ``view(state, seat)``, each record described as the viewer sees it
(``describe(game, record, seat)``), each result line reported from the viewed state.  A
spectator (``seat`` None) sees no secret.

The DOM the script (and the browser tests) rely on:

- ``#position[data-step=i]``: the position after record *i*, in its one ``figure.frame``
  (``.picture``); ``data-ready`` is set once the packed pictures are unpacked (``yes``), or
  could not be (``failed``: the first position stays, and its caption says why);
- ``script#pictures``: the packed pictures (``type="application/octet-stream"``, never run);
- ``ol#moves > li[data-step=i][data-frame=k]``: one per record (``k``: its picture), the
  current one with class ``current``, those up to it with class ``seen``; its ``.n`` the
  record's number, its ``.move`` the record in words, its ``.settled`` the result line, if any;
- ``#status`` (``aria-live``): ``record i of N: <the record in words>``;
- ``#outcome`` > ``#result``: how the game ended, or where it stands;
- buttons ``#first``, ``#back``, ``#forward``, ``#last``, ``#everything``; the jump field
  ``#jump`` (a form, ``#jump-form``); the keys ArrowLeft, ArrowRight, Home and End.
- ``a#home``, when the page is one of a site's (``home``: the judge's club site): the link
  back to the site's index.

Without JavaScript the first position is shown, and every record and the result are listed.
"""

from __future__ import annotations

from html import escape

from ._decider import _drawn
from ._html_assets import EARLY, SCRIPT, STYLE
from ._html_pack import Packer
from ._html_svg import picture_html
from ._words import standing

CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"


def replay_html(game, seat: int | None = None, *, spoilers: bool = False, home=None) -> str:
    """The whole game as one HTML page, as ``seat`` saw it (None: a spectator)."""
    import io

    out = io.StringIO()
    write_replay_html(game, seat, out.write, spoilers=spoilers, home=home)
    return out.getvalue()


def save_replay_html(game, seat: int | None, path, *, spoilers: bool = False, home=None) -> None:
    """The page, written to ``path`` step by step and atomically: what is held in memory at
    once is one picture, the pieces of pictures seen so far and a line per record, never the
    page (docs/reliability.md).  ``spoilers``: the page opens with every move and the result
    shown (else they show as the reader steps to them).  ``home``: ``(href, words)``, a link
    back to the index of the site the page is part of (``boardstate judge site``)."""
    import codecs

    from ._fileformat import atomic_stream

    with atomic_stream(path) as f:
        encode = codecs.getincrementalencoder("utf-8")().encode
        write_replay_html(
            game, seat, lambda text: f.write(encode(text)), spoilers=spoilers, home=home
        )


def write_replay_html(game, seat: int | None, write, *, spoilers: bool = False, home=None) -> None:
    """The page as ``write(text)`` calls, in order: the first position, then every position
    packed as it is drawn (each state drawn once: a record that changes nothing, a note, draws
    nothing), then the move list from the line kept per record."""
    from ._words import describe

    records = game.records
    last = len(records) - 1
    spec = game.module.spec
    who = (
        f"as {game.players[seat]} saw it (only what {game.players[seat]} may see)"
        if seat is not None
        else "as a spectator saw it (no hidden card or choice)"
    )
    title = f"{spec.name}: {', '.join(game.players)}"
    note = _revision_note(game)

    def emit(*lines: str) -> None:
        for line in lines:
            if line:
                write(line + "\n")

    first = describe(game, records[0], seat)
    emit(
        "<!DOCTYPE html>",
        '<html lang="en">' if spoilers else '<html lang="en" class="quiet">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)} (replay)</title>",
        f"<style>{STYLE}</style>",
        f"<script>{EARLY}</script>",
        "</head>",
        "<body>",
        "<header>",
        f'<p><a id="home" href="{escape(home[0])}">{escape(home[1])}</a></p>' if home else "",
        f"<h1>{escape(title)}</h1>",
        f'<p class="about">The game {escape(who)}; {_count(last + 1, "record")}, '
        f"rules revision {game.header.revision}"
        + (f", created {escape(str(game.header.created))}" if game.header.created else "")
        + ".</p>",
        f'<p class="about">{escape(note)}</p>' if note else "",
        "<noscript><p>Without JavaScript only the first position is shown (the others are "
        "packed in the page for its script to draw); every move and the result are listed "
        "below.</p></noscript>",
        "</header>",
        '<nav id="controls" aria-label="Replay controls" hidden>',
        '<button type="button" id="first" aria-keyshortcuts="Home">First</button>',
        '<button type="button" id="back" aria-keyshortcuts="ArrowLeft">Back</button>',
        '<button type="button" id="forward" aria-keyshortcuts="ArrowRight">Forward</button>',
        '<button type="button" id="last" aria-keyshortcuts="End">Last</button>',
        '<form id="jump-form" novalidate><label for="jump">Jump to record</label> '
        f'<input id="jump" type="number" min="0" max="{last}" step="1" value="0"> '
        '<button type="submit">Go</button></form>',
        '<button type="button" id="everything" '
        f'aria-pressed="{"true" if spoilers else "false"}">Show everything</button>',
        '<span class="hint">Keys: \u2190 back, \u2192 forward, Home first, End last</span>',
        "</nav>",
        f'<p id="status" aria-live="polite">{escape(_status(0, last, first))}</p>',
        '<main class="table">',
        '<div id="position" data-step="0" role="region" aria-label="The position">',
    )
    lines: list[tuple[str, str, int]] = []  # per record: (in words, result line, picture)
    packer = Packer(write)
    previous = None
    for text, settled, picture in _steps(game, seat):
        if picture != previous:
            html = picture_html(picture)
            if previous is None:
                emit(
                    '<figure class="frame" data-frame="0">'
                    f"<figcaption>{escape(f'After record 0: {first}')}</figcaption>"
                    f'<div class="picture">{html}</div></figure>',
                    "</div>",
                    '<script type="application/octet-stream" id="pictures">',
                )
            packer.add(html)
            previous = picture
        lines.append((text, settled, packer.count - 1))
    packer.close()
    emit(
        "</script>",
        '<section class="moves" aria-labelledby="moves-title">',
        '<h2 id="moves-title">Moves</h2>',
        '<ol id="moves" start="0">',
    )
    for i, (text, settled, frame) in enumerate(lines):
        current = ' class="current" aria-current="step"' if i == 0 else ""
        line = f'<span class="settled">{escape(settled)}</span>' if settled else ""
        emit(
            f'<li data-step="{i}" data-frame="{frame}"{current}><span class="n">{i}.</span>'
            f'<a class="move" href="#{i}">{escape(text)}</a>{line}</li>'
        )
    emit(
        "</ol>",
        "</section>",
        "</main>",
        '<section id="outcome" aria-labelledby="result-title">',
        '<h2 id="result-title">Result</h2>',
        f'<p id="result">{escape(standing(game))}</p>',
        "</section>",
        f"<script>{SCRIPT}</script>",
        "</body>",
        "</html>",
    )


def _steps(game, seat: int | None):
    """Per record, one at a time: ``(the record in words, its result line or '', (kind,
    picture))`` as ``seat`` sees it; ``kind`` is ``"svg"`` (the module's drawing) or
    ``"text"``.  A record that leaves the state as it was (no events) is not drawn again."""
    from ._words import describe

    decider = game.decider
    draw = getattr(game.module.rules, "svg", None)
    drawn = None  # the state last drawn, and its picture and report
    previous = None
    for (i, rec), state in zip(enumerate(game.records), game.states()):  # (takebacks folded)
        if drawn is None or drawn[0] is not state:
            view = decider.view(state, seat)
            if draw is not None:
                picture = ("svg", _drawn(draw, view, seat))
            else:
                picture = ("text", decider.render(view, seat))
            drawn = (state, picture, decider.report(view) or "")
        _, picture, report = drawn
        settled = report if report and (i == 0 or report != previous) else ""
        previous = report
        yield describe(game, rec, seat), settled, picture


def _status(i: int, last: int, text: str) -> str:
    return f"record {i} of {last}: {text}"


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _revision_note(game) -> str:
    note = game.revision_note()
    return f"{note[:1].upper()}{note[1:]}." if note else ""
