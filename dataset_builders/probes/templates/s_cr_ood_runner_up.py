"""S-CR-OOD-RUNNER-UP, an out-of-template complex-reasoning probe over shape scenes (held out).

Histogram of one attribute (a primitive no trained scene template uses), ranked, second place.
"""

from __future__ import annotations

from ..phrase_bank_ood import OOD_PHRASINGS
from . import template
from ._ood_scene_ops import scene_second_most_common
from ._scene_ops import SceneTemplate, choose


@template("S-CR-OOD-RUNNER-UP")
class RunnerUp(SceneTemplate):
    skill = "complex"
    answer_type = "label"
    op = "scene_second_most_common"
    held_out = True
    out_of_template = True
    description = "The value of an attribute second by object count (a histogram, then its runner-up)."
    phrasings = OOD_PHRASINGS["S-CR-OOD-RUNNER-UP"]

    def bind(self, view, rng):
        # Only attributes this scene gives an answer for (the op is None on the others).
        attr = choose(rng, [a for a in ("color", "shape") if scene_second_most_common(view, a) is not None])
        return None if attr is None else {"attr": attr}
