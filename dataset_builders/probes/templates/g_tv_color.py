"""G-TV-COLOR, a grounding probe.

Label -> element -> colour: the plain colour name of a named mark.

Only asked when the marks do not all share one colour (else no binding is needed); the op
rejects colours without an unambiguous plain name.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.chartview import ChartView
from . import (
    _chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._base import Template


@template("G-TV-COLOR")
class ColorOfNamed(Template):
    skill = "grounding"
    answer_type = "label"
    op = "color_of"
    answer_vocabulary = "chart_color"
    reads = ("data.categories", "encodings")
    description = "Plain colour name of a named bar (segment)."
    phrasings = ("What colour is the {noun} for {label}? Answer with a plain colour name.",
                 "Which colour is used for {label}? Answer with a plain colour name.")

    def bind(self, view: ChartView, rng: np.random.Generator) -> dict[str, Any] | None:
        colors = view.mark_colors()
        present = sorted(set(colors))
        if len(present) < 2:
            return None
        # The colour first, then a mark of it: a label drawn uniformly would favour the palette
        # colours that cover the most marks, and a blind "most common colour" answer would gain.
        color = present[int(rng.integers(len(present)))]
        return {"label": view.labels[int(rng.choice([i for i, c in enumerate(colors) if c == color]))]}
