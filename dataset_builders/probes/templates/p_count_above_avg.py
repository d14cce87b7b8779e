"""P-COUNT-ABOVE-AVG, a perception probe.

How many marks stand above the average size, judged holistically (no value is read).

On a pie "above average" is a share of the whole: larger than an equal 1/n slice. The op
rejects charts where any mark sits within the visual margin of the mean.
"""

from __future__ import annotations

from . import (
    _chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._base import Template


@template("P-COUNT-ABOVE-AVG")
class CountAboveAvg(Template):
    skill = "perception"
    answer_type = "count"
    op = "count_above_mean_visual"
    description = "Number of marks above the average size (pie: above an equal share), by eye."
    phrasings = ("How many {nouns} are {above_avg}?",
                 "Judging by eye, how many {nouns} are {above_avg}?")
