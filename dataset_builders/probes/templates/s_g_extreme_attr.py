"""S-G-EXTREME-ATTR: the colour or shape of the leftmost/rightmost/topmost/bottommost object."""

from __future__ import annotations

from ...core.scenes.view import RELATIONS
from . import template
from ._scene_ops import POSITION_READS, SceneTemplate, choose


@template("S-G-EXTREME-ATTR")
class ExtremeAttr(SceneTemplate):
    skill = "grounding"
    answer_type = "label"
    op = "scene_extreme_attr"
    reads = ("objects.color", "objects.shape", *POSITION_READS)
    description = "Identify an attribute of the extremal object in one direction."
    phrasings = (
        "What {attr_word} is the {extreme} object?",
        "Look at the {extreme} object in the image. What is its {attr_word}?",
    )

    def bind(self, view, rng):
        # The op returns None when the runner-up is too close to call; instantiate drops those.
        return {"relation": choose(rng, RELATIONS), "attr": choose(rng, ("color", "shape"))}
