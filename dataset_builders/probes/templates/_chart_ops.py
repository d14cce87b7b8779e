"""Program operations over a single-series chart (a :class:`~chartprobe.dataset_builders.core.chartview.ChartView`).

Each op is pure and returns ``None`` when the answer would not be unique or not
visually well-posed (ties, near-ties between compared marks, trends on fewer than three
marks), so templates never emit an ambiguous item. Positions are 1-based in the chart's
visual reading order (left to right, top to bottom, clockwise from twelve o'clock).
"""

from __future__ import annotations

import itertools
import statistics

from ...core.chartview import ChartView
from ...core.programs import op

REL_EPS = 1e-9


def _unique_extreme(view: ChartView, largest: bool) -> int | None:
    """Data index of the unique largest/smallest mark, clear of the runner-up by the visual margin."""
    ranked = sorted(range(view.n), key=lambda i: view.values[i], reverse=largest)
    if view.n < 2 or not view.visually_distinct(view.values[ranked[0]], view.values[ranked[1]]):
        return None
    return ranked[0]


def _mean_clear(view: ChartView) -> float | None:
    """The mean, provided no mark sits within the visual margin of it (else None)."""
    mean = statistics.fmean(view.values)
    if any(not view.visually_distinct(v, mean) for v in view.values):
        return None
    return mean


def _exact_mean_split(view: ChartView) -> float | None:
    """The mean, provided no value equals it exactly (for value-based reasoning)."""
    mean = statistics.fmean(view.values)
    if any(abs(v - mean) <= REL_EPS * max(1.0, abs(mean)) for v in view.values):
        return None
    return mean


# -- perception: geometry only ------------------------------------------------------------

@op("count_marks")
def count_marks(view: ChartView) -> int:
    return view.n


@op("count_above_mean_visual")
def count_above_mean_visual(view: ChartView) -> int | None:
    mean = _mean_clear(view)
    return None if mean is None else sum(v > mean for v in view.values)


@op("max_exceeds_factor_of_min")
def max_exceeds_factor_of_min(view: ChartView, factor: float) -> bool | None:
    lo, hi = min(view.values), max(view.values)
    if lo <= 0 or abs(hi / lo - factor) < 0.15 * factor:  # too close to call by eye
        return None
    return hi > factor * lo


@op("trend")
def trend(view: ChartView) -> str | None:
    seq = [view.values[i] for i in view.order]
    if len(seq) < 3:
        return None
    steps = [b - a for a, b in itertools.pairwise(seq)]
    if any(not view.visually_distinct(a, b) for a, b in itertools.pairwise(seq)):
        return None
    if all(s > 0 for s in steps):
        return "increasing"
    if all(s < 0 for s in steps):
        return "decreasing"
    return "fluctuating"


@op("extreme_position")
def extreme_position(view: ChartView, largest: bool) -> int | None:
    idx = _unique_extreme(view, largest)
    return None if idx is None else view.order.index(idx) + 1


@op("compare_positions")
def compare_positions(view: ChartView, i: int, j: int) -> bool | None:
    a, b = view.values[view.at_position(i)], view.values[view.at_position(j)]
    return a > b if view.visually_distinct(a, b) else None


@op("count_distinct_colors")
def count_distinct_colors(view: ChartView) -> int:
    return len(set(view.mark_colors()))


# -- grounding: label <-> element ------------------------------------------------------------

@op("label_at_position")
def label_at_position(view: ChartView, k: int) -> str:
    return view.labels[view.at_position(k)]


@op("extreme_label")
def extreme_label(view: ChartView, largest: bool) -> str | None:
    idx = _unique_extreme(view, largest)
    return None if idx is None else view.labels[idx]


@op("value_of")
def value_of(view: ChartView, label: str) -> float:
    return view.value(label)


@op("position_of")
def position_of(view: ChartView, label: str) -> int:
    return view.position(label)


@op("bbox_of")
def bbox_of(view: ChartView, label: str) -> tuple[float, float, float, float] | None:
    box = view.box(label)
    # A clipped or sliver mark (zero width/height) has no box a model could be scored on by IoU.
    if box is None or box[2] - box[0] < 0.005 or box[3] - box[1] < 0.005:
        return None
    return box


