"""T2 binding: where does a named series reach its highest value?

On a scatter plot the answer is the highest point's position counting from the left, not its
x coordinate: the x of a point (78, on an axis ticked every 10) cannot be read exactly, so an
exact coordinate would score a correct reading (79) as wrong. A position is what the marks show.
"""

from __future__ import annotations

import numpy as np

from . import legend_template
from ._base import LegendTemplate


@legend_template("t2_bind_peak")
class BindPeak(LegendTemplate):
    """Bind a label to its marks and locate their peak: no value has to be read off an axis,
    so a wrong answer means the wrong marks were bound."""

    task_family, capability, answer_type = "T2", "bind", "label"
    kinds = ("radar", "scatter")
    """Kinds without a time axis: over one, trajectories put the peak at an end (``t2_bind_trend``)."""
    description = "At which <x> does '<label>' reach its highest value?"

    def candidates(self, st, rng):
        out = []
        for i, label in enumerate(st.labels):
            vals = np.sort(np.asarray(st.series_values(i)))
            if vals[-1] - vals[-2] >= st.margin():
                out.append({"labels": [label]})
        return out

    def answer(self, st, params):
        vals = np.asarray(st.series_values(st.item_of(params["labels"][0])))
        top = np.sort(vals)
        if top[-1] - top[-2] < st.margin():
            return None
        peak = int(np.argmax(vals))
        xs = st.chart.data.x_values
        if xs is None:
            return st.categories[peak]
        lefts = sorted(range(len(vals)), key=lambda i: xs[i])  # reading order: left to right
        return str(lefts.index(peak) + 1)

    def text(self, st, params):
        label = params["labels"][0]
        if st.chart.data.x_values is not None:
            return (f"Counting the points of '{label}' from the left, which one is its highest? "
                    "Answer with its position (1 = leftmost).")
        noun = st.chart.axes.x_label.lower() or "axis"  # radar charts name their spokes, not an x axis
        return f"At which {noun} does '{label}' reach its highest value?"
