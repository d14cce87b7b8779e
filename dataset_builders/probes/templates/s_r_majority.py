"""S-R-MAJORITY: the most common colour / shape / size / fill (simple reasoning: argmax)."""

from __future__ import annotations

from ...core.scenes.view import ATTRS
from . import template
from ._scene_ops import SceneTemplate, choose


@template("S-R-MAJORITY")
class Majority(SceneTemplate):
    skill = "reasoning"
    answer_type = "label"
    op = "scene_majority"
    description = "Determine the majority value of one attribute (CLEVR's majority material)."
    phrasings = (
        "Which {attr_word} is the most common among the objects{options}?",
        "What {attr_word} do the largest number of objects have{options}?",
    )

    def bind(self, view, rng):
        # Ask only about attributes with a strict majority; a scene where every attribute
        # ties yields no item at all.
        attr = choose(rng, [a for a in ATTRS if view.majority(a) is not None])
        return None if attr is None else {"attr": attr}
