"""G-TV-POSITION, a grounding probe.

Label -> element: where a named mark sits in reading order.
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


@template("G-TV-POSITION")
class PositionOfNamed(Template):
    skill = "grounding"
    answer_type = "integer"
    op = "position_of"
    description = "Position (in reading order) of a named bar (segment)."
    phrasings = (("At which position, {counting}, is the {noun} for {label}? Answer with its position"
                  " number, starting at 1."),)

    def bind(self, view: ChartView, rng: np.random.Generator) -> dict[str, Any] | None:
        return {"label": pick_labels(view, rng, 1)[0]}
