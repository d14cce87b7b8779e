"""T3 colour-bar difference: two cells read through the bar, then subtracted."""

from __future__ import annotations

from . import legend_template
from ._base import LegendTemplate, fmt


@legend_template("t3_colorbar_diff")
class ColorbarDiff(LegendTemplate):
    """Parsing -> Localisation -> Value Extraction -> Reasoning on a continuous guide."""

    task_family, capability, answer_type = "T3", "reason", "number"
    forms = ("colorbar",)
    description = "What is the value of cell (<row>, <c1>) minus that of cell (<row>, <c2>)?"
    tolerance_rule, reads = "colorbar", 2

    def candidates(self, st, rng):
        vals = st.all_values()
        out = []
        for r in range(vals.shape[0]):
            for c1 in range(vals.shape[1]):
                for c2 in range(vals.shape[1]):
                    params = {"row": r, "col": c1, "col2": c2}
                    if c1 != c2 and self.answer(st, params) is not None:
                        out.append(params)
        return out

    def answer(self, st, params):
        vals = st.all_values()
        diff = float(vals[params["row"], params["col"]] - vals[params["row"], params["col2"]])
        return fmt(diff) if diff >= st.margin(0.25) else None

    def misreadings(self, st, params):
        # Either cell read as its neighbour (one row or one column over).
        vals = st.all_values()
        r, c1, c2 = params["row"], params["col"], params["col2"]
        rows, cols = vals.shape

        def near(i, j):
            return [(i + di, j + dj) for di, dj in ((-1, 0), (1, 0), (0, -1), (0, 1))
                    if 0 <= i + di < rows and 0 <= j + dj < cols]

        return tuple([float(vals[cell] - vals[r, c2]) for cell in near(r, c1) if cell != (r, c2)]
                     + [float(vals[r, c1] - vals[cell]) for cell in near(r, c2) if cell != (r, c1)])

    def text(self, st, params):
        name, cats = st.chart.data.series[params["row"]].name, st.categories
        return (f"In the row '{name}', what is the value of the cell in column '{cats[params['col']]}' minus "
                f"the value of the cell in column '{cats[params['col2']]}'?")

    def evidence(self, st, params):
        return () if st.add_labels else ("legend/colorbar",)
