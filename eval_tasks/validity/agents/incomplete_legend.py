"""``incomplete_legend``: abstains exactly when the legend looks incomplete, else answers right.

"I don't know" is LegendBench's gold only where the legend evidence a question needs is not
displayed, so a reader that never checks *which* entries are missing can still abstain well:
abstain whenever some entry (or the whole legend) is gone, answer otherwise. This agent is
that rule with perfect answers: on a legend that shows every entry it gives the recomputed
gold (the oracle's answer), on any other legend it abstains. It wins only as far as an
incomplete legend predicts an unanswerable question; ``LegendSuite`` holds it to the best
question-only abstention policy (per template: always answer, or always abstain) + 5 points.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from . import agent
from ._base import ABSTAIN, Agent

Row = Mapping[str, Any]


def legend_incomplete(row: Row) -> bool | None:
    """Whether the row's legend hides some entry or is gone (None: no legend side stored)."""
    try:
        legend = json.loads(row.get("legend_spec") or "null")
    except (TypeError, ValueError):
        return None
    if not isinstance(legend, dict):
        return None
    visible = legend.get("visible")
    return legend.get("form") == "none" or (visible is not None and not all(visible))


@agent("incomplete_legend")
class IncompleteLegend(Agent):
    suites = ("legend",)
    description = "abstains whenever the legend is incomplete, else the recomputed gold"

    def answer(self, suite, row):
        incomplete = legend_incomplete(row)
        if incomplete is None:
            return None
        if incomplete:
            return ABSTAIN
        value = suite.oracle(row)
        return "" if value is None else value