@op("color_of")
def color_of(view: ChartView, label: str) -> str | None:
    return view.color_name(label)  # None when the colour has no unambiguous plain name


# -- simple reasoning: one operation over values ------------------------------------------

@op("top_k_labels")
def top_k_labels(view: ChartView, k: int) -> list[str] | None:
    ranked = sorted(range(view.n), key=lambda i: view.values[i], reverse=True)
    if view.n <= k or len({view.values[i] for i in ranked[:k + 1]}) < k + 1:
        return None  # a tie inside or at the edge of the top k makes the list ambiguous
    return [view.labels[i] for i in ranked[:k]]


@op("total")
def total(view: ChartView) -> float:
    return sum(view.values)


@op("mean")
def mean(view: ChartView) -> float:
    return statistics.fmean(view.values)


@op("abs_difference")
def abs_difference(view: ChartView, a: str, b: str) -> float:
    return abs(view.value(a) - view.value(b))


@op("max_minus_mean")
def max_minus_mean(view: ChartView) -> float:
    return max(view.values) - statistics.fmean(view.values)


@op("labels_above_mean")
def labels_above_mean(view: ChartView) -> list[str] | None:
    m = _exact_mean_split(view)
    if m is None:
        return None
    return [view.labels[i] for i in view.order if view.values[i] > m]


@op("percent_of_total")
def percent_of_total(view: ChartView, label: str) -> float:
    return 100.0 * view.value(label) / sum(view.values)


@op("rank_of")
def rank_of(view: ChartView, label: str) -> int | None:
    v = view.value(label)
    if sum(x == v for x in view.values) > 1:
        return None
    return 1 + sum(x > v for x in view.values)


@op("ratio")
def ratio(view: ChartView, a: str, b: str) -> float | None:
    vb = view.value(b)
    return None if vb == 0 else view.value(a) / vb


# -- complex reasoning (held out): two or more operations chained ------------------------

@op("max_exceeds_mean_of_others")
def max_exceeds_mean_of_others(view: ChartView) -> float | None:
    idx = _unique_extreme(view, largest=True)
    if idx is None:
        return None
    others = [v for i, v in enumerate(view.values) if i != idx]
    return view.values[idx] - statistics.fmean(others)


@op("unique_pair_over_half")
def unique_pair_over_half(view: ChartView) -> list[str] | None:
    half = sum(view.values) / 2
    pairs = [p for p in itertools.combinations(range(view.n), 2)
             if view.values[p[0]] + view.values[p[1]] > half]
    if len(pairs) != 1:
        return None
    return [view.labels[i] for i in pairs[0]]


@op("sum_above_mean")
def sum_above_mean(view: ChartView) -> float | None:
    m = _exact_mean_split(view)
    return None if m is None else sum(v for v in view.values if v > m)


@op("top2_minus_bottom2")
def top2_minus_bottom2(view: ChartView) -> float | None:
    if view.n < 4:
        return None
    s = sorted(view.values)
    return s[-1] + s[-2] - s[0] - s[1]


@op("label_closest_to_mean")
def label_closest_to_mean(view: ChartView) -> str | None:
    m = statistics.fmean(view.values)
    dist = sorted((abs(v - m), i) for i, v in enumerate(view.values))
    if view.n < 2 or abs(dist[0][0] - dist[1][0]) <= REL_EPS * max(1.0, m):
        return None
    return view.labels[dist[0][1]]


@op("count_at_least_fraction_of_max")
def count_at_least_fraction_of_max(view: ChartView, fraction: float) -> int | None:
    cut = fraction * max(view.values)
    if any(abs(v - cut) <= REL_EPS * max(1.0, cut) for v in view.values):
        return None
    return sum(v >= cut for v in view.values)


@op("gap_second_to_smallest_share")
def gap_second_to_smallest_share(view: ChartView) -> float | None:
    if view.n < 3 or len(set(view.values)) < view.n:
        return None
    s = sorted(view.values, reverse=True)
    return 100.0 * (s[1] - s[-1]) / sum(view.values)
