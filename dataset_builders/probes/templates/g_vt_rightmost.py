"""G-VT-RIGHTMOST, a grounding probe.

Element -> label: the category of the last mark in reading order.
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


@template("G-VT-RIGHTMOST")
class LabelRightmost(Template):
    skill = "grounding"
    answer_type = "label"
    op = "label_at_position"
    description = "Label of the last mark (bar: rightmost; hbar: bottommost; pie: last clockwise)."
    phrasings = ("What is the label of the {last_mark}?",
                 "Which category does the {last_mark} represent?")

    def bind(self, view: ChartView, rng: np.random.Generator) -> dict[str, Any] | None:
        return {"k": -1}
