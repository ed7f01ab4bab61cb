"""How a board's terrain and its sides look: fills, fill patterns, ink, and the token shapes.

Each terrain kind gets a colour and a pattern of its own (so a drawing reads without colour
too), chosen by ``terrain_styles`` from the kind's name and what it blocks; each side of the
pieces gets a colour and a shape (``SIDE_COLOURS``, ``SIDE_SHAPES``, ``draw_token``).  The
drawings themselves are ``_render``'s.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping

import attrs

from .._errors import BoardstateError
from ._board import Board, Terrain

SIDE_COLOURS = ("#1f5fbf", "#b3261e", "#2e7d32", "#8e24aa", "#ef6c00", "#00838f")
"""Piece colours, given to sides in sorted order of their names."""


SIDE_SHAPES = ("circle", "square", "diamond", "hexagon", "octagon", "triangle")
"""Piece shapes, given to sides in sorted order of their names (``shapes`` chooses others):
the sides stay apart where their colours look alike (in greyscale, to colour-blind eyes)."""


PATTERNS = {
    "plain": "plain",
    "crosshatch": "cross-hatched",
    "hatch": "hatched",
    "dots": "dotted",
    "waves": "wavy lines",
    "grid": "grid lines",
    "zigzag": "zigzag lines",
    "rings": "rings",
    "vertical": "vertical lines",
    "horizontal": "horizontal lines",
    "checks": "checked",
    "symbol": "marked with its map symbol",
}
"""Fill patterns of terrain, with the words the legend and the description use for them.
``plain`` is the colour alone; ``symbol`` repeats the terrain's map symbol (the last resort,
unique on every board)."""


_NAMED_PATTERNS = {
    "floor": "plain",
    "ground": "plain",
    "grass": "plain",
    "sand": "plain",
    "obstacle": "crosshatch",
    "wall": "crosshatch",
    "rock": "crosshatch",
    "pillar": "crosshatch",
    "water": "waves",
    "ocean": "waves",
    "sea": "waves",
    "river": "waves",
    "lake": "waves",
    "mist": "dots",
    "fog": "dots",
    "smoke": "dots",
    "cloud": "dots",
    "pit": "hatch",
    "chasm": "hatch",
    "lava": "zigzag",
    "fire": "zigzag",
    "forest": "rings",
    "trees": "rings",
    "bush": "rings",
}
"""Usual terrain names and their patterns (water waves, mist dots), so that a kind looks the same
on every board and mist never looks like water; other names go by what the terrain blocks."""


_BLOCKING_PATTERNS = {
    (False, False): "plain",
    (True, True): "crosshatch",
    (True, False): "hatch",
    (False, True): "dots",
}


_DEFAULT_FILLS = {
    (False, False): "#eeeeee",
    (True, False): "#6fa8dc",
    (False, True): "#bbbbbb",
    (True, True): "#555555",
}


_NAMED_COLOURS = {
    "white": "#ffffff",
    "black": "#000000",
    "gray": "#808080",
    "grey": "#808080",
    "silver": "#c0c0c0",
    "red": "#ff0000",
    "green": "#008000",
    "blue": "#0000ff",
    "yellow": "#ffff00",
    "navy": "#000080",
}


_DARK_INK, _LIGHT_INK = "#1a1a1a", "#f2f2f2"


@attrs.frozen
class TerrainStyle:
    """How a terrain kind is drawn: its fill colour, its pattern (a key of ``PATTERNS``), the
    ink of the pattern's marks, and the id of the ``<pattern>`` (empty for ``plain``)."""

    fill: str
    pattern: str
    ink: str
    id: str = ""

    @property
    def paint(self) -> str:
        """The ``fill`` attribute of a cell of this kind."""
        return f"url(#{self.id})" if self.id else self.fill


def _fill(terrain: Terrain) -> str:
    return terrain.fill or _DEFAULT_FILLS[(terrain.blocks_movement, terrain.blocks_sight)]


