"""T1 colour bar: what value does one end of the colour bar stand for?"""

from __future__ import annotations

from . import legend_template
from ._base import LegendTemplate, fmt


@legend_template("t1_colorbar_end")
class ColorbarEnd(LegendTemplate):
    """Read a scale endpoint: the bar spans the data range, so its ends are the extremes (which
    end holds the maximum follows the bar's direction: an inverted bar has it at the bottom)."""

    task_family, capability, answer_type = "T1", "guide_read", "number"
    forms = ("colorbar",)
    description = "What value does the top/bottom end of the colour bar stand for?"
    tolerance_rule = "colorbar"

    def candidates(self, st, rng):
        return [{"end": "top"}, {"end": "bottom"}]

    def answer(self, st, params):
        vals = st.all_values()
        high_end = "top" if st.legend.direction == "up" else "bottom"
        return fmt(float(vals.max() if params["end"] == high_end else vals.min()))

    def text(self, st, params):
        return f"What value does the {params['end']} end of the colour bar stand for?"

    def evidence(self, st, params):
        return ("legend/colorbar",)
