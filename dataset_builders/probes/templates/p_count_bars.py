"""P-COUNT-BARS, a perception probe.

How many marks the chart has: the most basic read of bar (or segment) geometry.
"""

from __future__ import annotations

from . import (
    _chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._base import Template


@template("P-COUNT-BARS")
class CountBars(Template):
    skill = "perception"
    whole_picture = True  # how many marks the whole picture has
    value_free = True  # counting the marks (or their labels) is the same visual count
    answer_type = "count"
    op = "count_marks"
    reads = ("data.categories",)
    description = "Number of bars (segments) in the chart."
    phrasings = ("How many {nouns} are there in the chart?",
                 "Count the {nouns} in the chart. How many are there?")
