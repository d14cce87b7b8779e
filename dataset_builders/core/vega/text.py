"""Text extents for Vega scenegraph text items.

Vega's exported scenegraph carries each text item's anchor, alignment, baseline, angle and
font size but not its bounds. vl-convert measures text with the font file itself; Pillow
measuring the same file (DejaVu Sans, registered by :mod:`.engine`) at a large size and
scaling down agrees with it to a hundredth of a pixel (``"S2"`` at 10 px: 12.7110 vs 12.7100).
"""

from __future__ import annotations

import functools
import math
import os

__all__ = ["FONT_DIR", "text_box", "text_width"]

_MEASURE_PX = 100  # measure large, scale down: no hinting error at small sizes


def _font_dir() -> str:
    import matplotlib

    return os.path.join(os.path.dirname(matplotlib.__file__), "mpl-data", "fonts", "ttf")


FONT_DIR = _font_dir()
"""matplotlib's bundled DejaVu fonts: both engines draw every label in the same font file."""


@functools.lru_cache(maxsize=8)
def _font(bold: bool):
    from PIL import ImageFont

    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(os.path.join(FONT_DIR, name), _MEASURE_PX)


@functools.lru_cache(maxsize=65536)
def text_width(text: str, size: float, bold: bool = False) -> float:
    """Advance width in pixels of ``text`` at ``size`` px."""
    return _font(bold).getlength(text) * size / _MEASURE_PX


# Vertical extent relative to the anchor y, in units of the font size, per Vega baseline. Vega
# places "top" at y, "middle" at y - 0.5 size... (vega-scenegraph textMetrics / baseline offsets).
_BASELINE = {"top": (0.0, 1.0), "middle": (-0.5, 0.5), "bottom": (-1.0, 0.0),
             "alphabetic": (-0.79, 0.21), "line-top": (0.0, 1.0), "line-bottom": (-1.0, 0.0)}
_ALIGN = {"left": 0.0, "center": -0.5, "right": -1.0}


def text_box(item: dict, ox: float, oy: float) -> tuple[float, float, float, float] | None:
    """Pixel box (x0, y0, x1, y1) of a scenegraph text item whose group origin is (ox, oy)."""
    text = item.get("text")
    if isinstance(text, list):
        text = " ".join(str(t) for t in text)
    if text is None or str(text) == "":
        return None
    size = float(item.get("fontSize", 11))
    bold = str(item.get("fontWeight", "")) in ("bold", "700", "800", "900")
    width = text_width(str(text), size, bold)
    limit = item.get("limit")
    if limit:
        width = min(width, float(limit))
    x0 = _ALIGN.get(item.get("align", "left"), 0.0) * width
    top, bottom = _BASELINE.get(item.get("baseline", "alphabetic"), _BASELINE["alphabetic"])
    corners = [(x0, top * size), (x0 + width, top * size), (x0, bottom * size), (x0 + width, bottom * size)]
    angle = math.radians(float(item.get("angle") or 0))
    cos, sin = math.cos(angle), math.sin(angle)
    ax = ox + float(item.get("x") or 0) + float(item.get("dx") or 0)
    ay = oy + float(item.get("y") or 0) + float(item.get("dy") or 0)
    radius = float(item.get("radius") or 0)
    if radius:  # a polar offset from (x, y), as vega-scenegraph's text anchorPoint
        theta = float(item.get("theta") or 0) - math.pi / 2
        ax, ay = ax + radius * math.cos(theta), ay + radius * math.sin(theta)
    pts = [(ax + x * cos - y * sin, ay + x * sin + y * cos) for x, y in corners]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))
