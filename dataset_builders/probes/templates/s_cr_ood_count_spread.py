"""S-CR-OOD-COUNT-SPREAD, an out-of-template complex-reasoning probe over shape scenes (held out).

Histogram of one attribute, then its largest minus its smallest count.
"""

from __future__ import annotations

from ...core.scenes.view import ATTRS
from ..phrase_bank_ood import OOD_PHRASINGS
from . import template
from ._ood_scene_ops import scene_count_spread
from ._scene_ops import SceneTemplate, choose


@template("S-CR-OOD-COUNT-SPREAD")
class CountSpread(SceneTemplate):
    skill = "complex"
    answer_type = "count"
    op = "scene_count_spread"
    held_out = True
    out_of_template = True
    description = "Objects of the most common value of an attribute minus those of the least common one."
    phrasings = OOD_PHRASINGS["S-CR-OOD-COUNT-SPREAD"]

    def bind(self, view, rng):
        # Draw the answer first, uniformly over those the scene's attributes give, then an
        # attribute with it: small scenes make a spread of 1 the common case otherwise.
        by_spread: dict[int, list[str]] = {}
        for a in ATTRS:
            spread = scene_count_spread(view, a)
            if spread is not None:
                by_spread.setdefault(spread, []).append(a)
        spread = choose(rng, sorted(by_spread))
        attr = None if spread is None else choose(rng, by_spread[spread])
        return None if attr is None else {"attr": attr}
