"""``always_accept``: accepts every Chart Reproduction/Editing Judgement item.

Its recall is 1 and its specificity 0: a balanced CRJ set keeps its accuracy near 50%, so a
judge that never rejects cannot look good.
"""

from __future__ import annotations

from . import agent
from ._base import Agent

VERDICTS = {"accept", "reject"}


@agent("always_accept")
class AlwaysAccept(Agent):
    description = "accepts every accept/reject item"
    suites = ("judge",)

    def answer(self, suite, row):
        return "Accept" if str(row.get("answer", "")).strip().lower() in VERDICTS else None
