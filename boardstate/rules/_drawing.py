"""Small helpers for a module's picture of its table (``boardstate show --svg``).

A module draws its own table, but every picture should be accessible the same way: an
``<svg role="img">`` labelled by a ``<title>`` and a ``<desc>`` that say the position in words,
every card a shape with a text label (never colour alone), a face-down card that says so.  These
helpers build those common parts with ``xml.etree`` so that each module keeps only what is its
own (its cards' faces, its layout, its colours) and the same state still gives the same bytes.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

SVG_NS = "http://www.w3.org/2000/svg"
INK = "#000000"
PAPER = "#ffffff"
BACK_FILL = "#5c5c5c"


def element(parent: ET.Element, tag: str, attributes: dict, text: str | None = None) -> ET.Element:
    """A child element, its attribute values written with ``str`` (so numbers may be given)."""
    child = ET.SubElement(parent, tag, {k: str(v) for k, v in attributes.items()})
    if text is not None:
        child.text = text
    return child


def label(parent, x, y, text, *, size=13, bold=False, anchor="start", fill=INK, cls=""):
    """A ``<text>`` label: what a picture says in words rather than by shape or colour alone.
    Attributes left at their defaults are not written."""
    attributes = {"x": x, "y": y, "font-size": size, "fill": fill}
    if anchor != "start":
        attributes["text-anchor"] = anchor
    if bold:
        attributes["font-weight"] = "bold"
    if cls:
        attributes["class"] = cls
    return element(parent, "text", attributes, text)


def card_back(
    parent,
    x,
    y,
    w,
    h,
    *,
    labelled: bool = True,
    fill: str = BACK_FILL,
    ink: str = INK,
    paper: str = PAPER,
    note: str = "",
) -> ET.Element:
    """A card face down: hatched, framed, titled "card back" (and saying "back" when ``labelled``),
    so a hidden card is told apart by shape and words, not by its fill only.  ``note``: what
    the back itself shows (the deck it belongs to), under "back" and in the title."""
    group = element(parent, "g", {"class": "card back"})
    element(group, "title", {}, f"card back: {note}" if note else "card back")
    rect = {"x": x, "y": y, "width": w, "height": h, "rx": 4, "fill": fill, "stroke": ink}
    element(group, "rect", rect)
    inner = {"x": x + 3, "y": y + 3, "width": w - 6, "height": h - 6, "rx": 2}
    element(group, "rect", inner | {"fill": "none", "stroke": paper, "stroke-width": 1})
    element(
        group,
        "path",
        {
            "d": f"M{x + 3} {y + 3}L{x + w - 3} {y + h - 3}M{x + w - 3} {y + 3}L{x + 3} {y + h - 3}",
            "stroke": paper,
            "stroke-width": 0.75,
            "fill": "none",
        },
    )
    if note:  # (the words on a plain band across the hatching)
        band = {"x": x + 4, "y": y + h / 2 - (13 if labelled else 7), "width": w - 8}
        element(group, "rect", band | {"height": 27 if labelled else 14, "fill": fill})
    if labelled:
        middle = y + h / 2 + (-2 if note else 4)
        label(group, x + w / 2, middle, "back", size=10, anchor="middle", fill=paper)
    if note:
        size = min(9, round((w - 8) / (0.62 * len(note)), 1))  # (a long note: smaller)
        at = y + h / 2 + (11 if labelled else 3)
        label(group, x + w / 2, at, note, size=size, anchor="middle", fill=paper, cls="deck")
    return group


def card_lines(parent, x, y, w, h, lines, *, gap, ink: str = INK) -> None:
    """A card's label: ``lines`` of ``(text, size)`` centred on the card one under another,
    ``gap`` apart, the first in bold."""
    total = sum(size for _, size in lines) + gap * (len(lines) - 1)
    baseline = y + (h - total) / 2
    for k, (line, size) in enumerate(lines):
        baseline += size - 2  # (a baseline sits a little above the line's full height)
        label(
            parent,
            x + w / 2,
            round(baseline, 1),
            line,
            size=size,
            bold=k == 0,
            anchor="middle",
            fill=ink,
        )
        baseline += 2 + gap


def empty_slot(
    parent, x, y, w, h, lines: list[str], *, rx=6, size=11, baseline=4, leading=13, ink: str = INK
) -> ET.Element:
    """An empty place on the table (no villain up, an empty deck): a dashed outline with what
    is not there in words, ``lines`` centred one under another (``baseline`` below the middle
    for the first, ``leading`` apart)."""
    group = element(parent, "g", {"class": "slot"})
    rect = {"x": x, "y": y, "width": w, "height": h, "rx": rx, "fill": "none", "stroke": ink}
    element(group, "rect", rect | {"stroke-dasharray": "5 4"})
    for k, line in enumerate(lines):
        line_y = y + h / 2 + baseline + k * leading
        label(group, x + w / 2, line_y, line, size=size, anchor="middle", fill=ink)
    return group


def picture(title: str, description: str) -> ET.Element:
    """The root ``<svg>`` of a picture: an image (``role="img"``) labelled by its ``<title>``
    (the position in a line) and ``<desc>`` (the position in full), in a sans-serif font.  The
    module adds its drawing, its size and ``viewBox``."""
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "role": "img",
            "aria-labelledby": "title desc",
            "font-family": "sans-serif",
        },
    )
    element(root, "title", {"id": "title"}, title)
    element(root, "desc", {"id": "desc"}, description)
    return root
