"""T1 colour-bar orientation: do the highest values sit at the top or the bottom end of the bar?"""

from __future__ import annotations

from . import legend_template
from ._base import LegendTemplate


@legend_template("t1_colorbar_orientation")
class ColorbarOrientation(LegendTemplate):
    """Read which way the scale runs. Bars are drawn in both directions (``LegendSide.direction``,
    drawn per chart, half of them inverted) and the asked end is drawn too, so "yes" and "no"
    are each about half of the answers and a reader assuming the usual high-at-the-top bar
    scores chance. A yes/no answer: "top"/"at the top end" need no alias table."""

    task_family, capability, answer_type = "T1", "guide_read", "bool"
    forms = ("colorbar",)
    answer_set = ("yes", "no")
    description = "Do the highest values of the colour bar sit at its top/bottom end?"

    def candidates(self, st, rng):
        return [{"end": "top"}, {"end": "bottom"}]

    def answer(self, st, params):
        high_end = "top" if st.legend.direction == "up" else "bottom"
        return "yes" if params["end"] == high_end else "no"

    def text(self, st, params):
        return f"Do the highest values of the colour bar sit at its {params['end']} end?"

    def evidence(self, st, params):
        return ("legend/colorbar",)
