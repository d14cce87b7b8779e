"""R-RANK-TOP3, a simple-reasoning probe.

Ranking: the three categories with the largest values.

The op rejects a tie inside or at the edge of the top three.
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


@template("R-RANK-TOP3")
class RankTop3(Template):
    skill = "reasoning"
    answer_type = "list"
    op = "top_k_labels"
    description = "The three categories with the largest values."
    phrasings = (("Which three categories have the largest values? Answer as a comma-separated list, "
                  "largest first."),
                 "List the top three categories by value as a comma-separated list.")

    def bind(self, view: ChartView, rng: np.random.Generator) -> dict[str, Any] | None:
        return {"k": 3}
