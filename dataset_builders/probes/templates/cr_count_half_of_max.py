"""CR-COUNT-HALF-OF-MAX, a held-out complex-reasoning probe.

Halve the maximum, then count the categories at or above it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.chartview import ChartView
from . import (
    _chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._base import Template


@template("CR-COUNT-HALF-OF-MAX")
class CountHalfOfMax(Template):
    skill = "complex"
    answer_type = "count"
    op = "count_at_least_fraction_of_max"
    held_out = True
    description = "Number of categories with at least half the largest value."
    phrasings = ("How many categories have a value of at least half the largest value?",)

    def bind(self, view: ChartView, rng: np.random.Generator) -> dict[str, Any] | None:
        return {"fraction": 0.5}
