"""``blind``: sees only the question text and answers the majority answer learned elsewhere.

The prior is the most common gold answer per exact question text, else per template (the
template is a function of the text), else per answer type. It is fit on the other splits
of the same config, or leave-one-unit-out where the config has one split, so it never sees the
gold it answers. Beating the per-template majority (fit the same way) by more than chance
means the question text leaks the answer.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from . import agent
from ._base import Agent

Row = Mapping[str, Any]


LEVELS = ("question", "group", "type")


def _keys(suite: Any, row: Row, levels: tuple[str, ...]) -> list[tuple[str, str]]:
    values = {"question": str(row.get("question", "")), "group": suite.group_key(row),
              "type": str(row.get("answer_type", ""))}
    return [(level, values[level]) for level in levels]


def _majority(counts: Counter) -> str | None:
    live = [(a, c) for a, c in counts.items() if c > 0]
    return min(live, key=lambda kv: (-kv[1], kv[0]))[0] if live else None


@agent("blind")
class Blind(Agent):
    description = "majority answer per question text / template / answer type, fit on other rows"

    def __init__(self, levels: tuple[str, ...] = LEVELS) -> None:
        # levels=("group", "type") is the plain per-template majority baseline the
        # validity check compares against: same fitting, no question text.
        self.levels = tuple(levels)

    def predict(self, suite: Any, rows: Sequence[Row], fit_rows: Sequence[Row] = ()) -> list[str | None]:
        loo = not fit_rows
        counts: dict[tuple[str, str], Counter] = defaultdict(Counter)
        own: dict[tuple[str, tuple[str, str]], Counter] = defaultdict(Counter)
        for r in (rows if loo else fit_rows):
            for key in _keys(suite, r, self.levels):
                counts[key][str(r["answer"])] += 1
                if loo:
                    own[(suite.unit_key(r), key)][str(r["answer"])] += 1
        out: list[str | None] = []
        for r in rows:
            guess = None
            for key in _keys(suite, r, self.levels):
                c = counts.get(key, Counter())
                if loo:  # leave this row's whole unit (chart, family...) out of its prior
                    c = c - own[(suite.unit_key(r), key)]
                guess = _majority(c)
                if guess is not None:
                    break
            out.append(guess if guess is not None else "")
        return out
