"""G-VT-TALLEST, a grounding probe.

Element -> label: the category of the biggest mark (unique beyond the visual margin).
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


@template("G-VT-TALLEST")
class LabelTallest(Template):
    skill = "grounding"
    answer_type = "label"
    op = "extreme_label"
    description = "Label of the tallest bar (hbar: longest; pie: largest segment)."
    phrasings = ("Which category has the {big} {noun}?", "What is the label of the {big} {noun}?")

    def bind(self, view: ChartView, rng: np.random.Generator) -> dict[str, Any] | None:
        return {"largest": True}
