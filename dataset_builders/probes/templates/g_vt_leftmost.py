"""G-VT-LEFTMOST, a grounding probe.

Element -> label: the category of the first mark in reading order (topmost on a horizontal
chart, first clockwise from twelve o'clock on a pie).
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


@template("G-VT-LEFTMOST")
class LabelLeftmost(Template):
    skill = "grounding"
    answer_type = "label"
    op = "label_at_position"
    description = "Label of the first mark (bar: leftmost; hbar: topmost; pie: first clockwise)."
    phrasings = ("What is the label of the {first_mark}?",
                 "Which category does the {first_mark} represent?")

    def bind(self, view: ChartView, rng: np.random.Generator) -> dict[str, Any] | None:
        return {"k": 1}
