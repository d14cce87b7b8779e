"""T2 value extraction: the value of a named series at a named point."""

from __future__ import annotations

from . import legend_template
from ._base import LegendTemplate, fmt


@legend_template("t2_value")
class SeriesValue(LegendTemplate):
    """A lookup that fails when the wrong marks are bound (paper §4.3's "value of 'Finance' in 2015")."""

    task_family, capability, answer_type = "T2", "value_extraction", "number"
    description = "What is the value of '<label>' at <point>?"

    def candidates(self, st, rng):
        if st.wedges:
            return [{"labels": [label]} for label in st.labels]
        n = len(st.categories)
        return [{"labels": [label], "point": int(c)} for label in st.labels for c in rng.permutation(n)[:2]]

    def answer(self, st, params):
        item = st.item_of(params["labels"][0])
        if "point" not in params:
            return fmt(st.wedge_values()[item])
        return fmt(st.series_values(item)[params["point"]])

    def text(self, st, params):
        label = params["labels"][0]
        if "point" not in params:
            return f"What value does the '{label}' wedge represent?"
        xs = st.chart.data.x_values
        where = f"at x = {fmt(xs[params['point']])}" if xs is not None else f"at {st.categories[params['point']]}"
        return f"What is the value of '{label}' {where}?"
