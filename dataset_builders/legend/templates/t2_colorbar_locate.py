"""T2 colour-bar localisation: which cell of a row is highest on the colour scale?"""

from __future__ import annotations

import numpy as np

from . import legend_template
from ._base import LegendTemplate


@legend_template("t2_colorbar_locate")
class ColorbarLocate(LegendTemplate):
    """Localisation replaces identity binding for continuous guides (paper Table 2): find the
    cell whose colour maps to the highest value through the bar."""

    task_family, capability, answer_type = "T2", "bind", "label"
    forms = ("colorbar",)
    description = "In row '<row>', which column has the highest value?"

    def candidates(self, st, rng):
        vals = st.all_values()
        return [{"row": r} for r in range(vals.shape[0])
                if np.sort(vals[r])[-1] - np.sort(vals[r])[-2] >= st.margin(0.08)]

    def answer(self, st, params):
        row = st.all_values()[params["row"]]
        return st.categories[int(np.argmax(row))]

    def text(self, st, params):
        name = st.chart.data.series[params["row"]].name
        return f"In the row '{name}', which column has the highest value according to the colour bar?"

    def evidence(self, st, params):
        return () if st.add_labels else ("legend/colorbar",)
