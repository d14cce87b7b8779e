"""Is the evidence visible? Text boxes (legend, title, value labels, annotations) over data marks.

A question is only fair if the marks it reads can be seen. From a render's measured boxes
(``render.Rendered.boxes``), :func:`occlusions` lists every text element that covers more
than ``limit`` of a data mark's box: the legend box, the title, axis labels and value labels
of *other* marks (a value label printed on its own bar belongs to it). Builders call
:func:`occluded` on every chart they keep and redraw (re-lay out or resample) the ones that
fail; the judge keeps exactly the charts whose injected flaw *is* such an occlusion.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = ["COVER_LIMIT", "Occlusion", "covered_share", "occluded", "occlusions"]

COVER_LIMIT = 0.25
"""A mark more than a quarter covered by text counts as hidden (issue 14, "evidence visible")."""
TEXT_PREFIXES = ("legend/box", "title", "axis/x/label", "axis/y/label", "value_label/", "annotation/")
"""Elements drawn over the plot that may hide marks (tick labels sit outside the axes)."""
MARK_PREFIX = "mark/"

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Occlusion:
    """``text`` covers ``share`` of ``mark``'s box."""

    text: str
    mark: str
    share: float


def covered_share(mark: Box, text: Box) -> float:
    """Fraction of ``mark``'s area inside ``text`` (0 for a degenerate mark box)."""
    w = max(0.0, min(mark[2], text[2]) - max(mark[0], text[0]))
    h = max(0.0, min(mark[3], text[3]) - max(mark[1], text[1]))
    area = (mark[2] - mark[0]) * (mark[3] - mark[1])
    return w * h / area if area > 0 else 0.0


def _own_label(text: str, mark: str) -> bool:
    """``value_label/s/c`` printed on ``mark/s/c`` is that mark's own label, not an occlusion."""
    return text.startswith("value_label/") and text[len("value_label/"):] == mark[len(MARK_PREFIX):]


def occlusions(boxes: Mapping[str, Box], limit: float = COVER_LIMIT,
               marks: Iterable[str] | None = None) -> list[Occlusion]:
    """Every (text, mark) pair where the text covers more than ``limit`` of the mark's box.

    ``marks`` restricts the check to the marks a question reads (default: every data mark).
    """
    wanted = [m for m in (boxes if marks is None else marks) if m.startswith(MARK_PREFIX) and m in boxes]
    texts = [t for t in boxes if t.startswith(TEXT_PREFIXES)]
    out = []
    for m in wanted:
        for t in texts:
            if _own_label(t, m):
                continue
            share = covered_share(boxes[m], boxes[t])
            if share > limit:
                out.append(Occlusion(t, m, round(share, 4)))
    return out


def occluded(boxes: Mapping[str, Box], limit: float = COVER_LIMIT) -> bool:
    """True when any data mark is more than ``limit`` covered by text."""
    return bool(occlusions(boxes, limit))
