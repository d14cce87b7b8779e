"""``always_abstain``: says "I don't know" to everything.

It must score exactly 0 on answerable items (an abstention is never a correct answer) and
100% on items whose gold is an abstention: the abstention metrics reward knowing when,
not abstaining as such.
"""

from __future__ import annotations

from . import agent
from ._base import ABSTAIN, Agent


@agent("always_abstain")
class AlwaysAbstain(Agent):
    description = "abstains on every item"

    def answer(self, suite, row):
        return ABSTAIN
