"""R-ARITH-RATIO, a simple-reasoning probe.

Ratio: one named category's value divided by another's.
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


@template("R-ARITH-RATIO")
class ArithRatio(Template):
    skill = "reasoning"
    answer_type = "number"
    op = "ratio"
    description = "Ratio of the values of two named categories."
    phrasings = ("What is the ratio of the value of {a} to the value of {b}?",
                 "How many times the value of {b} is the value of {a}?")

    def bind(self, view: ChartView, rng: np.random.Generator) -> dict[str, Any] | None:
        a, b = pick_labels(view, rng, 2)
        return {"a": a, "b": b}
