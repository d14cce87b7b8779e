"""S-CR-OOD-LONE-VALUES, an out-of-template complex-reasoning probe over shape scenes (held out).

Histogram of one attribute, keep the values held once, count them.
"""

from __future__ import annotations

from ..phrase_bank_ood import OOD_PHRASINGS
from . import template
from ._ood_scene_ops import scene_count_singletons
from ._scene_ops import SceneTemplate, choose


@template("S-CR-OOD-LONE-VALUES")
class LoneValues(SceneTemplate):
    skill = "complex"
    answer_type = "count"
    op = "scene_count_singletons"
    held_out = True
    out_of_template = True
    description = "Objects whose value of an attribute no other object shares."
    phrasings = OOD_PHRASINGS["S-CR-OOD-LONE-VALUES"]

    def bind(self, view, rng):
        # Only attributes this scene gives an answer for (the op is None on the others).
        attr = choose(rng, [a for a in ("color", "shape") if scene_count_singletons(view, a) is not None])
        return None if attr is None else {"attr": attr}
