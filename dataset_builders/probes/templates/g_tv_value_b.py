"""G-TV-VALUE-B, a grounding probe.

Label -> element -> value: read the value of a named mark (axis or value label).
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


@template("G-TV-VALUE-B")
class ValueOfNamed(Template):
    skill = "grounding"
    answer_type = "number"
    op = "value_of"
    needs_values = True
    description = "Value of a named bar (segment); pies only when value labels are shown."
    phrasings = ("What is the value of the {noun} for {label}?",
                 "According to the chart, what value does {label} have?")

    def bind(self, view: ChartView, rng: np.random.Generator) -> dict[str, Any] | None:
        return {"label": pick_labels(view, rng, 1)[0]}
