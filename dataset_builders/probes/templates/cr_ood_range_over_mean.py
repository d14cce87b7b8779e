"""CR-OOD-RANGE-OVER-MEAN, an out-of-template complex-reasoning probe (held out).

Largest minus smallest, divided by the mean: trained steps in an order no concatenation of
trained templates yields (the answer is scale-free, so shares suffice on a pie).
"""

from __future__ import annotations

from ..phrase_bank_ood import OOD_PHRASINGS
from . import (
    _ood_chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._ood_base import OodChartTemplate


@template("CR-OOD-RANGE-OVER-MEAN")
class RangeOverMean(OodChartTemplate):
    answer_type = "number"
    op = "range_over_mean"
    description = "The range (largest minus smallest value) divided by the mean."
    phrasings = OOD_PHRASINGS["CR-OOD-RANGE-OVER-MEAN"]
