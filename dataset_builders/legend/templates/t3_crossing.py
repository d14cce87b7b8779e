"""T3 intersections: how many times do two named lines cross?"""

from __future__ import annotations

import numpy as np

from . import legend_template
from ._base import LegendTemplate

MAX_ASKED = 2
"""The largest crossing count asked (the rare count a chart offers first).

Counts of 3 and more exist but are not asked, and the answer set stays 0-2: over 1,000 line
charts of the default space, 3 of 3,154 well-posed pairs (0.3% of charts) cross 3 times and
none more. A closed set 0-3 would put uniform at 1/4, so the majority-share check's cap at
1.5 x 1/4 = 37.5%, while 0 and 1 are each ~46% of what the charts offer (2: ~8%): the set
would fail by construction, and balancing it would drop most 0/1 rows to keep a handful of 3s.
A chart whose only 3-crossing pair is dropped still asks its other pairs."""


@legend_template("t3_crossing")
class Crossing(LegendTemplate):
    """Count sign changes of the gap between two bound lines (never touching: every gap is
    at least a visible margin, so each crossing is unambiguous)."""

    task_family, capability, answer_type = "T3", "reason", "count"
    kinds = ("line",)
    description = "How many times do the '<A>' and '<B>' lines cross?"
    answer_set = tuple(str(k) for k in range(MAX_ASKED + 1))

    def candidates(self, st, rng):
        # The trajectories rarely cross: over every pair, "0" is ~60% of answers, "2" ~2% and
        # "3" rarer still. So a chart offers the pairs of one crossing count: "2" when it has
        # such a pair, else one drawn uniformly among its counts; a chart whose lines never
        # cross is asked only half the time, and pairs crossing 3+ times are not asked (a tail
        # of a few rows would make "uniform" a quarter). Measured on 1,000 line charts:
        # 0 ~46%, 1 ~46%, 2 ~8%, under 1.5x uniform (0.50).
        labels = st.labels
        by_count: dict[str, list[dict]] = {}
        for i in range(len(labels)):
            for j in range(i + 1, len(labels)):
                params = {"labels": [labels[i], labels[j]]}
                count = self.answer(st, params)
                if count is not None and int(count) <= MAX_ASKED:
                    by_count.setdefault(count, []).append(params)
        counts = sorted(by_count)
        if not counts or (counts == ["0"] and rng.random() < 0.5):
            return []
        if str(MAX_ASKED) in by_count:
            return by_count[str(MAX_ASKED)]
        return by_count[counts[int(rng.integers(len(counts)))]]

    def answer(self, st, params):
        a, b = (np.asarray(st.series_values(st.item_of(lb))) for lb in params["labels"])
        gap = a - b
        if np.min(np.abs(gap)) < st.margin(0.03):
            return None
        return str(int(np.sum(np.sign(gap[1:]) != np.sign(gap[:-1]))))

    def text(self, st, params):
        a, b = params["labels"]
        return f"How many times do the '{a}' and '{b}' lines cross each other?"
