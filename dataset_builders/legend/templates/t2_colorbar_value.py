"""T2 colour-bar value extraction: map a cell's colour through the bar to a value."""

from __future__ import annotations

from . import legend_template
from ._base import LegendTemplate, fmt


@legend_template("t2_colorbar_value")
class ColorbarValue(LegendTemplate):
    """Read a cell's value; with printed values the bar is not needed (answer kept when masked)."""

    task_family, capability, answer_type = "T2", "value_extraction", "number"
    forms = ("colorbar",)
    description = "What is the value of the cell in row '<row>', column '<column>'?"
    tolerance_rule = "colorbar"

    def candidates(self, st, rng):
        vals = st.all_values()
        lo, hi = float(vals.min()), float(vals.max())
        # Cells in the upper part of the scale: a 5% tolerance is a fair reading error there.
        return [{"row": r, "col": c} for r in range(vals.shape[0]) for c in range(vals.shape[1])
                if vals[r, c] >= lo + 0.4 * (hi - lo)]

    def answer(self, st, params):
        return fmt(float(st.all_values()[params["row"], params["col"]]))

    def text(self, st, params):
        name = st.chart.data.series[params["row"]].name
        return f"What is the value of the cell in row '{name}', column '{st.categories[params['col']]}'?"

    def evidence(self, st, params):
        return () if st.add_labels else ("legend/colorbar",)
