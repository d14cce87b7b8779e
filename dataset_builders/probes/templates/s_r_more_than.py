"""S-R-MORE-THAN: are there more X than Y (simple reasoning: compare two counts)."""

from __future__ import annotations

from ...core.scenes.spec import COLORS, FILLS, SHAPES, SIZES
from . import template
from ._scene_ops import SceneTemplate, choose, present

_VALUES = {"color": tuple(COLORS), "shape": SHAPES, "fill": FILLS, "size": SIZES}


@template("S-R-MORE-THAN")
class MoreThan(SceneTemplate):
    skill = "reasoning"
    answer_type = "bool"
    op = "scene_more"
    description = "Compare the counts of two values of one attribute."
    phrasings = (
        "Are there more {a_things} than {b_things}?",
        "Does the image contain more {a_things} than {b_things}?",
    )

    def bind(self, view, rng):
        attr = choose(rng, ("color", "shape", "fill", "size"))
        a = choose(rng, present(view, attr))  # at least one side is non-empty
        b = choose(rng, [v for v in _VALUES[attr] if v != a])
        pair = [{attr: a}, {attr: b}]
        if rng.random() < 0.5:  # the present value is on either side equally often
            pair.reverse()
        return {"a": pair[0], "b": pair[1]}
