"""``position_prior``: answers from the marks' order alone, as if every series were sorted.

The agent never reads a mark's size. It asks the suite what the gold would be if every
series rose (or fell) steadily along the reading order (left to right, top to bottom,
clockwise): the values are replaced by the positions 1..n (or n..1), the same in every
series, so nothing of the real magnitudes survives — "the tallest bar is the rightmost",
"the top three are the last three", "a bar's rank is its position". Questions that compare
series become ties and go unanswered. It answers only rows where the two directions
disagree (the answer depends on order) and whose answer names a position, a label, a list
or a verdict, never a number. Which
direction to assume is learnt per template out of sample (other splits, else the other
half of the units). On a release whose values are exchangeable along the axis it scores
chance; on sorted series it scores far above.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from . import agent
from ._base import Agent
from ._fit import cross_fit, majority

Row = Mapping[str, Any]

ORDER_TYPES = frozenset({"label", "integer", "count", "list", "bool", "year", "choice"})
"""Answer types a position can decide; numbers and boxes would need the magnitudes."""
DIRECTIONS = ("ascending", "descending")


def sorted_spec(spec_json: str, descending: bool) -> str | None:
    """The spec with every series' values replaced by the positions 1..n along the category
    order (n..1 when ``descending``), identical across series (None if it has no series)."""
    try:
        spec = json.loads(spec_json)
        series = spec["data"]["series"]
    except (TypeError, ValueError, KeyError):
        return None
    if not isinstance(series, list) or not series:
        return None
    for s in series:
        n = len(s["values"])
        s["values"] = [float(n - i if descending else i + 1) for i in range(n)]
    return json.dumps(spec, sort_keys=True)


def _answers(suite: Any, row: Row) -> dict[str, str] | None:
    """direction -> the answer if the chart were sorted that way (None: the row is out of scope)."""
    spec = suite.spec_json(row)
    if not spec or row.get("answer_type") not in ORDER_TYPES:
        return None
    out = {}
    for direction in DIRECTIONS:
        fake = sorted_spec(spec, direction == "descending")
        answer = suite.reanswer(row, fake) if fake else None
        if answer is None:
            return None
        out[direction] = answer
    return out if out["ascending"] != out["descending"] else None


@agent("position_prior")
class PositionPrior(Agent):
    description = "answers as if each series were sorted along the axis (direction learnt per template)"

    def __init__(self) -> None:
        # Row -> its two sorted-chart answers, kept across calls: a split's rows are the other splits'
        # fit rows, and re-answering a chart (two parses, two programs) is this agent's whole cost.
        # The row is kept beside its answers, so a recycled id() never reads another row's.
        self._cache: dict[int, tuple[Row, dict[str, str] | None]] = {}

    def predict(self, suite: Any, rows: Sequence[Row], fit_rows: Sequence[Row] = ()) -> list[str | None]:
        cache = self._cache

        def answers(r: Row) -> dict[str, str] | None:
            hit = cache.get(id(r))
            if hit is None or hit[0] is not r:
                hit = cache[id(r)] = (r, _answers(suite, r))
            return hit[1]

        def fit(train: Sequence[Row]) -> dict[str, str]:
            hits: dict[str, Counter] = defaultdict(Counter)
            for r in train:
                a = answers(r)
                for direction in DIRECTIONS if a else ():
                    hits[suite.group_key(r)][direction] += a[direction] == str(r["answer"])
            return {g: majority(c) or DIRECTIONS[0] for g, c in hits.items()}

        def guess(model: dict[str, str], r: Row) -> str | None:
            a = answers(r)
            return None if a is None else a[model.get(suite.group_key(r), DIRECTIONS[0])]

        return cross_fit(suite, rows, fit_rows, fit, guess)
