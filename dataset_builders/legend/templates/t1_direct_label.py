"""T1 direct labels: which label is written next to a mark?"""

from __future__ import annotations

from . import legend_template
from ._base import LegendTemplate


@legend_template("t1_direct_label")
class DirectLabel(LegendTemplate):
    """Read the local label text beside a series' marks (legend form ``direct``)."""

    task_family, capability, answer_type = "T1", "guide_read", "label"
    forms = ("direct",)
    modes = ("single", "double")
    anchor = "item"
    description = "Which label is written next to <visual cue>?"

    def candidates(self, st, rng):
        return [{"item": i} for i in range(len(st.labels))]

    def answer(self, st, params):
        return st.labels[params["item"]]

    def text(self, st, params):
        return f"Which label is written directly next to {st.cue(params['item'])}?"
