"""Program ops of the out-of-template complex-reasoning chart templates (``CR-OOD-*``).

Each op uses a primitive no trained template uses (median, running totals) or trained
primitives in an order no concatenation of trained templates yields (see ``probes/steps.py``
and ``probes/compose.py``). Like every op it is pure and returns ``None`` when the answer is
not unique or not well-posed on the view: an even count for a middle category, a running
total too close to half to call, a visual tie between neighbours that are compared.
"""

from __future__ import annotations

import itertools
import statistics

from ...core.chartview import ChartView
from ...core.programs import op

__all__ = ["HALF_MARGIN"]

HALF_MARGIN = 0.01
"""A running total within this share of the total of one half is a coin toss: degenerate."""


@op("median_label")
def median_label(view: ChartView) -> str | None:
    """The category in the middle of the ranking (an odd count of distinct values)."""
    if view.n < 3 or view.n % 2 == 0 or len(set(view.values)) < view.n:
        return None
    ranked = sorted(range(view.n), key=lambda i: view.values[i])
    return view.labels[ranked[view.n // 2]]


@op("count_largest_to_pass_half")
def count_largest_to_pass_half(view: ChartView) -> int | None:
    """How many of the largest categories it takes for their sum to exceed half the total."""
    values = sorted(view.values, reverse=True)
    total = sum(values)
    if view.n < 2 or total <= 0:
        return None
    running = 0.0
    for k, v in enumerate(values, start=1):
        running += v
        # Either side of half must be clear of it: "more than half" must not hinge on rounding.
        if abs(running - total / 2) < HALF_MARGIN * total:
            return None
        if running > total / 2:
            return k
    return None


@op("range_over_mean")
def range_over_mean(view: ChartView) -> float | None:
    """(largest - smallest) / mean: a scale-free spread."""
    m = statistics.fmean(view.values) if view.n else 0.0
    if view.n < 2 or m <= 0:
        return None
    return (max(view.values) - min(view.values)) / m


@op("count_adjacent_increases")
def count_adjacent_increases(view: ChartView) -> int | None:
    """How many reading-order neighbours are bigger than the mark just before them."""
    seq = [view.values[i] for i in view.order]
    if len(seq) < 3 or any(not view.visually_distinct(a, b) for a, b in itertools.pairwise(seq)):
        return None
    return sum(b > a for a, b in itertools.pairwise(seq))


@op("second_largest_minus_median")
def second_largest_minus_median(view: ChartView) -> float | None:
    """The second-largest value minus the median (four or more distinct values)."""
    if view.n < 4 or len(set(view.values)) < view.n:
        return None
    return sorted(view.values, reverse=True)[1] - statistics.median(view.values)
