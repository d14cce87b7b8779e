"""T2 binding: where does a named series reach its highest value?"""

from __future__ import annotations

import numpy as np

from . import legend_template
from ._base import LegendTemplate, fmt


@legend_template("t2_bind_peak")
class BindPeak(LegendTemplate):
    """Bind a label to its marks and locate their peak: no value has to be read off an axis,
    so a wrong answer means the wrong marks were bound."""

    task_family, capability, answer_type = "T2", "bind", "label"
    kinds = ("line", "radar", "grouped_bar", "area", "scatter")
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
        return fmt(xs[peak]) if xs is not None else st.categories[peak]

    def text(self, st, params):
        label = params["labels"][0]
        if st.chart.data.x_values is not None:
            return f"What is the x value of the highest point of '{label}'?"
        noun = st.chart.axes.x_label.lower() or "axis"  # radar charts name their spokes, not an x axis
        return f"At which {noun} does '{label}' reach its highest value?"
