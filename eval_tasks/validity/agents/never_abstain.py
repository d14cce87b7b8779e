"""``never_abstain``: an answer key that refuses to abstain.

It gives the stored gold on answerable items and a confident non-abstaining answer on
unanswerable ones (the first candidate of the row's answer space that is not an
abstention, else "0"). Its score is therefore exactly the share of answerable items: every
unanswerable item must cost it a point.
"""

from __future__ import annotations

from ...scoring.typed import is_abstention
from . import agent
from ._base import Agent


@agent("never_abstain")
class NeverAbstain(Agent):
    description = "gold on answerable items, a confident answer on unanswerable ones"

    def answer(self, suite, row):
        if suite.answerable(row):
            return str(row["answer"])
        pool = [str(row.get(k)) for k in ("original_answer", "base_answer") if row.get(k)]
        candidates = [a for a in list(pool) + list(suite.answer_space(row, pool)) if not is_abstention(a)]
        return candidates[0] if candidates else "0"
