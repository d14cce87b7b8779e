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
construction. With 0-2 the stratified shares are 35 / 39 / 26% (cap 50%), asked on the 65% of
charts where some pair crosses. A chart whose only
3-crossing pair is dropped still asks its other pairs."""


FALLBACK = ("2", "0", "1")
"""Counts from the least to the most offered by charts whose lines cross: what a chart without
the stratum's count is asked instead, so the asked counts stay near uniform."""


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
        # The pairs of the count the snapshot stratifies this chart to, where it has one, else of
        # the count asked least over all charts (FALLBACK). A chart whose lines never cross is not
        # asked: where
        # nothing crosses (a table set of parallel trends) every answer would be "0".
        by_count = self._by_count(st)
        if not set(by_count) - {"0"}:
            return []
        if want in by_count:
            return by_count[want]
        return by_count[min(by_count, key=FALLBACK.index)]

    def answer(self, st, params):
        a, b = (np.asarray(st.series_values(st.item_of(lb))) for lb in params["labels"])
        gap = a - b
        if np.min(np.abs(gap)) < st.margin(0.03):
            return None
        return str(int(np.sum(np.sign(gap[1:]) != np.sign(gap[:-1]))))

    def text(self, st, params):
        a, b = params["labels"]
        return f"How many times do the '{a}' and '{b}' lines cross each other?"
