"""A module's picture made fit to embed in the replay page (``_html``): no namespace
declarations, nothing that runs or fetches, its ids prefixed so that none clashes with the
page's own."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html import escape
from xml.parsers import expat

_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK_NS = "http://www.w3.org/1999/xlink"
_XML_NS = "http://www.w3.org/XML/1998/namespace"
# Never in an embedded picture: scripts, foreign HTML, and what would fetch or navigate.
_DROPPED = frozenset({"script", "foreignObject", "iframe", "object", "embed", "a"})
_REFERENCE = re.compile(r"url\(\s*(['\"]?)#([^)'\"\s]+)\1\s*\)")
_EXTERNAL = re.compile(r"url\(\s*['\"]?\s*(?!#)|@import|javascript:|https?:|//", re.IGNORECASE)
_NO_MEMORY = expat.errors.codes[expat.errors.XML_ERROR_NO_MEMORY]
_DATA_IMAGE = re.compile(r"data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*\Z")
PREFIX = "p-"
"""Before every id of a picture: the page shows one picture at a time, so one prefix serves."""


def picture_html(picture: tuple[str, str]) -> str:
    """A picture as the page embeds it: ``("svg", drawing)`` inline, ``("text", text)`` in a
    ``<pre>``."""
    kind, drawing = picture
    if kind == "text":
        return f"<pre>\n{escape(drawing)}</pre>"  # (HTML drops one newline after <pre>)
    return inline_svg(drawing, PREFIX)


def inline_svg(drawing: str, prefix: str) -> str:
    """A module's SVG, made fit to embed in the page: no namespace declarations (HTML puts an
    ``<svg>`` in SVG's namespace itself), nothing that runs or fetches (scripts, event
    handlers, external references), and its ids prefixed."""
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
    """Strip ``el``'s subtree in place (see ``inline_svg``)."""
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
