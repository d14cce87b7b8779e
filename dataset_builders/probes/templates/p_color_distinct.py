"""P-COLOR-DISTINCT, a perception probe.

How many different fill colours the marks use (colour distinctness).
"""

from __future__ import annotations

from . import (
    _chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._base import Template


@template("P-COLOR-DISTINCT")
class ColorDistinct(Template):
    skill = "perception"
    whole_picture = True  # how many colours the whole picture uses
    value_free = True  # printed values never say how many colours the bars use
    answer_type = "count"
    op = "count_distinct_colors"
    reads = ("data.categories", "encodings")
    hint = "color_hint"  # the question is about colour, so the hint says colours
    description = "Number of distinct colours used for the bars (segments)."
    phrasings = ("How many distinct colours are used for the {nouns}?",
                 "How many different fill colours do the {nouns} have?")
