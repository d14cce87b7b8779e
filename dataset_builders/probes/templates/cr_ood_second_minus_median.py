"""CR-OOD-SECOND-MINUS-MEDIAN, an out-of-template complex-reasoning probe (held out).

Rank, take the second largest, subtract the median (a primitive no trained template uses).
"""

from __future__ import annotations

from ..phrase_bank_ood import OOD_PHRASINGS
from . import (
    _ood_chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._ood_base import OodChartTemplate


@template("CR-OOD-SECOND-MINUS-MEDIAN")
class SecondMinusMedian(OodChartTemplate):
    answer_type = "number"
    op = "second_largest_minus_median"
    needs_values = True
    description = "The second-largest value minus the median of all values."
    phrasings = OOD_PHRASINGS["CR-OOD-SECOND-MINUS-MEDIAN"]
