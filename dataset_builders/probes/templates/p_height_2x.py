"""P-HEIGHT-2X, a perception probe.

Whether the biggest mark is more than twice the smallest: a ratio judgment by eye.

The op rejects ratios within 15% of 2, which no one could call from the picture.
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


@template("P-HEIGHT-2X")
class HeightTwice(Template):
    skill = "perception"
    whole_picture = True  # max/min of the marks' sizes: what an ink profile measures
    answer_type = "bool"
    op = "max_exceeds_factor_of_min"
    description = "Whether the biggest mark is more than twice the size of the smallest."
    phrasings = (("Is the {big} {noun} more than twice the {size} of the {small} {noun}? Answer yes "
                  "or no."),)

    def bind(self, view: ChartView, rng: np.random.Generator) -> dict[str, Any] | None:
        return {"factor": 2.0}
