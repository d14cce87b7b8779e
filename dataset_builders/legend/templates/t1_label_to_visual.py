"""T1 semantic -> visual: which visual properties does the legend assign to a label?"""

from __future__ import annotations

import json

from ..vocab import value_names
from . import legend_template
from ._base import LegendTemplate


@legend_template("t1_label_to_visual")
class LabelToVisual(LegendTemplate):
    """Read one entry of a box legend: the answer lists the label's value on every channel."""

    task_family, capability, answer_type = "T1", "guide_read", "list"
    forms = ("box",)
    description = "What visual properties are assigned to '<label>'? (colour, marker, ... of its entry)"

    def candidates(self, st, rng):
        return [{"labels": [label]} for label in st.labels]

    def answer(self, st, params):
        enc = st.encoding(st.item_of(params["labels"][0]))
        return json.dumps(value_names(enc, st.channels))

    def text(self, st, params):
        return (f"According to the legend, what visual properties are assigned to '{params['labels'][0]}'? "
                "List the value of each visual channel.")
