"""S-G-BBOX: the bounding box of a uniquely described object (grounding: localization)."""

from __future__ import annotations

from . import template
from ._scene_ops import POSITION_READS, SceneTemplate, choose, referable


@template("S-G-BBOX")
class BBox(SceneTemplate):
    skill = "grounding"
    answer_type = "bbox"
    op = "scene_bbox"
    reads = ("objects.color", "objects.shape", "objects.size", "objects.fill", *POSITION_READS)
    description = "Localize the object a referring expression names."
    phrasings = (
        ("What is the bounding box of {ref_text}? Answer as [x0, y0, x1, y1] in coordinates "
         "normalized to [0, 1], with the origin at the top-left corner of the image."),
        ("Locate {ref_text}. Give its bounding box as [x0, y0, x1, y1], normalized to [0, 1] "
         "with (0, 0) at the top-left corner."),
    )

    def bind(self, view, rng):
        picked = choose(rng, referable(view))
        return None if picked is None else {"ref": picked[1]}
