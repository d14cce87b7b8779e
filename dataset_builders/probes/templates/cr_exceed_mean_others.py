"""CR-EXCEED-MEAN-OTHERS, a held-out complex-reasoning probe.

Find the largest category, average the rest, subtract (three chained steps).
"""

from __future__ import annotations

from . import (
    _chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._base import Template


@template("CR-EXCEED-MEAN-OTHERS")
class ExceedMeanOthers(Template):
    skill = "complex"
    answer_type = "number"
    op = "max_exceeds_mean_of_others"
    held_out = True
    needs_values = True
    description = "How far the largest category exceeds the mean of the others."
    phrasings = ("By how much does the largest category exceed the mean of the others?",)
