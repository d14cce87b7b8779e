"""T3 compare: is one named series higher than another at a point?"""

from __future__ import annotations

from . import legend_template
from ._base import LegendTemplate


@legend_template("t3_compare")
class Compare(LegendTemplate):
    """A relational question over two bound series (Parsing -> Binding -> Reasoning chain)."""

    task_family, capability, answer_type = "T3", "reason", "bool"
    description = "At <point>, is '<A>' higher than '<B>'?"

    def _pair_values(self, st, params):
        a, b = (st.item_of(lb) for lb in params["labels"])
        if "point" not in params:
            return st.wedge_values()[a], st.wedge_values()[b]
        return st.series_values(a)[params["point"]], st.series_values(b)[params["point"]]

    def candidates(self, st, rng):
        out = []
        labels = st.labels
        points = [None] if st.wedges else [int(c) for c in rng.permutation(len(st.categories))[:3]]
        for i in range(len(labels)):
            for j in range(len(labels)):
                for c in points:
                    params = {"labels": [labels[i], labels[j]], **({} if c is None else {"point": c})}
                    if i != j and self.answer(st, params) is not None:
                        out.append(params)
        return out

    def answer(self, st, params):
        va, vb = self._pair_values(st, params)
        if abs(va - vb) < st.margin():
            return None
        return "yes" if va > vb else "no"

    def text(self, st, params):
        a, b = params["labels"]
        if "point" not in params:
            return f"Is the '{a}' wedge larger than the '{b}' wedge?"
        xs = st.chart.data.x_values
        where = f"At x = {xs[params['point']]:g}" if xs is not None else f"At {st.categories[params['point']]}"
        return f"{where}, is the value of '{a}' higher than that of '{b}'?"
