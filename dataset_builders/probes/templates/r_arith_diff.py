"""R-ARITH-DIFF, a simple-reasoning probe.

Difference: the absolute difference between two named categories' values.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.chartview import ChartView
from . import (
    _chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._base import Template, pick_labels


@template("R-ARITH-DIFF")
class ArithDiff(Template):
    skill = "reasoning"
    answer_type = "number"
    op = "abs_difference"
    needs_values = True
    description = "Absolute difference between the values of two named categories."
    phrasings = ("What is the difference between the values of {a} and {b}?",
                 "By how much do the values of {a} and {b} differ?")

    def bind(self, view: ChartView, rng: np.random.Generator) -> dict[str, Any] | None:
        a, b = pick_labels(view, rng, 2)
        return {"a": a, "b": b}
