"""``blind``: sees only the question text and answers the majority answer learned elsewhere.

The prior is the most common gold answer per exact question text, else per template (the
template is a function of the text), else per answer type. It is fit on the other splits
of the same config, or cross-fitted on two halves of the units where the config has one
split, so it never sees the gold it answers. (Leave-one-unit-out was used before: on a
balanced binary config it is *always* wrong — removing a row's own answer tips the majority
to the other one — so the per-template baseline read 0.000 on CRJ and any question-level
grouping looked like a 14-point leak.) Beating the per-template majority (fit the same way) by more than chance
means the question text leaks the answer.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from . import agent
from ._base import Agent
from ._fit import cross_fit, majority

Row = Mapping[str, Any]


LEVELS = ("question", "group", "type")


def _keys(suite: Any, row: Row, levels: tuple[str, ...]) -> list[tuple[str, str]]:
    values = {"question": str(row.get("question", "")), "group": suite.group_key(row),
              "type": str(row.get("answer_type", ""))}
    return [(level, values[level]) for level in levels]


@agent("blind")
class Blind(Agent):
    description = "majority answer per question text / template / answer type, fit on other rows"

    def __init__(self, levels: tuple[str, ...] = LEVELS) -> None:
        # levels=("group", "type") is the plain per-template majority baseline the
        # validity check compares against: same fitting, no question text.
        self.levels = tuple(levels)

    def predict(self, suite: Any, rows: Sequence[Row], fit_rows: Sequence[Row] = ()) -> list[str | None]:
        def fit(train: Sequence[Row]) -> dict[tuple[str, str], Counter]:
            counts: dict[tuple[str, str], Counter] = defaultdict(Counter)
            for r in train:
                for key in _keys(suite, r, self.levels):
                    counts[key][str(r["answer"])] += 1
            return counts

        def guess(counts: dict[tuple[str, str], Counter], r: Row) -> str:
            for key in _keys(suite, r, self.levels):
                answer = majority(counts.get(key, Counter()))
                if answer is not None:
                    return answer
            return ""

        return cross_fit(suite, rows, fit_rows, fit, guess)
