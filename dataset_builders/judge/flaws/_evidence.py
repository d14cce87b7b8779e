"""Detectors that read a flaw off a :class:`Rendered` chart: its element boxes and its pixels.

Nothing here looks at a spec. Geometry works in pixels (boxes are normalized, so they are
scaled by the image size first); colours are sampled at the centres of measured mark boxes,
never guessed from the spec, so a detector confirms what a viewer actually sees.
"""

from __future__ import annotations

import io
from functools import lru_cache
from itertools import combinations
from typing import Any

import numpy as np

__all__ = [
    "background", "clipped_marks", "color_distance", "contrast_ratio", "ink_fraction", "item_color",
    "legend_overlaps", "mark_keys", "overlap_px", "px_box", "text_collisions", "text_keys",
]

_TEXT_PREFIXES = ("tick/x/", "tick/y/", "axis/x/label", "axis/y/label", "title", "value_label/")
_MIN_OVERLAP_PX = 4.0  # anti-aliasing and glyph padding make touching boxes share ~1-2 px


def px_box(r: Any, key: str) -> tuple[float, float, float, float]:
    """Box ``key`` of rendered ``r`` in pixels (x0, y0, x1, y1), origin top-left."""
    x0, y0, x1, y1 = r.boxes[key]
    return (x0 * r.width, y0 * r.height, x1 * r.width, y1 * r.height)


def overlap_px(a: tuple, b: tuple) -> float:
    """Area in px² shared by two pixel boxes."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(w, 0.0) * max(h, 0.0)


def mark_keys(r: Any, series: int | None = None) -> list[str]:
    """Measured ``mark/<s>/<c>`` ids (of one series when given)."""
    prefix = "mark/" if series is None else f"mark/{series}/"
    return sorted(k for k in r.boxes if k.startswith(prefix))


def text_keys(r: Any) -> list[str]:
    """Ids of the chart's own texts (ticks, axis labels, title, value labels; not the legend)."""
    return sorted(k for k in r.boxes if k.startswith(_TEXT_PREFIXES))


def text_collisions(r: Any) -> set[tuple[str, str]]:
    """Pairs of chart texts whose boxes overlap (tick labels of one axis never share a tick)."""
    boxes = {k: px_box(r, k) for k in text_keys(r)}
    out = set()
    for a, b in combinations(sorted(boxes), 2):
        if overlap_px(boxes[a], boxes[b]) >= _MIN_OVERLAP_PX:
            out.add((a, b))
    return out


def clipped_marks(r: Any, tol: float = 2.0) -> set[str]:
    """Marks whose box reaches beyond the axes box: data the axis range cuts off."""
    if "axes" not in r.boxes:
        return set()
    ax = px_box(r, "axes")
    out = set()
    for k in mark_keys(r):
        b = px_box(r, k)
        if b[0] < ax[0] - tol or b[1] < ax[1] - tol or b[2] > ax[2] + tol or b[3] > ax[3] + tol:
            out.add(k)
    return out


def legend_overlaps(r: Any, min_share: float = 0.2) -> set[str]:
    """Marks covered by the legend box over at least ``min_share`` of their own area."""
    if "legend/box" not in r.boxes:
        return set()
    lb = px_box(r, "legend/box")
    out = set()
    for k in mark_keys(r):
        b = px_box(r, k)
        area = max((b[2] - b[0]) * (b[3] - b[1]), 1.0)
        if overlap_px(lb, b) / area >= min_share:
            out.add(k)
    return out


@lru_cache(maxsize=16)
def _pixels(png: bytes) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=float)


def _centre_pixel(r: Any, key: str) -> np.ndarray:
    img = _pixels(r.png)
    x0, y0, x1, y1 = px_box(r, key)
    x = min(max(int((x0 + x1) / 2), 0), r.width - 1)
    y = min(max(int((y0 + y1) / 2), 0), r.height - 1)
    return img[y, x]


def item_color(r: Any, keys: list[str]) -> tuple[float, float, float] | None:
    """Median RGB (0-255) at the centres of boxes ``keys`` (None when none is measured)."""
    found = [_centre_pixel(r, k) for k in keys if k in r.boxes]
    if not found:
        return None
    return tuple(float(v) for v in np.median(np.stack(found), axis=0))


def background(r: Any) -> tuple[float, float, float]:
    """The most common colour inside the axes: the plotting background."""
    img = _pixels(r.png)
    x0, y0, x1, y1 = (int(v) for v in px_box(r, "axes")) if "axes" in r.boxes else (0, 0, r.width, r.height)
    region = img[y0:y1:2, x0:x1:2].reshape(-1, 3)
    colors, counts = np.unique(region, axis=0, return_counts=True)
    return tuple(float(v) for v in colors[int(np.argmax(counts))])


def color_distance(a: tuple, b: tuple) -> float:
    """Euclidean RGB distance in 0-255 units."""
    return float(np.linalg.norm(np.asarray(a) - np.asarray(b)))


def _luminance(c: tuple) -> float:
    lin = [(v / 255) / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in c]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast_ratio(a: tuple, b: tuple) -> float:
    """WCAG contrast ratio (1 = identical luminance, 21 = black on white)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink_fraction(r: Any, tol: float = 40.0) -> float:
    """Share of the axes area whose pixels differ visibly from the background (how much is drawn)."""
    img = _pixels(r.png)
    x0, y0, x1, y1 = (int(v) for v in px_box(r, "axes"))
    region = img[y0:y1, x0:x1].reshape(-1, 3)
    if not len(region):
        return 0.0
    diff = np.linalg.norm(region - np.asarray(background(r)), axis=1)
    return float(np.mean(diff > tol))
