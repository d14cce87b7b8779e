"""P-EXTREME-SHORTEST-POS, a perception probe.

Where the smallest mark sits, as a position in reading order (never by name).
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


@template("P-EXTREME-SHORTEST-POS")
class ShortestPosition(Template):
    skill = "perception"
    answer_type = "integer"
    op = "extreme_position"
    description = "Position (in reading order) of the shortest bar / smallest segment."
    phrasings = (("At which position, {counting}, is the {small} {noun}? Answer with its position "
                  "number, starting at 1."),)

    def bind(self, view: ChartView, rng: np.random.Generator) -> dict[str, Any] | None:
        return {"largest": False}
