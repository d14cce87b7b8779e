"""``first_position``: always picks the first image of a chart pair (ChartJudgeBench position bias).

Asked each pair twice with the positions swapped, it is right exactly once per pair: its
one-pass accuracy is 50% and its two-pass accuracy must be 0 — the two-pass protocol exists
to give a position-biased judge no credit.
"""

from __future__ import annotations

from . import agent
from ._base import Agent

PAIR_ANSWERS = {"a", "b"}


@agent("first_position")
class FirstPosition(Agent):
    description = "always answers the first image (A)"
    suites = ("judge",)

    def answer(self, suite, row):
        if row.get("answer_type") == "choice" and str(row.get("answer", "")).strip().lower() in PAIR_ANSWERS:
            return "A"
        return None
