"""G-VT-POSITION-K, a grounding probe.

Element -> label: the category of the mark at an inner position k.

k excludes the ends, which G-VT-LEFTMOST and G-VT-RIGHTMOST already ask about.
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


@template("G-VT-POSITION-K")
class LabelAtPosition(Template):
    skill = "grounding"
    answer_type = "label"
    op = "label_at_position"
    description = "Label of the bar (segment) at an inner position k in reading order."
    phrasings = ("Which category is shown by the {noun} at position {k}, {counting}?",
                 "What is the label of the {noun} at position {k}, {counting}?")

    def bind(self, view: ChartView, rng: np.random.Generator) -> dict[str, Any] | None:
        if view.n < 3:
            return None
        return {"k": int(rng.integers(2, view.n))}
