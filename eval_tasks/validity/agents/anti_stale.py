"""``anti_stale``: on a variant, the most frequent answer that is *not* the original's.

The mirror of ``stale``. A model that remembers the original answer and only notices that
the chart changed can answer "anything but the original": if regimes force every variant
to change its answer, that wins — on a binary question it is simply the other answer. The
prior (gold answers per template) is learnt out of sample; originals and reconstructions
are not answered.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from . import agent
from ._base import Agent
from ._fit import cross_fit

Row = Mapping[str, Any]


@agent("anti_stale")
class AntiStale(Agent):
    description = "every variant gets the most frequent template answer that differs from the original's"
    suites = ("families",)

    def predict(self, suite: Any, rows: Sequence[Row], fit_rows: Sequence[Row] = ()) -> list[str | None]:
        originals = {r["family_id"]: str(r["answer"]) for r in [*rows, *fit_rows]
                     if r.get("role") == "original" and r.get("family_id") is not None}
        # The answers it remembers: every original's, per template (a fallback vocabulary when
        # the fitted half happens to hold only one answer of a template).
        remembered: dict[str, Counter] = defaultdict(Counter)
        for r in [*rows, *fit_rows]:
            if r.get("role") == "original":
                remembered[suite.group_key(r)][str(r["answer"])] += 1

        def fit(train: Sequence[Row]) -> dict[str, Counter]:
            counts: dict[str, Counter] = defaultdict(Counter)
            for r in train:
                if r.get("role") == "variant":
                    counts[suite.group_key(r)][str(r["answer"])] += 1
            return counts

        def guess(model: dict[str, Counter], r: Row) -> str | None:
            original = originals.get(r.get("family_id"))
            if r.get("role") != "variant" or original is None:
                return None
            group = suite.group_key(r)
            for counts in (model.get(group, Counter()), remembered[group]):
                others = [(a, c) for a, c in counts.items() if a != original]
                if others:
                    return min(others, key=lambda kv: (-kv[1], kv[0]))[0]
            return None

        return cross_fit(suite, rows, fit_rows, fit, guess)
