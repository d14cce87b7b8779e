"""T3 intersections: how many times do two named lines cross?"""

from __future__ import annotations

import numpy as np

from . import legend_template
from ._base import LegendTemplate


@legend_template("t3_crossing")
class Crossing(LegendTemplate):
    """Count sign changes of the gap between two bound lines (never touching: every gap is
    at least a visible margin, so each crossing is unambiguous)."""

    task_family, capability, answer_type = "T3", "reason", "count"
    kinds = ("line",)
    description = "How many times do the '<A>' and '<B>' lines cross?"

    def candidates(self, st, rng):
        labels = st.labels
        out = []
        for i in range(len(labels)):
            for j in range(i + 1, len(labels)):
                params = {"labels": [labels[i], labels[j]]}
                if self.answer(st, params) is not None:
                    out.append(params)
        return out

    def answer(self, st, params):
        a, b = (np.asarray(st.series_values(st.item_of(lb))) for lb in params["labels"])
        gap = a - b
        if np.min(np.abs(gap)) < st.margin(0.03):
            return None
        return str(int(np.sum(np.sign(gap[1:]) != np.sign(gap[:-1]))))

    def text(self, st, params):
        a, b = params["labels"]
        return f"How many times do the '{a}' and '{b}' lines cross each other?"
