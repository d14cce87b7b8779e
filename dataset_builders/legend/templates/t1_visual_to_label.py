"""T1 visual -> semantic: which label does the legend give a visual cue?"""

from __future__ import annotations

from ..vocab import CHANNEL_NAMES, value_names
from . import legend_template
from ._base import LegendTemplate


@legend_template("t1_visual_to_label")
class VisualToLabel(LegendTemplate):
    """Anchored on the marks: after a label swap the same cue names another label.

    Compositional legends ask for one factor level ("Which Region does the red colour
    stand for?"); the parameters then name a factor and one of its channel values.
    """

    task_family, capability, answer_type = "T1", "guide_read", "label"
    forms = ("box",)
    anchor = "item"
    description = "Which label does the legend assign to <visual cue>?"

    def candidates(self, st, rng):
        if st.legend.factors:  # one question per factor level, anchored on the first item showing it
            out = []
            for f, factor in enumerate(st.legend.factors):
                first = {level: factor.item_levels.index(level) for level in set(factor.item_levels)}
                out += [{"item": item, "factor": f} for _, item in sorted(first.items())]
            return out
        return [{"item": i} for i in range(len(st.labels))]

    def answer(self, st, params):
        if "factor" in params:
            f = st.legend.factors[params["factor"]]
            return f.levels[f.item_levels[params["item"]]]
        return st.labels[params["item"]]

    def text(self, st, params):
        if "factor" in params:
            f = st.legend.factors[params["factor"]]
            value = value_names(st.encoding(params["item"]), (f.channel,))[0]
            return (f"According to the legend, which {f.name} does the {value} {CHANNEL_NAMES[f.channel]} "
                    "stand for?")
        return f"According to the legend, which label is assigned to {st.cue(params['item'])}?"

    def evidence(self, st, params):
        ids = st.evidence_of_item(params["item"])
        return (ids[params["factor"]],) if "factor" in params else ids
