"""R-ARITH-PERCENT, a simple-reasoning probe.

Percentage: a named category's share of the total.
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


@template("R-ARITH-PERCENT")
class ArithPercent(Template):
    skill = "reasoning"
    answer_type = "number"
    op = "percent_of_total"
    description = "Percentage of the total contributed by a named category."
    phrasings = ("What percentage of the total does {label} account for?",
                 "What share of the total, in percent, is {label}?")

    def bind(self, view: ChartView, rng: np.random.Generator) -> dict[str, Any] | None:
        return {"label": pick_labels(view, rng, 1)[0]}
