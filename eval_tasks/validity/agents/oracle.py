"""``oracle``: answers from the row's spec through the benchmark's own answer programs.

It never reads the stored ``answer``: it re-derives it, so scoring below 100% means a stored
answer, a program or the scorer disagree, and the release must not ship.
"""

from __future__ import annotations

from . import agent
from ._base import Agent


@agent("oracle")
class Oracle(Agent):
    description = "answer recomputed from the spec (must score 100%)"

    def answer(self, suite, row):
        value = suite.oracle(row)
        return "" if value is None else value  # a degenerate program is scored as a wrong answer
