"""R-ARITH-TOTAL, a simple-reasoning probe.

Sum: the total of all values.
"""

from __future__ import annotations

from . import (
    _chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._base import Template


@template("R-ARITH-TOTAL")
class ArithTotal(Template):
    skill = "reasoning"
    answer_type = "number"
    op = "total"
    needs_values = True
    description = "Sum of all values."
    phrasings = ("What is the total of all the values shown in the chart?",
                 "What do all the values in the chart add up to?")
