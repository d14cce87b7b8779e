"""S-P-COUNT-DISTINCT: how many different colours (or shapes) appear (perception: attributes)."""

from __future__ import annotations

from . import template
from ._scene_ops import SceneTemplate, choose


@template("S-P-COUNT-DISTINCT")
class CountDistinct(SceneTemplate):
    skill = "perception"
    answer_type = "count"
    op = "scene_count_distinct"
    reads = ("objects.color", "objects.shape")
    description = "Count the distinct colours, or distinct shapes, in the scene."
    phrasings = (
        "How many different {attr_word}s appear among the objects?",
        "Count the distinct object {attr_word}s in the image.",
    )

    def bind(self, view, rng):
        return {"attr": choose(rng, ("color", "shape"))}
