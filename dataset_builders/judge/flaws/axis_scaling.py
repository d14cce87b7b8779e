"""Axis Scaling (Data Fidelity): the value-axis range set just below the data maximum, so the
top of the data is cut off (paper Appendix B.2.1, Dimension 4). Visible but not extreme.

Verified on boxes: some marks (never more than 40% of them) now reach beyond the axes box, and
none did in the better chart, whose axis ends just above its data (2-6% of the range).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ...core.charts import CHARTS
from . import _evidence as ev
from . import flaw
from ._base import Flaw, Strategy

_STACKED = ("stacked_bar", "area")


def _tops(spec) -> np.ndarray:
    """The value each mark reaches: stacked kinds reach their cumulative sums."""
    vals = np.asarray([s.values for s in spec.data.series], dtype=float)
    return np.cumsum(vals, axis=0) if spec.kind in _STACKED else vals


class ClipTop(Strategy):
    name = "clip_max"
    description = ("Set the upper limit of the value axis slightly lower than the maximum value in "
                   "the data (e.g. max 100 -> ylim(top=90)), cutting off the top of the data.")
    kinds = ("bar", "hbar", "grouped_bar", "stacked_bar", "line", "scatter", "area")

    def applies(self, spec):
        return super().applies(spec) and getattr(spec.axes, f"{CHARTS.get(spec.kind).value_axis}_scale") == "linear"

    def prepare(self, spec, rng):
        # The better chart's value axis ends just above its largest value (2-6% of the range), so
        # its marks reach as near the top as the clipped chart's do: the clip, not a fuller plot,
        # is the difference. (Auto limits left 5% and more, and ink centre told 60% of pairs.)
        tops = _tops(spec)
        hi, lo = float(tops.max()), float(tops.min())
        bottom = 0.0 if lo >= 0 else lo - 0.05 * (hi - lo)
        top = hi + float(rng.uniform(0.02, 0.06)) * (hi - bottom)
        axis = CHARTS.get(spec.kind).value_axis
        return spec.replace(axes=dataclasses.replace(spec.axes, **{f"{axis}_limits": (bottom, round(top, 2))}))

    def apply(self, spec, rng):
        tops = _tops(spec)
        hi, lo = float(tops.max()), float(tops.min())
        bottom = 0.0 if lo >= 0 else lo - 0.05 * (hi - lo)
        top = hi - float(rng.uniform(0.06, 0.15)) * (hi - bottom)
        if (tops > top).mean() > 0.4:  # most data gone would be extreme, not a subtle clip
            return None
        axis = CHARTS.get(spec.kind).value_axis
        return spec.replace(axes=dataclasses.replace(spec.axes, **{f"{axis}_limits": (bottom, round(top, 2))}))

    def verify(self, before, after, better, worse):
        if ev.clipped_marks(before):  # a tight top must not cut a marker of the better chart
            return None
        clipped = sorted(ev.clipped_marks(after) - ev.clipped_marks(before))
        n = len(ev.mark_keys(after))
        if not clipped or len(clipped) > 0.4 * n:
            return None
        axis = CHARTS.get(worse.kind).value_axis
        return {"limits": list(getattr(worse.axes, f"{axis}_limits")), "data_max": float(_tops(worse).max()),
                "clipped_marks": clipped, "n_marks": n}


@flaw("axis_scaling")
class AxisScaling(Flaw):
    """Data clipped by a too-small value range."""

    strategies = (ClipTop(),)
