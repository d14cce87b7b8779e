"""S-P-COUNT-ALL: how many objects are in the scene (perception: counting, no attribute)."""

from __future__ import annotations

from . import template
from ._scene_ops import SceneTemplate


@template("S-P-COUNT-ALL")
class CountAll(SceneTemplate):
    skill = "perception"
    answer_type = "count"
    op = "scene_count"
    reads = ()  # the number of objects, no attribute
    description = "Count every object in the scene."
    phrasings = (
        "How many objects are in the image?",
        "How many shapes are there in total?",
        "Count all the objects in the scene. How many are there?",
    )

    def bind(self, view, rng):
        return {"where": {}}
