"""The ``tolerance`` of a LegendBench numeric row, from its template's rule and its own render.

Templates declare ``tolerance_rule`` (``axis``: read off the value axis; ``colorbar``: read
through the colour bar) and ``reads`` (how many reads a difference adds up). On a chart
with printed values (``add_labels``) every such value is printed, so the answer is exact to
its last printed digit; a pie wedge without printed values has no scale to read, so ±5%.
Rules: :mod:`chartprobe.dataset_builders.core.tolerance`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..core.charts import CHARTS
from ..core.tolerance import tolerance_for
from .templates._base import LegendTemplate, State

__all__ = ["effective_rule", "row_tolerance"]


def effective_rule(tpl: LegendTemplate, st: State) -> str:
    """The rule that applies on ``st``: printed values, no scale (pie), or the template's own."""
    if st.add_labels:
        return "printed"
    if tpl.tolerance_rule == "axis" and not CHARTS.get(st.kind).value_axis:
        return "relative"
    return tpl.tolerance_rule


def row_tolerance(tpl: LegendTemplate, st: State, answer: str, answer_type: str,
                  ticks: Mapping[str, Sequence[float]]) -> str:
    """``abs:x`` / ``rel:r`` for a number row, ``""`` for every other answer type."""
    if answer_type != "number":
        return ""
    return tolerance_for(effective_rule(tpl, st), answer, ticks, CHARTS.get(st.kind).value_axis or "y",
                         tpl.reads).to_str()
