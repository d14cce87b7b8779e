"""R-MULTI-DIFF-MEAN, a simple-reasoning probe.

Difference against an aggregate: how far the largest value sits above the mean.
"""

from __future__ import annotations

from . import (
    _chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._base import Template


@template("R-MULTI-DIFF-MEAN")
class DiffFromMean(Template):
    skill = "reasoning"
    answer_type = "number"
    op = "max_minus_mean"
    needs_values = True
    description = "Largest value minus the mean of all values."
    phrasings = ("By how much does the largest value exceed the average (mean) of all the values?",)
