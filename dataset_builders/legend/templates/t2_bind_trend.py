"""T2 binding over a time axis: does a named series end higher than it starts?

Line, area and grouped-bar series follow LegendBench's trajectory templates (linear,
exponential, s-curve, event; ``legend/values.py``), so their peak sits at the first or the last
x in about nine charts of ten: "where does '<label>' peak?" is then answered by "at an end"
without reading the marks (the ``position_prior`` agent scored 0.37 against chance 0.12 on the
full snapshot). Which way the bound series runs is a fair coin in every trajectory template, so
this question keeps the binding (find the label's marks, follow them) and leaves no order prior:
an agent assuming every series rises scores one half, the chance of a yes/no question.
"""

from __future__ import annotations

from . import legend_template
from ._base import LegendTemplate


@legend_template("t2_bind_trend")
class BindTrend(LegendTemplate):
    """Bind a label to its marks and compare their two ends: a wrong answer means the wrong
    marks were followed (the two ends differ by a clear margin)."""

    task_family, capability, answer_type = "T2", "bind", "bool"
    kinds = ("line", "area", "grouped_bar")
    description = "Is '<label>' higher at the last <x> than at the first?"

    def candidates(self, st, rng):
        return [{"labels": [label]} for label in st.labels if self.answer(st, {"labels": [label]}) is not None]

    def answer(self, st, params):
        vals = st.series_values(st.item_of(params["labels"][0]))
        if abs(vals[-1] - vals[0]) < st.margin():
            return None
        return "yes" if vals[-1] > vals[0] else "no"

    def text(self, st, params):
        label = params["labels"][0]
        xs = st.chart.data.x_values
        first, last = ((f"x = {xs[0]:g}", f"x = {xs[-1]:g}") if xs is not None
                       else (st.categories[0], st.categories[-1]))
        return f"Is the value of '{label}' higher at {last} than at {first}?"
