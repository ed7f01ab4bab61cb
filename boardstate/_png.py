"""Pictures as PNG, for mail, forums and notebooks: the one place an SVG drawing becomes PNG.

The drawings are SVG (a module's ``svg(state, seat)``); a PNG is drawn from that SVG with
cairosvg (the optional extra ``boardstate[png]``, which needs the Cairo library: Debian's
``libcairo2``).  The judge's mails, ``boardstate show -o pos.png`` and a notebook's
``Position.png()`` all come here.
"""

from __future__ import annotations

from ._errors import BoardstateError

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
INSTALL = "install boardstate[png] and the Cairo library (Debian: libcairo2)"


class PngUnavailable(BoardstateError):
    """cairosvg, or the Cairo library under it, does not load (code ``missing-driver``)."""

    def __init__(self, why: str) -> None:
        super().__init__(
            f"pictures are drawn as PNG with cairosvg, which does not load ({why}): {INSTALL}",
            code="missing-driver",
        )


def _cairosvg():
    try:
        import cairosvg
    except (ImportError, OSError) as exc:  # (OSError: the library libcairo2 is missing)
        raise PngUnavailable(" ".join(str(exc).split())[:120]) from None
    return cairosvg


def check_png() -> None:
    """Raise ``PngUnavailable`` (one line saying what to install) unless PNGs can be drawn."""
    _cairosvg()


def png_available() -> bool:
    """Whether PNGs can be drawn here (cairosvg and Cairo load)."""
    try:
        _cairosvg()
    except PngUnavailable:
        return False
    return True


def svg_to_png(svg: str, *, scale: float = 1.0) -> bytes:
    """The SVG document ``svg`` drawn as PNG bytes, ``scale`` times its own size.

    The SVG is read with no access to files or the network (cairosvg's ``unsafe`` off: a
    drawing names no external resource, and none is fetched).  Raises ``PngUnavailable`` when
    cairosvg does not load, and whatever cairosvg raises for a drawing it cannot read.
    """
    png = _cairosvg().svg2png(bytestring=svg.encode("utf-8"), scale=scale, unsafe=False)
    if not png.startswith(PNG_SIGNATURE):  # (cairosvg returns bytes or nothing)
        raise BoardstateError("the picture did not draw as PNG", code="bad-picture")
    return png
