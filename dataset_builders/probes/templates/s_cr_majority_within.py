"""S-CR-MAJORITY-WITHIN (held out): the majority colour within the largest shape group (or ...)."""

from __future__ import annotations

from ...core.scenes.view import ATTRS
from . import template
from ._scene_ops import SceneTemplate, choose, scene_majority_within


@template("S-CR-MAJORITY-WITHIN")
class MajorityWithin(SceneTemplate):
    skill = "complex"
    answer_type = "label"
    op = "scene_majority_within"
    held_out = True
    description = "Find the largest group sharing one attribute, then its majority of another."
    phrasings = (
        ("Find the {group_word} that the most objects share. Among the objects with that "
         "{group_word}, which {attr_word} is the most common{options}?"),
        ("Consider the largest group of objects that share a {group_word}. What {attr_word} do "
         "most of them have{options}?"),
    )

    def bind(self, view, rng):
        # Only (group, attribute) pairs where both majorities are strict have an answer.
        options = [(g, a) for g in ("shape", "color") for a in ATTRS
                   if a != g and scene_majority_within(view, g, a) is not None]
        picked = choose(rng, options)
        return None if picked is None else {"group": picked[0], "attr": picked[1]}
