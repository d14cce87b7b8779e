"""S-P-COUNT-DISTINCT: how many different colours (or shapes) appear (perception: attributes)."""

from __future__ import annotations

from ...core.scenes.spec import SHAPES
from . import template
from ._scene_ops import SceneTemplate, choose

KEEP_COMMON = 0.28
"""Share of scenes showing 3+ shapes that are still asked how many shapes they show."""


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
        attr = choose(rng, ("color", "shape"))
        # Scenes show 3 or 4 of the four shapes 86% of the time (1: 1%, 2: 13%, 3: 41%, 4: 46%
        # over 1,500 scenes), so "4" would be 1.8x uniform: such a scene keeps the shape question
        # with probability 0.28 and is asked about its colours otherwise (then 2/3/4 ~ 1/3 each).
        if attr == "shape" and len(view.counts("shape")) >= len(SHAPES) - 1 and rng.random() >= KEEP_COMMON:
            attr = "color"
        return {"attr": attr}
