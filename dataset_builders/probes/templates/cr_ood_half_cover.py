"""CR-OOD-HALF-COVER, an out-of-template complex-reasoning probe (held out).

Halve the total, rank, accumulate running sums (a primitive no trained template uses), find
the first that passes the half.
"""

from __future__ import annotations

from ..phrase_bank_ood import OOD_PHRASINGS
from . import (
    _ood_chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._ood_base import OodChartTemplate


@template("CR-OOD-HALF-COVER")
class HalfCover(OodChartTemplate):
    answer_type = "count"
    op = "count_largest_to_pass_half"
    description = "How many of the largest categories it takes to pass half of the total."
    phrasings = OOD_PHRASINGS["CR-OOD-HALF-COVER"]
