"""A game's replay as one self-contained HTML page: every position, the move list, the result.

The page needs nothing but itself: no network, no other file.  Its pictures are the module's
``svg(state, seat)`` drawings embedded inline (a module that draws none shows its text
``render`` in a ``<pre>``), its style and its small navigation script are inline, and a
Content-Security-Policy forbids loading anything else.  The engine draws nothing of the game.

Everything game-specific on the page comes from what the viewer may see: each position is
drawn from ``view(state, seat)``, each record described as the viewer sees it
(``describe(game, record, seat)``), each result line reported from the viewed state.  A
spectator (``seat`` None) sees no secret.

The DOM the navigation (and the browser tests) rely on:

- ``#position[data-step=i]``: the position after record *i*; it holds one
  ``figure.frame[data-frame=k]`` per distinct run of positions, all but the current hidden;
- ``ol#moves > li[data-step=i][data-frame=k]``: one per record, the current one with class
  ``current``; its ``.move`` is the record in words, its ``.settled`` the result line, if any;
- ``#status`` (``aria-live``): ``record i of N: <the record in words>``;
- ``#result``: how the game ended, or where it stands;
- buttons ``#first``, ``#back``, ``#forward``, ``#last``; the jump field ``#jump``
  (a form, ``#jump-form``); the keys ArrowLeft, ArrowRight, Home and End.

Without JavaScript every position is shown, one under another, and every record is listed.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html import escape
from xml.parsers import expat

from ._decider import _drawn
from ._words import standing

CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK_NS = "http://www.w3.org/1999/xlink"
_XML_NS = "http://www.w3.org/XML/1998/namespace"
# Never in an embedded picture: scripts, foreign HTML, and what would fetch or navigate.
_DROPPED = frozenset({"script", "foreignObject", "iframe", "object", "embed", "a"})
_REFERENCE = re.compile(r"url\(\s*(['\"]?)#([^)'\"\s]+)\1\s*\)")
_EXTERNAL = re.compile(r"url\(\s*['\"]?\s*(?!#)|@import|javascript:|https?:|//", re.IGNORECASE)
_NO_MEMORY = expat.errors.codes[expat.errors.XML_ERROR_NO_MEMORY]
_DATA_IMAGE = re.compile(r"data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*\Z")


def replay_html(game, seat: int | None = None) -> str:
    """The whole game as one HTML page, as ``seat`` saw it (None: a spectator)."""
    import io

    out = io.StringIO()
    write_replay_html(game, seat, out.write)
    return out.getvalue()


def save_replay_html(game, seat: int | None, path) -> None:
    """The page, written to ``path`` step by step and atomically: what is held in memory at
    once is one picture and a line per record, never the page (docs/reliability.md)."""
    import codecs

    from ._fileformat import atomic_stream

    with atomic_stream(path) as f:
        encode = codecs.getincrementalencoder("utf-8")().encode
        write_replay_html(game, seat, lambda text: f.write(encode(text)))


def write_replay_html(game, seat: int | None, write) -> None:
    """The page as ``write(text)`` calls, in order: the positions are drawn, inlined and written
    one run of equal pictures at a time, each picture drawn once per state (a record that
    changes nothing, a note, draws nothing); only each record's line is kept, for the move
    list after the positions."""
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

    emit(
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)} (replay)</title>",
        f"<style>{_STYLE}</style>",
        f"<script>{_EARLY}</script>",
        "</head>",
        "<body>",
        "<header>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="about">The game {escape(who)}; {_count(last + 1, "record")}, '
        f"rules revision {game.header.revision}"
        + (f", created {escape(str(game.header.created))}" if game.header.created else "")
        + ".</p>",
        f'<p class="about">{escape(note)}</p>' if note else "",
        "<noscript><p>Without JavaScript every position is shown, one under another, "
        "beside the list of moves.</p></noscript>",
        "</header>",
        '<nav id="controls" aria-label="Replay controls" hidden>',
        '<button type="button" id="first" aria-keyshortcuts="Home">First</button>',
        '<button type="button" id="back" aria-keyshortcuts="ArrowLeft">Back</button>',
        '<button type="button" id="forward" aria-keyshortcuts="ArrowRight">Forward</button>',
        '<button type="button" id="last" aria-keyshortcuts="End">Last</button>',
        '<form id="jump-form" novalidate><label for="jump">Jump to record</label> '
        f'<input id="jump" type="number" min="0" max="{last}" step="1" value="0"> '
        '<button type="submit">Go</button></form>',
        '<span class="hint">Keys: \u2190 back, \u2192 forward, Home first, End last</span>',
        "</nav>",
        f'<p id="status" aria-live="polite">'
        f"{escape(_status(0, last, describe(game, records[0], seat)))}</p>",
        '<main class="table">',
        '<div id="position" data-step="0" role="region" aria-label="The position">',
    )
    lines: list[tuple[str, str, int]] = []  # per record: (in words, result line, frame)
    run: list = []  # the run of equal pictures not yet written: [first, last, picture, words]
    frames = 0

    def flush() -> None:
        first, final, picture, words = run
        when = (
            f"After record {first}: {words}"
            if first == final
            else f"After records {first} to {final}"
        )
        emit(
            f'<figure class="frame" id="frame-{frames}" data-frame="{frames}">'
            f"<figcaption>{escape(when)}</figcaption>"
            f'<div class="picture">{_picture_html(picture, frames)}</div></figure>'
        )

    for i, text, settled, picture in _steps(game, seat):
        if run and picture == run[2]:
            run[1] = i
        else:
            if run:
                flush()
                frames += 1
            run = [i, i, picture, text]
        lines.append((text, settled, frames))
    flush()
    emit(
        "</div>",
        '<section class="moves" aria-labelledby="moves-title">',
        '<h2 id="moves-title">Moves</h2>',
        '<ol id="moves" start="0">',
    )
    for i, (text, settled, frame) in enumerate(lines):
        current = ' class="current" aria-current="step"' if i == 0 else ""
        line = f' <span class="settled">{escape(settled)}</span>' if settled else ""
        emit(
            f'<li data-step="{i}" data-frame="{frame}"{current}>'
            f'<a class="move" href="#frame-{frame}">{escape(text)}</a>{line}</li>'
        )
    emit(
        "</ol>",
        "</section>",
        "</main>",
        '<h2 class="result-title">Result</h2>',
        f'<p id="result">{escape(standing(game))}</p>',
        f"<script>{_SCRIPT}</script>",
        "</body>",
        "</html>",
    )


def _steps(game, seat: int | None):
    """Per record, one at a time: ``(i, the record in words, its result line or '', (kind,
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
        yield i, describe(game, rec, seat), settled, picture


def _status(i: int, last: int, text: str) -> str:
    return f"record {i} of {last}: {text}"


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _revision_note(game) -> str:
    note = game.revision_note()
    return f"{note[:1].upper()}{note[1:]}." if note else ""


# ------------------------------------------------------------------------------ pictures
def _picture_html(picture: tuple[str, str], frame: int) -> str:
    kind, drawing = picture
    if kind == "text":
        return f"<pre>\n{escape(drawing)}</pre>"  # (HTML drops one newline after <pre>)
    return _inline_svg(drawing, f"f{frame}-")


def _inline_svg(drawing: str, prefix: str) -> str:
    """A module's SVG, made fit to embed in the page: no namespace declarations (HTML puts an
    ``<svg>`` in SVG's namespace itself), nothing that runs or fetches (scripts, event
    handlers, external references), and its ids prefixed so that no two pictures share one."""
    try:
        root = ET.fromstring(drawing)
    except ET.ParseError as exc:
        if exc.code == _NO_MEMORY:  # (expat ran out of memory: no fault of the picture)
            raise MemoryError(str(exc)) from None
        from ._errors import CorruptFile

        raise CorruptFile(f"the module drew a picture that is not SVG ({exc})") from None
    if _local(root.tag) != "svg":
        from ._errors import CorruptFile

        raise CorruptFile("the module drew a picture that is not SVG")
    _clean(root)
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    for el in root.iter():
        for name, value in list(el.attrib.items()):
            if name == "id":
                el.set(name, prefix + value)
            elif name == "href" and value.startswith("#") and value[1:] in ids:
                el.set(name, "#" + prefix + value[1:])
            elif "url(" in value:
                el.set(name, _prefixed(value, ids, prefix))
        if _local(el.tag) == "style" and el.text:
            el.text = _prefixed(el.text, ids, prefix)
    root.set("role", "img")
    return ET.tostring(root, encoding="unicode")


def _prefixed(text: str, ids: set, prefix: str) -> str:
    return _REFERENCE.sub(
        lambda m: f"url(#{prefix}{m.group(2)})" if m.group(2) in ids else m.group(0), text
    )


def _local(tag) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _clean(el: ET.Element) -> None:
    """Strip ``el``'s subtree in place (see ``_inline_svg``)."""
    if isinstance(el.tag, str) and el.tag.startswith("{"):
        el.tag = _local(el.tag)
    for name, value in list(el.attrib.items()):
        del el.attrib[name]
        namespace, _, local = name[1:].partition("}") if name.startswith("{") else ("", "", name)
        if namespace == _XML_NS:
            kept = name  # (xml:space, xml:lang: written with their standard prefix)
        elif namespace in ("", _SVG_NS, _XLINK_NS):
            kept = local
        else:
            continue  # an editor's metadata (another namespace): dropped
        if kept.lower().startswith("on"):
            continue
        if kept == "href":
            if not (value.startswith("#") or _DATA_IMAGE.match(value)):
                continue
        elif _EXTERNAL.search(value) and not _only_local(value):
            continue
        el.set(kept, value)
    for child in list(el):
        if not isinstance(child.tag, str):
            continue
        namespace = child.tag[1:].partition("}")[0] if child.tag.startswith("{") else _SVG_NS
        local = _local(child.tag)
        if namespace != _SVG_NS or local in _DROPPED:
            el.remove(child)
            continue
        if local == "style" and child.text and _EXTERNAL.search(child.text):
            if not _only_local(child.text):
                el.remove(child)
                continue
        _clean(child)


def _only_local(text: str) -> bool:
    """Every ``url(...)`` in ``text`` points into the picture, and nothing else may fetch."""
    rest = _REFERENCE.sub("", text)
    return not _EXTERNAL.search(rest)


# ------------------------------------------------------------------------------ style, script
_STYLE = """
:root{color-scheme:light dark;font-family:system-ui,sans-serif;line-height:1.4}
body{margin:0 auto;padding:0 1rem 2rem;max-width:110rem}
[hidden]{display:none!important}
h1{font-size:1.4rem;margin:.8rem 0 .2rem}
h2{font-size:1.1rem;margin:.6rem 0 .3rem}
.about{margin:.2rem 0;color:GrayText}
nav{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:.6rem 0}
nav form{display:flex;gap:.3rem;align-items:center;margin-left:.6rem}
nav input{width:5.5rem}
button{font:inherit;padding:.25rem .8rem}
.hint{color:GrayText;font-size:.9rem;margin-left:.6rem}
#status{font-weight:600;min-height:1.4em;margin:.4rem 0}
.table{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}
#position{flex:1 1 36rem;min-width:0}
.frame{margin:0 0 1.5rem}
figcaption{font-size:.9rem;color:GrayText;margin-bottom:.3rem}
.picture svg{display:block;max-width:100%;height:auto;background:#fff}
.picture pre{margin:0;padding:.6rem;overflow:auto;border:1px solid GrayText;
font-size:.85rem;line-height:1.3}
.moves{flex:0 1 26rem;min-width:16rem}
#moves{margin:0;padding:0 0 0 3.2rem;position:relative}
#moves li{padding:.1rem .3rem;border-radius:.2rem}
#moves li::marker{color:GrayText}
#moves a{color:inherit;text-decoration:none}
#moves a:hover,#moves a:focus{text-decoration:underline}
.settled{display:block;font-size:.85rem;color:GrayText}
#moves li.current{background:Highlight;color:HighlightText}
#moves li.current .settled{color:inherit}
.js .frame{margin:0;display:none}
.js .frame.shown{display:block}
.js figcaption{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.js #moves{max-height:75vh;overflow:auto}
#result{font-weight:600}
""".strip()

# Before the positions are read: with scripts on, only the current one is ever laid out (a
# long game has hundreds of drawings).
_EARLY = 'document.documentElement.className += " js";'

_SCRIPT = """
(function () {
  "use strict";
  var doc = document;
  var position = doc.getElementById("position");
  var list = doc.getElementById("moves");
  var items = list.querySelectorAll("li[data-step]");
  var frames = position.querySelectorAll(".frame");
  var status = doc.getElementById("status");
  var jump = doc.getElementById("jump");
  var buttons = {
    first: doc.getElementById("first"), back: doc.getElementById("back"),
    forward: doc.getElementById("forward"), last: doc.getElementById("last")
  };
  var last = items.length - 1;
  var current = -1;
  var shown = -1;
  var k;
  for (k = 0; k < frames.length; k++) { frames[k].hidden = true; }
  var marked = list.querySelectorAll("li.current");  // (set in the markup for reading with scripts off)
  for (k = 0; k < marked.length; k++) {
    marked[k].classList.remove("current");
    marked[k].removeAttribute("aria-current");
  }
  function keepInView(item) {
    var top = item.offsetTop, bottom = top + item.offsetHeight;
    if (top < list.scrollTop) { list.scrollTop = top; }
    else if (bottom > list.scrollTop + list.clientHeight) {
      list.scrollTop = bottom - list.clientHeight;
    }
  }
  function show(i) {
    i = Math.floor(Number(i));
    if (isNaN(i)) { return; }
    i = Math.max(0, Math.min(last, i));
    if (current >= 0) {
      items[current].classList.remove("current");
      items[current].removeAttribute("aria-current");
    }
    var item = items[i];
    item.classList.add("current");
    item.setAttribute("aria-current", "step");
    var frame = Number(item.getAttribute("data-frame"));
    if (frame !== shown) {
      if (shown >= 0) {
        frames[shown].hidden = true;
        frames[shown].classList.remove("shown");
      }
      frames[frame].hidden = false;
      frames[frame].classList.add("shown");
      shown = frame;
    }
    position.setAttribute("data-step", String(i));
    status.textContent = "record " + i + " of " + last + ": " +
      item.querySelector(".move").textContent;
    jump.value = String(i);
    buttons.first.disabled = buttons.back.disabled = i === 0;
    buttons.forward.disabled = buttons.last.disabled = i === last;
    keepInView(item);
    current = i;
  }
  buttons.first.addEventListener("click", function () { show(0); });
  buttons.back.addEventListener("click", function () { show(current - 1); });
  buttons.forward.addEventListener("click", function () { show(current + 1); });
  buttons.last.addEventListener("click", function () { show(last); });
  doc.getElementById("jump-form").addEventListener("submit", function (event) {
    event.preventDefault();
    show(jump.value);
  });
  list.addEventListener("click", function (event) {
    var item = event.target.closest ? event.target.closest("li[data-step]") : null;
    if (!item) { return; }
    event.preventDefault();
    show(item.getAttribute("data-step"));
  });
  doc.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" ||
        target.isContentEditable)) { return; }
    var to = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last}[event.key];
    if (to === undefined) { return; }
    event.preventDefault();
    show(to);
  });
  doc.getElementById("controls").hidden = false;
  var asked = /^#(\\d+)$/.exec(location.hash);
  show(asked ? asked[1] : 0);
}());
""".strip()
