"""T3 rank: the visual rank of a named series (the legend-order study's question)."""

from __future__ import annotations

import numpy as np

from . import legend_template
from ._base import LegendTemplate, State


def rank_basis(st: State) -> tuple[float, ...]:
    """Per legend item, the value its visual rank is read from: a wedge's size, a scatter
    series' highest point, otherwise the value at the last point (where lines end)."""
    if st.wedges:
        return tuple(st.wedge_values())
    reduce = max if st.chart.data.x_values is not None else (lambda vals: vals[-1])
    return tuple(float(reduce(st.series_values(i))) for i in range(len(st.chart.data.series)))


def visual_ranks(st: State) -> list[int] | None:
    """1-based rank (1 = highest) of every item, or None when two items are too close to rank."""
    vals = np.asarray(rank_basis(st))
    ordered = np.sort(vals)
    if len(vals) > 1 and np.min(np.diff(ordered)) < st.margin(0.06):
        return None
    order = np.argsort(-vals)
    ranks = [0] * len(vals)
    for r, i in enumerate(order):
        ranks[int(i)] = r + 1
    return ranks


@legend_template("t3_rank")
class Rank(LegendTemplate):
    """What rank does '<label>' hold? A legend-order shortcut answers its legend position."""

    task_family, capability, answer_type = "T3", "reason", "integer"
    kinds = ("line", "radar", "grouped_bar", "pie", "scatter")
    description = "Ranking all series (1 = highest), what rank does '<label>' hold?"

    def candidates(self, st, rng):
        return [{"labels": [label]} for label in st.labels] if visual_ranks(st) else []

    def answer(self, st, params):
        ranks = visual_ranks(st)
        return None if ranks is None else str(ranks[st.item_of(params["labels"][0])])

    def text(self, st, params):
        label = params["labels"][0]
        if st.wedges:
            basis = "Ranking the wedges by size"
        elif st.chart.data.x_values is not None:
            basis = "Ranking the series by their highest point"
        else:
            basis = f"Ranking the series by their value at {st.categories[-1]}"
        return f"{basis} (1 = highest), what rank does '{label}' hold? Answer with a number."
