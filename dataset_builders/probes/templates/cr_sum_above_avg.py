"""CR-SUM-ABOVE-AVG, a held-out complex-reasoning probe.

Compute the mean, select the categories above it, sum them.
"""

from __future__ import annotations

from . import (
    _chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._base import Template


@template("CR-SUM-ABOVE-AVG")
class SumAboveAvg(Template):
    skill = "complex"
    answer_type = "number"
    op = "sum_above_mean"
    held_out = True
    needs_values = True
    description = "Sum of the values of the categories above the mean."
    phrasings = ("What is the sum of the values of all categories that are above the average?",)
