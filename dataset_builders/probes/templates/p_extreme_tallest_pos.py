"""P-EXTREME-TALLEST-POS, a perception probe.

Where the biggest mark sits, as a position in reading order (never by name).
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


@template("P-EXTREME-TALLEST-POS")
class TallestPosition(Template):
    skill = "perception"
    answer_type = "integer"
    op = "extreme_position"
    description = "Position (in reading order) of the tallest bar / largest segment."
    phrasings = (("At which position, {counting}, is the {big} {noun}? Answer with its position "
                  "number, starting at 1."),)

    def bind(self, view: ChartView, rng: np.random.Generator) -> dict[str, Any] | None:
        return {"largest": True}
