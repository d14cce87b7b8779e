"""R-RANK-ABOVE-AVG, a simple-reasoning probe.

Comparison with the computed mean: which named categories exceed it.

Unlike P-COUNT-ABOVE-AVG this needs the values recovered; a value exactly at the mean is
rejected by the op.
"""

from __future__ import annotations

from . import (
    _chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._base import Template


@template("R-RANK-ABOVE-AVG")
class RankAboveAvg(Template):
    skill = "reasoning"
    answer_type = "list"
    op = "labels_above_mean"
    description = "Categories whose value is above the mean of all values."
    phrasings = (("Which categories have a value above the average of all values? Answer as a "
                  "comma-separated list."),)
