"""CR-OOD-MEDIAN-LABEL, an out-of-template complex-reasoning probe (held out).

Rank, take the median (a primitive no trained template uses), name it.
"""

from __future__ import annotations

from ..phrase_bank_ood import OOD_PHRASINGS
from . import (
    _ood_chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._ood_base import OodChartTemplate


@template("CR-OOD-MEDIAN-LABEL")
class MedianLabel(OodChartTemplate):
    answer_type = "label"
    op = "median_label"
    description = "The category in the middle of the ranking by value (odd counts only)."
    phrasings = OOD_PHRASINGS["CR-OOD-MEDIAN-LABEL"]
