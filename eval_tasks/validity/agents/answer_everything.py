"""``answer_everything``: names every candidate at once — every category for a list, every option
for a closed question ("yes or no", "A or B").

Recall rewards it with full marks on every list item; a scorer that lets hedges win
rewards it on every closed item. A release and a scorer are sound when it scores no more
than chance: set F1 charges the extra categories, and an answer that offers more than one
candidate is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from . import agent
from ._base import Agent

Row = Mapping[str, Any]


@agent("answer_everything")
class AnswerEverything(Agent):
    description = "every category for a list, every option for a closed question"

    def answer(self, suite, row):
        if row.get("answer_type") == "list":
            universe = suite.list_universe(row)
            return json.dumps(universe, ensure_ascii=False) if len(universe) >= 2 else None
        options = suite.options(row)
        return " or ".join(options) if options and len(options) >= 2 else None
