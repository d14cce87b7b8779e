"""CR-PAIR-OVER-HALF, a held-out complex-reasoning probe.

The only pair of categories whose combined share is more than half.

The op rejects charts with no such pair or more than one.
"""

from __future__ import annotations

from . import (
    _chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._base import Template


@template("CR-PAIR-OVER-HALF")
class PairOverHalf(Template):
    skill = "complex"
    answer_type = "list"
    op = "unique_pair_over_half"
    held_out = True
    description = "The unique pair of categories that together make up more than half of the total."
    phrasings = (("Which two categories together make up more than half of the total? Answer as a "
                  "comma-separated list."),)
