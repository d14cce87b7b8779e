"""CR-GAP-SECOND-SMALLEST-SHARE, a held-out complex-reasoning probe.

Rank, take the second-largest and the smallest, express their gap as a share.
"""

from __future__ import annotations

from . import (
    _chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._base import Template


@template("CR-GAP-SECOND-SMALLEST-SHARE")
class GapSecondSmallestShare(Template):
    skill = "complex"
    answer_type = "number"
    op = "gap_second_to_smallest_share"
    held_out = True
    description = "Second-largest minus smallest category, in percentage points of the total."
    phrasings = (("By how many percentage points of the total does the second-largest category exceed"
                  " the smallest one?"),)
