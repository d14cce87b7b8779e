"""CR-TOP2-MINUS-BOTTOM2, a held-out complex-reasoning probe.

Rank, sum both ends, difference (needs at least four categories).
"""

from __future__ import annotations

from . import (
    _chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._base import Template


@template("CR-TOP2-MINUS-BOTTOM2")
class Top2MinusBottom2(Template):
    skill = "complex"
    answer_type = "number"
    op = "top2_minus_bottom2"
    held_out = True
    needs_values = True
    description = "Sum of the two largest values minus the sum of the two smallest."
    phrasings = (("What is the combined value of the two largest categories minus the combined value "
                  "of the two smallest?"),)
