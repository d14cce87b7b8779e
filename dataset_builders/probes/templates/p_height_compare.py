"""P-HEIGHT-COMPARE, a perception probe.

Which of two marks, named by position only, is bigger: a pairwise size comparison.

Positions rather than names keep it pure perception; visual ties are rejected by the op.
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


@template("P-HEIGHT-COMPARE")
class HeightCompare(Template):
    skill = "perception"
    answer_type = "bool"
    op = "compare_positions"
    description = "Whether the mark at position i is bigger than the one at position j."
    phrasings = (("Is the {noun} at position {i} ({counting}) {bigger} than the {noun} at position "
                  "{j}? Answer yes or no."),)

    def bind(self, view: ChartView, rng: np.random.Generator) -> dict[str, Any] | None:
        i, j = (int(p) + 1 for p in rng.choice(view.n, size=2, replace=False))
        return {"i": i, "j": j}