def relative_luminance(colour: str) -> float | None:
    """The WCAG relative luminance (0 black to 1 white) of ``#rgb``, ``#rrggbb`` or a few colour
    names; None for anything else."""
    text = _NAMED_COLOURS.get(colour.strip().lower(), colour.strip())
    if re.fullmatch(r"#[0-9a-fA-F]{3}", text):
        text = "#" + "".join(c * 2 for c in text[1:])
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", text):
        return None

    def linear(channel: str) -> float:
        c = int(channel, 16) / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(text[i : i + 2]) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _ink(fill: str) -> str:
    """Marks drawn on ``fill``: dark on light colours, light on dark ones."""
    luminance = relative_luminance(fill)
    return _LIGHT_INK if luminance is not None and luminance < 0.18 else _DARK_INK


def _wanted(terrain: Terrain) -> list[str]:
    """The patterns a terrain kind would take, best first: by its name, by what it blocks (only
    open ground is plain), then any."""
    words = re.split(r"[^a-z]+", terrain.name.lower())
    by_name = [_NAMED_PATTERNS[w] for w in words if w in _NAMED_PATTERNS]
    open_ground = not (terrain.blocks_movement or terrain.blocks_sight)
    by_blocking = _BLOCKING_PATTERNS[(terrain.blocks_movement, terrain.blocks_sight)]
    rest = [p for p in PATTERNS if p not in ("plain", "symbol")]
    return [p for p in [*by_name, by_blocking, *rest, "symbol"] if p != "plain" or open_ground]


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-") or "kind"


def terrain_styles(
    board: Board,
    *,
    fills: Mapping[str, str] | None = None,
    patterns: Mapping[str, str] | None = None,
) -> dict[str, TerrainStyle]:
    """Per terrain kind of ``board`` (in the order they first appear), how it is drawn.

    ``fills`` and ``patterns`` (terrain name -> colour / key of ``PATTERNS``) choose for some
    kinds; the rest keep the board's fill and take a pattern by name (water waves, mist dots,
    obstacles cross-hatched), else by what they block, never one that another kind of the
    board has.
    """
    fills, patterns = fills or {}, patterns or {}
    for name, pattern in patterns.items():
        if pattern not in PATTERNS:
            raise BoardstateError(
                f"terrain {name!r}: pattern must be one of {', '.join(PATTERNS)}, not {pattern!r}",
                code="bad-option",
            )
    kinds = list(dict.fromkeys(board.terrain))
    chosen = {t.name: patterns[t.name] for t in kinds if t.name in patterns}
    used = set(chosen.values())
    for terrain in kinds:
        if terrain.name not in chosen:
            # ('symbol' shows the kind's own map symbol: it may serve any number of kinds)
            chosen[terrain.name] = next(
                p for p in _wanted(terrain) if p not in used or p == "symbol"
            )
            used.add(chosen[terrain.name])
    styles, ids = {}, set()
    for terrain in kinds:
        fill = fills.get(terrain.name) or _fill(terrain)
        pattern = chosen[terrain.name]
        pattern_id = ""
        if pattern != "plain":
            pattern_id = f"terrain-{_slug(terrain.name)}"
            while pattern_id in ids:
                pattern_id += "-"
            ids.add(pattern_id)
        styles[terrain.name] = TerrainStyle(fill, pattern, _ink(fill), pattern_id)
    return styles


