"""T1 colour-bar ticks: which value is printed at the k-th labelled tick from one end of the bar?"""

from __future__ import annotations

from ...core.colorbar import ticks_from_end
from . import legend_template
from ._base import LegendTemplate, fmt

ORDINALS = ("first", "second", "third")
"""Ticks asked, counted from an end: reading a label, not counting down a long column."""


def _printed(spec, value: float) -> bool:
    """Whether the tick's label, as the renderer formats it, reads back as the tick's value."""
    try:
        return abs(float(spec.axes.tick_format.format(x=value)) - value) < 1e-9
    except ValueError:  # a unit or a thousands separator in the label: not asked
        return False


@legend_template("t1_colorbar_tick")
class ColorbarTick(LegendTemplate):
    """Read one tick label of the bar. The ticks are a pure function of the spec
    (``core/colorbar.py``, the very ticks the renderer pins), counted from the named end in the
    bar's direction, so the answer follows an inverted bar and a relabelled (rescaled) scale."""

    task_family, capability, answer_type = "T1", "guide_read", "number"
    forms = ("colorbar",)
    description = "What value is printed at the first/second/third labelled tick from the top/bottom of the colour bar?"
    tolerance_rule = "printed"  # the label is printed text: exact to its last digit

    def candidates(self, st, rng):
        return [{"end": end, "k": k} for end in ("bottom", "top") for k in range(1, len(ORDINALS) + 1)
                if self.answer(st, {"end": end, "k": k}) is not None]

    def answer(self, st, params):
        spec = st.spec
        ticks = ticks_from_end(spec, params["end"])
        k = params["k"]
        # Fewer than 2k ticks: the k-th from one end is also near the other, so it is not asked.
        if not 1 <= k <= len(ORDINALS) or len(ticks) < 2 * k or not _printed(spec, ticks[k - 1]):
            return None
        return fmt(ticks[k - 1])

    def text(self, st, params):
        return (f"What value is printed at the {ORDINALS[params['k'] - 1]} labelled tick from the "
                f"{params['end']} of the colour bar?")

    def evidence(self, st, params):
        return ("legend/colorbar",)
