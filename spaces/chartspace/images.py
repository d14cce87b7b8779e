"""Image helpers: thumbnails, ``data:`` URIs for HTML grids, and boxes drawn on charts.

Boxes are normalized ``(x0, y0, x1, y1)`` with the origin top-left, as the renderer measures
them and as grounding answers are written.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence
from typing import Any

__all__ = ["EVIDENCE", "GOLD", "PRED", "data_uri", "draw_boxes", "scaled"]

GOLD = (20, 150, 60)
"""Gold boxes: green."""
PRED = (220, 40, 40)
"""A model's predicted boxes: red."""
EVIDENCE = (230, 120, 0)
"""What a row's evidence points at (legend entries a question needs, a judge flaw's elements): orange."""


def scaled(image: Any, width: int) -> Any:
    """``image`` resized to ``width`` pixels wide (aspect kept; never upscaled)."""
    from PIL import Image

    if image.width <= width:
        return image
    return image.resize((width, max(1, round(image.height * width / image.width))), Image.LANCZOS)


def data_uri(image: Any, quality: int = 85) -> str:
    """A JPEG ``data:`` URI of ``image`` (charts are flat colours: JPEG q85 stays crisp, ~5x smaller)."""
    buf = io.BytesIO()
    image.convert("RGB").save(buf, format="JPEG", quality=quality)
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def draw_boxes(image: Any, boxes: Sequence[tuple[Sequence[float], str, tuple[int, int, int]]],
               width: int = 3) -> Any:
    """A copy of ``image`` with each ``(box, label, colour)`` outlined and labelled."""
    from PIL import ImageDraw

    out = image.convert("RGB").copy()
    draw = ImageDraw.Draw(out)
    w, h = out.size
    for box, label, colour in boxes:
        x0, y0, x1, y1 = (float(v) for v in box)
        rect = [x0 * w, y0 * h, max(x0 * w, x1 * w), max(y0 * h, y1 * h)]
        draw.rectangle(rect, outline=colour, width=width)
        if label:
            tx, ty = rect[0] + 2, max(0.0, rect[1] - 12)
            draw.rectangle([tx - 1, ty, tx + 6 * len(label) + 2, ty + 11], fill=colour)
            draw.text((tx, ty), label, fill=(255, 255, 255))
    return out
