"""T3 intersections: how many times do two named lines cross?"""

from __future__ import annotations

import numpy as np

from . import legend_template
from ._base import LegendTemplate

MAX_ASKED = 2
"""The largest crossing count asked (the rare count a chart offers first).

Counts of 3 exist but are not asked, and the answer set stays 0-2. Over 1,000 line charts of the
default space (with the ``cyclic`` trajectory), well-posed pairs cross 0 / 1 / 2 / 3 times
1,602 / 993 / 406 / 121 times; 8% of charts have a 3-crossing pair. Even with the snapshot
stratifying the asked count over charts (``candidates_for``), a 0-3 set asks 0 and 1 on ~31%
and ~47% of charts, over the majority-share cap of 1.5 x 1/4 = 37.5%: it would fail by
construction. With 0-2 the stratified shares are 36 / 43 / 21% (cap 50%). A chart whose only
3-crossing pair is dropped still asks its other pairs."""


@legend_template("t3_crossing")
class Crossing(LegendTemplate):
    """Count sign changes of the gap between two bound lines (never touching: every gap is
    at least a visible margin, so each crossing is unambiguous)."""

    task_family, capability, answer_type = "T3", "reason", "count"
    kinds = ("line",)
    description = "How many times do the '<A>' and '<B>' lines cross?"
    answer_set = tuple(str(k) for k in range(MAX_ASKED + 1))

    def _by_count(self, st):
        """Well-posed pairs by crossing count, counts above ``MAX_ASKED`` left out."""
        labels = st.labels
        by_count: dict[str, list[dict]] = {}
        for i in range(len(labels)):
            for j in range(i + 1, len(labels)):
                params = {"labels": [labels[i], labels[j]]}
                count = self.answer(st, params)
                if count is not None and int(count) <= MAX_ASKED:
                    by_count.setdefault(count, []).append(params)
        return by_count

    def candidates(self, st, rng):
        # Most pairs never cross, so a chart offers the pairs of one crossing count: "2" when it
        # has such a pair, else one drawn uniformly among its counts; a chart whose lines never
        # cross is asked only half the time, and pairs crossing 3+ times are not asked.
        by_count = self._by_count(st)
        counts = sorted(by_count)
        if not counts or (counts == ["0"] and rng.random() < 0.5):
            return []
        if str(MAX_ASKED) in by_count:
            return by_count[str(MAX_ASKED)]
        return by_count[counts[int(rng.integers(len(counts)))]]

    def candidates_for(self, st, rng, want):
        # The pairs of the count the snapshot stratifies this chart to, where it has one, else
        # of its rarest count (the largest; a chart that never crosses half the time).
        by_count = self._by_count(st)
        if want in by_count:
            return by_count[want]
        counts = sorted(by_count, key=int)
        if not counts or (counts == ["0"] and rng.random() < 0.5):
            return []
        return by_count[counts[-1]]

    def answer(self, st, params):
        a, b = (np.asarray(st.series_values(st.item_of(lb))) for lb in params["labels"])
        gap = a - b
        if np.min(np.abs(gap)) < st.margin(0.03):
            return None
        return str(int(np.sum(np.sign(gap[1:]) != np.sign(gap[:-1]))))

    def text(self, st, params):
        a, b = params["labels"]
        return f"How many times do the '{a}' and '{b}' lines cross each other?"
