"""P-TREND-PATTERN, a perception probe.

The shape of the series in reading order: increasing, decreasing or fluctuating.

The op rejects fewer than three marks and any adjacent pair that is a visual tie. Asked only
on trend charts (``needs_trend``), whose orders are increasing, decreasing or shuffled alike.
"""

from __future__ import annotations

from . import (
    _chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._base import Template


@template("P-TREND-PATTERN")
class TrendPattern(Template):
    skill = "perception"
    whole_picture = True  # the slope of the marks in reading order, over the whole chart
    answer_type = "label"
    answer_vocabulary = "trend"
    op = "trend"
    needs_trend = True
    description = "Whether mark sizes increase, decrease or fluctuate in reading order."
    phrasings = (("Reading the {nouns} {along}, are their {sizes} increasing, decreasing or "
                  "fluctuating? Answer increasing, decreasing or fluctuating."),
                 ("Going {along}, do the {noun} {sizes} steadily increase, steadily decrease, or "
                  "fluctuate? Answer increasing, decreasing or fluctuating."))
