"""CR-CLOSEST-TO-MEAN, a held-out complex-reasoning probe.

Compute the mean, then find the category nearest to it (ties rejected).
"""

from __future__ import annotations

from . import (
    _chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._base import Template


@template("CR-CLOSEST-TO-MEAN")
class ClosestToMean(Template):
    skill = "complex"
    answer_type = "label"
    op = "label_closest_to_mean"
    held_out = True
    description = "The category whose value is closest to the mean."
    phrasings = ("Which category's value is closest to the average of all values?",)
