"""T3 difference: a two-step numeric question over two named series."""

from __future__ import annotations

from . import legend_template
from ._base import LegendTemplate, fmt


@legend_template("t3_diff")
class Difference(LegendTemplate):
    """'<A>' minus '<B>' at a point (Parsing -> Binding -> Value Extraction -> Reasoning chain)."""

    task_family, capability, answer_type = "T3", "reason", "number"
    kinds = ("line", "radar", "grouped_bar", "area", "scatter")
    description = "What is the value of '<A>' minus the value of '<B>' at <point>?"
    reads = 2

    def candidates(self, st, rng):
        labels = st.labels
        out = []
        for c in rng.permutation(len(st.categories))[:2]:
            for i in range(len(labels)):
                for j in range(len(labels)):
                    params = {"labels": [labels[i], labels[j]], "point": int(c)}
                    if i != j and self.answer(st, params) is not None:
                        out.append(params)
        return out

    def answer(self, st, params):
        a, b = (st.item_of(lb) for lb in params["labels"])
        diff = st.series_values(a)[params["point"]] - st.series_values(b)[params["point"]]
        # Large enough that a 5% tolerance on the difference is a fair reading error.
        return fmt(diff) if abs(diff) >= st.margin(0.15) else None

    def misreadings(self, st, params):
        # Either mark read at the neighbouring category (the next bar / point along the axis;
        # a radar's axes wrap around).
        a, b = (st.item_of(lb) for lb in params["labels"])
        vals, p = st.all_values(), params["point"]
        n = vals.shape[1]
        near = {(p + d) % n if st.kind == "radar" else p + d for d in (-1, 1)} - {p}
        near = [q for q in near if 0 <= q < n]
        return tuple([float(vals[a, q] - vals[b, p]) for q in near] + [float(vals[a, p] - vals[b, q]) for q in near])

    def text(self, st, params):
        a, b = params["labels"]
        xs = st.chart.data.x_values
        where = f"at x = {xs[params['point']]:g}" if xs is not None else f"at {st.categories[params['point']]}"
        return f"What is the value of '{a}' minus the value of '{b}' {where}?"