def svg_num(value: float) -> str:
    """A coordinate as SVG text: at most two decimals, no trailing zeros."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def define_pattern(defs: ET.Element, style: TerrainStyle, symbol: str, tile: int) -> None:
    """A ``<pattern>`` of ``style``: its fill under its marks, one ``tile`` square repeated."""
    t = tile * 2 if style.pattern == "symbol" else tile
    pattern = ET.SubElement(
        defs,
        "pattern",
        {
            "id": style.id,
            "class": f"pattern-{style.pattern}",
            "patternUnits": "userSpaceOnUse",
            "width": str(t),
            "height": str(t),
        },
    )
    ET.SubElement(pattern, "rect", {"width": str(t), "height": str(t), "fill": style.fill})
    ink = style.ink
    line = {"fill": "none", "stroke": ink, "stroke-width": svg_num(max(1.0, t / 10))}
    q = t / 4

    def path(d: str) -> None:
        ET.SubElement(pattern, "path", {"d": d, **line})

    rising = f"M0,{t} L{t},0 M{svg_num(-q)},{svg_num(q)} L{svg_num(q)},{svg_num(-q)} M{svg_num(t - q)},{svg_num(t + q)} L{svg_num(t + q)},{svg_num(t - q)}"
    falling = f"M0,0 L{t},{t} M{svg_num(t - q)},{svg_num(-q)} L{svg_num(t + q)},{svg_num(q)} M{svg_num(-q)},{svg_num(t - q)} L{svg_num(q)},{svg_num(t + q)}"
    kind = style.pattern
    if kind == "crosshatch":
        path(f"{rising} {falling}")
    elif kind == "hatch":
        path(rising)
    elif kind == "dots":
        for cx, cy in ((t / 2, t / 2), (0, 0), (t, 0), (0, t), (t, t)):
            ET.SubElement(
                pattern,
                "circle",
                {"cx": svg_num(cx), "cy": svg_num(cy), "r": svg_num(t / 8), "fill": ink},
            )
    elif kind == "waves":
        path(
            f"M0,{svg_num(t / 2)} Q{svg_num(q)},{svg_num(t / 5)} {svg_num(t / 2)},{svg_num(t / 2)} T{t},{svg_num(t / 2)}"
        )
    elif kind == "grid":
        path(f"M0,{svg_num(t / 2)} H{t} M{svg_num(t / 2)},0 V{t}")
    elif kind == "zigzag":
        path(f"M0,{svg_num(t * 0.7)} L{svg_num(t / 2)},{svg_num(t * 0.3)} L{t},{svg_num(t * 0.7)}")
    elif kind == "rings":
        ET.SubElement(
            pattern, "circle", {"cx": svg_num(t / 2), "cy": svg_num(t / 2), "r": svg_num(q), **line}
        )
    elif kind == "vertical":
        path(f"M{svg_num(t / 2)},0 V{t}")
    elif kind == "horizontal":
        path(f"M0,{svg_num(t / 2)} H{t}")
    elif kind == "checks":
        for x in (0, t / 2):
            ET.SubElement(
                pattern,
                "rect",
                {
                    "x": svg_num(x),
                    "y": svg_num(x),
                    "width": svg_num(t / 2),
                    "height": svg_num(t / 2),
                    "fill": ink,
                },
            )
    elif kind == "symbol":
        ET.SubElement(
            pattern,
            "text",
            {
                "x": svg_num(t / 2),
                "y": svg_num(t * 0.68),
                "text-anchor": "middle",
                "font-size": svg_num(t * 0.5),
                "fill": ink,
            },
        ).text = symbol


def draw_token(
    parent: ET.Element, shape: str, cx: float, cy: float, r: float, fill: str, **attributes: str
) -> ET.Element:
    """A piece's token (class ``token``): a ``SIDE_SHAPES`` shape of about radius ``r``."""
    common = {"fill": fill, "stroke": "black", "class": "token", **attributes}
    if shape == "circle":
        return ET.SubElement(
            parent, "circle", {"cx": svg_num(cx), "cy": svg_num(cy), "r": svg_num(r), **common}
        )
    if shape == "square":
        half = r * 0.9
        return ET.SubElement(
            parent,
            "rect",
            {
                "x": svg_num(cx - half),
                "y": svg_num(cy - half),
                "width": svg_num(2 * half),
                "height": svg_num(2 * half),
                **common,
            },
        )
    corners, radius, turn = {
        "diamond": (4, r * 1.2, -90),
        "hexagon": (6, r * 1.05, 0),
        "octagon": (8, r * 1.02, 22.5),
        "triangle": (3, r * 1.35, -90),
    }[shape]
    if shape == "triangle":
        cy += r * 0.3  # the label sits in the wide part
    points = " ".join(
        f"{svg_num(cx + radius * math.cos(math.radians(turn + i * 360 / corners)))},"
        f"{svg_num(cy + radius * math.sin(math.radians(turn + i * 360 / corners)))}"
        for i in range(corners)
    )
    return ET.SubElement(parent, "polygon", {"points": points, **common})
