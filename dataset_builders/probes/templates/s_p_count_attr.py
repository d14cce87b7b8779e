"""S-P-COUNT-ATTR: how many objects have a given colour or shape (perception: counting)."""

from __future__ import annotations

from . import template
from ._scene_ops import SceneTemplate, choose, single_filters


@template("S-P-COUNT-ATTR")
class CountAttr(SceneTemplate):
    skill = "perception"
    answer_type = "count"
    op = "scene_count"
    reads = ("objects.color", "objects.shape")
    description = "Count the objects of one colour, or of one shape."
    phrasings = (
        "How many {things} are there?",
        "How many {things} can you see in the image?",
        "Count the {things}.",
    )

    def bind(self, view, rng):
        # Only values that occur: "how many purple objects?" on a scene with none teaches little.
        # The count is drawn first, uniformly over those the scene offers, then a value with it:
        # most colours occur once in a scene, so a uniform value made "1" ~60% of the answers.
        by_count: dict[int, list] = {}
        for where in single_filters(view, ("color", "shape")):
            by_count.setdefault(view.count(where), []).append(where)
        count = choose(rng, sorted(by_count))
        where = None if count is None else choose(rng, by_count[count])
        return None if where is None else {"where": where}
