"""R-RANK-POSITION, a simple-reasoning probe.

Ranking: the rank of a named category by value (1 = largest); ties are rejected.
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


@template("R-RANK-POSITION")
class RankOfNamed(Template):
    skill = "reasoning"
    answer_type = "integer"
    op = "rank_of"
    description = "Rank of a named category when sorted from largest to smallest value."
    phrasings = (("Ranked from largest to smallest value, what is the rank of {label}? Answer with a "
                  "number (1 = largest)."),)

    def bind(self, view: ChartView, rng: np.random.Generator) -> dict[str, Any] | None:
        return {"label": pick_labels(view, rng, 1)[0]}
