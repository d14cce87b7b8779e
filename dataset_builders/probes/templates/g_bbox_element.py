"""G-BBOX-ELEMENT, a grounding probe.

Label -> element -> extent: the normalized bounding box of a named mark.

The box comes from the plotting backend (``render(spec).boxes``), never from pixels.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.chartview import ChartView
from . import (
    _chart_ops,  # noqa: F401  (registers the op this template runs)
    template,
)
from ._base import Template, pick_labels


@template("G-BBOX-ELEMENT")
class BoxOfNamed(Template):
    skill = "grounding"
    answer_type = "bbox"
    op = "bbox_of"
    reads = ("data.categories", "render.boxes")
    description = "Normalized bounding box of a named bar (pie: the segment's wedge)."
    phrasings = (("Give the bounding box of the {noun} for {label} as [x0, y0, x1, y1] in normalized "
                  "image coordinates (0 to 1, origin at the top-left)."),)

    def bind(self, view: ChartView, rng: np.random.Generator) -> dict[str, Any] | None:
        return {"label": pick_labels(view, rng, 1)[0]}
