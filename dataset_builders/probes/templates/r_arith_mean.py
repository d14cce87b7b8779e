"""R-ARITH-MEAN, a simple-reasoning probe.

Mean: the average of all values.
"""

from __future__ import annotations

from . import (
    _chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._base import Template


@template("R-ARITH-MEAN")
class ArithMean(Template):
    skill = "reasoning"
    answer_type = "number"
    op = "mean"
    needs_values = True
    description = "Mean of all values."
    phrasings = ("What is the average (mean) of all the values shown in the chart?",)
