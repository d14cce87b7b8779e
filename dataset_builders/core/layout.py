"""Figure layout without a layout engine: margins fitted to the text, grown only where text overflows.

Constrained layout measured every tick label, title and legend of a chart before drawing it (in
two passes), and the draw measured them all again: on our chart mix it cost more than the draw
itself (``benchmarks/render_throughput.py``). Instead a chart starts from its kind's margins
(:attr:`ChartKind.margins`, in font sizes, so one table serves every theme and size), raised by
:func:`fitted` to what the few longest tick labels, the axis labels, the title, a colour bar and
an outside legend measure on the built, undrawn figure. The boxes the renderer measures after the
draw anyway tell whether any text still left the canvas (:func:`overflow`); only then are the
margins grown by the overflow and the chart drawn again (at most :data:`MAX_REFITS` times), and a
chart whose text the figure cannot hold is laid out by constrained layout.

Every step is a function of the spec, so the pixels stay byte-identical across processes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

__all__ = ["MAX_REFITS", "OUTSIDE_ANCHORS", "Margins", "fitted", "overflow"]

MAX_REFITS = 2
"""Redraws with grown margins before handing the chart to constrained layout."""

PAD_PT = 3.0
"""Space kept between any text and the canvas edge (constrained layout's own default pad)."""

SLACK_PT = 2.0
"""Added to every fitted margin: a label measured before the draw may move by a point or two."""

TITLE_EM = 1.6
"""Extra top margin for a title, in font sizes."""

OUTSIDE_ANCHORS: dict[str, dict[str, Any]] = {
    "outside right": {"loc": "upper right", "bbox_to_anchor": (1.0, 1.0)},
    "outside bottom": {"loc": "lower center", "bbox_to_anchor": (0.5, 0.0)},
}
"""Figure-legend placement of the legend positions outside the axes: the legend sits at the figure
edge and :func:`fitted` makes that side's margin as wide as the legend."""

_OUTSIDE_SIDE = {"outside right": "right", "outside bottom": "bottom"}


@dataclass(frozen=True)
class Margins:
    """Space around the axes in multiples of the font size (points / font size)."""

    left: float = 1.0
    right: float = 0.8
    bottom: float = 1.0
    top: float = 0.6

    def with_title(self, title: bool) -> Margins:
        """The same margins with room for a title above the axes."""
        return replace(self, top=self.top + TITLE_EM) if title else self

    def grown(self, over: dict[str, float], font_pt: float) -> Margins:
        """Margins grown by ``over`` (points of overflow per side) plus the pad."""
        return Margins(**{side: getattr(self, side) + (over.get(side, 0.0) + PAD_PT) / font_pt
                          if over.get(side, 0.0) > 0 else getattr(self, side)
                          for side in ("left", "right", "bottom", "top")})

    def subplot_params(self, width_in: float, height_in: float, font_pt: float) -> dict[str, float]:
        """``Figure.subplots_adjust`` keywords for a figure of the given size."""
        em_w, em_h = font_pt / 72.0 / width_in, font_pt / 72.0 / height_in
        left, right = self.left * em_w, 1.0 - self.right * em_w
        bottom, top = self.bottom * em_h, 1.0 - self.top * em_h
        # Keep a usable axes even when the text is wider than the figure; the overflow check
        # then sends the chart to constrained layout.
        if right - left < 0.2 or top - bottom < 0.2:
            raise ValueError("margins leave no room for the axes")
        return {"left": left, "right": right, "bottom": bottom, "top": top}


def fitted(scene: Any, floor: Margins, font_pt: float, legend_position: str = "") -> Margins:
    """``floor`` raised to what a Cartesian chart's tick labels, axis labels, title, colour bar
    and outside legend need.

    Measures only the few longest tick labels of each axis (text layout is what makes constrained
    layout dear) on the built, undrawn scene; polar axes keep ``floor``. An estimate: whatever it
    misses (a label wider than a longer one, text outside the axes) the overflow check catches.
    """
    ax = scene.ax
    if ax.name == "polar":
        return floor
    renderer = scene.canvas.get_renderer()
    to_pt = 72.0 / scene.fig.dpi

    def span(texts: list[Any]) -> tuple[float, float]:
        longest = sorted((t for t in texts if t.get_visible() and t.get_text()),
                         key=lambda t: len(t.get_text()), reverse=True)[:3]
        boxes = [t.get_window_extent(renderer) for t in longest]
        return (max((b.width for b in boxes), default=0.0) * to_pt, max((b.height for b in boxes), default=0.0) * to_pt)

    x_labels, y_labels = ax.get_xticklabels(), ax.get_yticklabels()
    # A centred first x label hangs half its width left of the axes, a slanted (right-aligned) one all of it.
    hang = 1.0 if x_labels and x_labels[0].get_ha() == "right" else 0.5
    need = {"left": max(_axis_side(ax.yaxis, span(y_labels)[0], span), PAD_PT + span(x_labels[:1])[0] * hang),
            "bottom": _axis_side(ax.xaxis, span(x_labels)[1], span),
            "top": PAD_PT + span(y_labels[-1:])[1] / 2,
            "right": PAD_PT + span(x_labels[-1:])[0] / 2}
    # A title placed inside the axes (``StyleSpec.title_y`` < 1) needs no room above them, as in
    # constrained layout: its place is not left blank.
    if ax.title.get_text() and ax.title.get_position()[1] >= 1.0:
        need["top"] = PAD_PT + _rc("axes.titlepad") + span([ax.title])[1]
    # A colour bar takes its room from the axes' cell; its tick labels and title need the margin.
    for other in scene.fig.axes:
        if other is not ax:
            need["right"] = max(need["right"], _axis_side(other.yaxis, span(other.get_yticklabels())[0], span))
    if legend_position in _OUTSIDE_SIDE and scene.fig.legends:
        box = scene.fig.legends[0].get_window_extent(renderer)
        edge = _OUTSIDE_SIDE[legend_position]
        # The legend's own border pad keeps it off the edge; the axes keep a font size from it.
        need[edge] += (box.width if edge == "right" else box.height) * to_pt + font_pt
    return Margins(**{k: max(getattr(floor, k), (v + SLACK_PT) / font_pt) for k, v in need.items()})


def _rc(key: str) -> Any:
    import matplotlib as mpl

    return mpl.rcParams[key]


def _axis_side(axis: Any, across: float, span: Any) -> float:
    """Points from the axes edge to the far side of ``axis``' tick labels (``across`` deep) and label."""
    which = axis.axis_name
    need = (_rc(f"{which}tick.major.size") if _rc(f"{which}tick.direction") != "in" else 0.0)
    need += _rc(f"{which}tick.major.pad") + across
    if axis.label.get_visible() and axis.label.get_text():
        lw, lh = span([axis.label])
        need += axis.labelpad + (lw if which == "y" else lh)
    return need + PAD_PT


def overflow(text_boxes: list[Any], width: int, height: int, dpi: float) -> dict[str, float]:
    """Points by which the union of ``text_boxes`` (display Bboxes) crosses each padded edge."""
    if not text_boxes:
        return {}
    pad = PAD_PT * dpi / 72.0
    x0 = min(b.x0 for b in text_boxes)
    x1 = max(b.x1 for b in text_boxes)
    y0 = min(b.y0 for b in text_boxes)
    y1 = max(b.y1 for b in text_boxes)
    px = {"left": pad - x0, "right": x1 - (width - pad), "bottom": pad - y0, "top": y1 - (height - pad)}
    return {side: v * 72.0 / dpi for side, v in px.items() if v > 0.5}
