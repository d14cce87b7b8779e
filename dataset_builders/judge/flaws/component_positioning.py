"""Component Positioning (Layout Structure): an opaque legend placed on the data, or a title
sunk into the plot (paper Appendix B.2.1, Dimension 6). Standard keywords, nothing extreme.

Strategy C of the paper (squeezed subplots) needs several axes; every chartprobe chart has
one, so it is not used. Verified on boxes: the legend box now covers marks it did not cover;
the title box now reaches into the axes box.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ...core.charts import CHARTS
from . import _evidence as ev
from . import flaw
from ._base import Flaw, Strategy


def _dense_corner(spec) -> str:
    """The inside legend position nearest the largest values (where the data is)."""
    vals = np.asarray([s.values for s in spec.data.series], dtype=float)
    if spec.kind in ("stacked_bar", "area"):
        vals = np.cumsum(vals, axis=0)
    col = int(np.argmax(vals.max(axis=0)))
    xs = spec.data.x_values or tuple(range(len(spec.data.categories)))
    right = xs[col] >= (min(xs) + max(xs)) / 2
    if CHARTS.get(spec.kind).value_axis == "x":  # hbar: long bars reach right; first category on top
        return "upper right" if col < len(xs) / 2 else "lower right"
    return "upper right" if right else "upper left"


class LegendOverData(Strategy):
    name = "legend_over_data"
    description = ("Strategy A (The Bad Legend Spot): a STANDARD loc (e.g. 'upper right') that "
                   "coincides with the data, with an opaque frame covering the marks behind it.")
    kinds = ("bar", "hbar", "grouped_bar", "stacked_bar", "line", "scatter", "area")

    def applies(self, spec):
        return super().applies(spec) and spec.legend.form == "box"

    def apply(self, spec, rng):
        return spec.replace(legend=dataclasses.replace(spec.legend, position=_dense_corner(spec), opaque=True))

    def verify(self, before, after, better, worse):
        covered = sorted(ev.legend_overlaps(after) - ev.legend_overlaps(before))
        if not covered:
            return None
        return {"legend_position": worse.legend.position, "legend_box": list(after.boxes["legend/box"]),
                "covered_marks": covered}


class SunkenTitle(Strategy):
    name = "sunken_title"
    description = ("Strategy B (The Sunken Title): the title lowered so it touches or overlaps the "
                   "top of the data/grid (e.g. y=0.9 or 0.95).")
    kinds = ("bar", "hbar", "grouped_bar", "stacked_bar", "line", "scatter", "area", "heatmap")

    def applies(self, spec):
        return super().applies(spec) and bool(spec.style.title)

    def apply(self, spec, rng):
        return spec.replace(style=dataclasses.replace(spec.style, title_y=round(float(rng.uniform(0.88, 0.95)), 3)))

    def verify(self, before, after, better, worse):
        if "title" not in after.boxes or "axes" not in after.boxes:
            return None
        def depth(r):  # how far the title's bottom edge reaches below the top of the axes
            return ev.px_box(r, "title")[3] - ev.px_box(r, "axes")[1]

        if depth(before) > 0 or depth(after) < 4:
            return None
        return {"title_y": worse.style.title_y, "title_depth_into_axes_px": round(depth(after), 1),
                "title_box": list(after.boxes["title"]), "axes_box": list(after.boxes["axes"])}


@flaw("component_positioning")
class ComponentPositioning(Flaw):
    """Components placed where they hide the data."""

    strategies = (LegendOverData(), SunkenTitle())
