"""Value orders along the axis: exchangeable by default, sorted only where a trend is asked.

A probe bank whose series are often sorted teaches "the tallest bar is at the right end"
(an agent answering from positions alone passed 76% of rank questions when two thirds of the
series were sorted). So every chart's values are a uniformly random order of the sampled
values — except *trend charts*: a share of the charts is drawn for the trend probe, with
an increasing, decreasing or shuffled order (one third each, so the trend answer is
balanced); only those charts are asked the trend probe, and on their sorted ones no probe
whose answer the sort order alone would decide (the builder asks :func:`order_decides`).
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

from ..core.programs import answer_of

__all__ = ["ORDER_REGIMES", "ORDER_TYPES", "TREND_SHARE", "is_monotone", "order_decides"]

ORDER_REGIMES = ("shuffled", "ascending", "descending")
"""The orders of a trend chart (one third each); every other chart is ``shuffled``."""
TREND_SHARE = 0.25
"""Share of the bank's charts drawn as trend charts."""
ORDER_TYPES = frozenset({"label", "integer", "count", "list", "bool", "year", "choice"})
"""Answer types a position can decide (a number or a box needs the magnitudes)."""


def is_monotone(values: tuple[float, ...]) -> bool:
    """Strictly increasing or strictly decreasing (at least three values)."""
    steps = [b - a for a, b in itertools.pairwise(values)]
    return len(values) >= 3 and (all(s > 0 for s in steps) or all(s < 0 for s in steps))


def _sorted_view(view: Any, descending: bool) -> Any:
    series = view.spec.data.series[0]
    ordered = dataclasses.replace(series, values=tuple(sorted(series.values, reverse=descending)))
    data = dataclasses.replace(view.spec.data, series=(ordered, *view.spec.data.series[1:]))
    return dataclasses.replace(view, spec=view.spec.replace(data=data))


def order_decides(question: Any, view: Any) -> bool:
    """True when sorting the chart's values the other way would change ``question``'s answer,
    i.e. on a sorted chart the answer follows from positions alone."""
    if question.answer_type not in ORDER_TYPES:
        return False
    answers = {answer_of(question.program, _sorted_view(view, d), question.answer_type) for d in (False, True)}
    return len(answers) > 1
