"""Is every piece of text readable? Text boxes over text boxes, and the legend over axis text.

:mod:`.occlusion` guards the marks a question reads; this guards the words it names. From a
render's measured boxes (``render.Rendered.boxes``):

- :func:`text_overlaps` lists pairs of text elements (title, axis labels, tick labels, legend
  labels, direct labels, printed values, annotations) where one covers more than
  :data:`OVERLAP_LIMIT` of the other's box: a radar whose direct labels sit on top of each other
  asks about labels no one can read;
- :func:`legend_over_text` lists axis labels, tick labels and printed values the legend box covers
  more than :data:`LEGEND_LIMIT` of: a number under the legend cannot be matched to its mark.

Builders refuse (re-lay out or redraw) a chart with either, like a hidden mark; the legend rows
store the largest shares found (``text_overlap_max``, ``legend_text_cover_max``) so ``verify`` can
check them without a render.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Mapping

from .occlusion import Occlusion

__all__ = [
    "LEGEND_LIMIT",
    "OVERLAP_LIMIT",
    "legend_over_text",
    "legend_text_cover_max",
    "readability_problems",
    "text_overlap_max",
    "text_overlaps",
]

OVERLAP_LIMIT = 0.2
"""Two text boxes overlapping by more than a fifth of the smaller one count as unreadable."""
LEGEND_LIMIT = 0.1
"""The legend box may not cover more than a tenth of an axis label, tick label or printed value."""
TEXT_PREFIXES = ("title", "axis/x/label", "axis/y/label", "tick/", "legend/text/", "legend/direct/",
                 "value_label/", "annotation/")
"""Text a reader must read: every label drawn on the figure (legend boxes and handles are not text)."""
UNDER_LEGEND = ("axis/x/label", "axis/y/label", "tick/", "value_label/")
"""Text the legend box must leave visible."""

Box = tuple[float, float, float, float]


def _area(b: Box) -> float:
    return max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])


def _inter(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _overlap_share(a: Box, b: Box) -> float:
    """Intersection over the smaller box's area (0 when either box is degenerate)."""
    small = min(_area(a), _area(b))
    return _inter(a, b) / small if small > 0 else 0.0


def _texts(boxes: Mapping[str, Box]) -> list[str]:
    return sorted(k for k in boxes if k.startswith(TEXT_PREFIXES))


def _group(key: str) -> str:
    return key.rsplit("/", 1)[0]


def text_overlaps(boxes: Mapping[str, Box], limit: float = OVERLAP_LIMIT,
                  slanted: Collection[str] = ()) -> list[Occlusion]:
    """Every pair of text boxes overlapping by more than ``limit`` of the smaller one.

    Two ``slanted`` tick labels of one axis (``Rendered.slanted``) are not compared: their boxes
    are hulls of tilted text, which overlap side by side while the glyphs stay apart (a kind
    slants crowded category labels precisely so that they do).
    """
    out = []
    for a, b in itertools.combinations(_texts(boxes), 2):
        if a in slanted and b in slanted and _group(a) == _group(b):
            continue
        share = _overlap_share(boxes[a], boxes[b])
        if share > limit:
            out.append(Occlusion(a, b, round(share, 4)))
    return out


def legend_over_text(boxes: Mapping[str, Box], limit: float = LEGEND_LIMIT) -> list[Occlusion]:
    """Every axis label, tick label or printed value the legend box covers more than ``limit`` of."""
    legend = boxes.get("legend/box")
    if legend is None:
        return []
    out = []
    for t in (k for k in _texts(boxes) if k.startswith(UNDER_LEGEND)):
        area = _area(boxes[t])
        share = _inter(legend, boxes[t]) / area if area > 0 else 0.0
        if share > limit:
            out.append(Occlusion("legend/box", t, round(share, 4)))
    return out


def readability_problems(boxes: Mapping[str, Box], slanted: Collection[str] = ()) -> list[Occlusion]:
    """Both checks' findings: empty when every label on the chart can be read."""
    return [*text_overlaps(boxes, slanted=slanted), *legend_over_text(boxes)]


def text_overlap_max(boxes: Mapping[str, Box], slanted: Collection[str] = ()) -> float:
    """The largest overlap share of any two text boxes (0.0 when none touch)."""
    return max((o.share for o in text_overlaps(boxes, 0.0, slanted)), default=0.0)


def legend_text_cover_max(boxes: Mapping[str, Box]) -> float:
    """The largest share of an axis label, tick label or printed value under the legend box."""
    return max((o.share for o in legend_over_text(boxes, 0.0)), default=0.0)
