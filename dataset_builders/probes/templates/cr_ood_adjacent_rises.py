"""CR-OOD-ADJACENT-RISES, an out-of-template complex-reasoning probe (held out).

Neighbour differences in reading order, keep the positive ones, count them (the trend
probe reads the same differences but only names their pattern).
"""

from __future__ import annotations

from ..phrase_bank_ood import OOD_PHRASINGS
from . import (
    _ood_chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._ood_base import OodChartTemplate


@template("CR-OOD-ADJACENT-RISES")
class AdjacentRises(OodChartTemplate):
    answer_type = "count"
    op = "count_adjacent_increases"
    description = "How many marks are bigger than their reading-order predecessor."
    phrasings = OOD_PHRASINGS["CR-OOD-ADJACENT-RISES"]
