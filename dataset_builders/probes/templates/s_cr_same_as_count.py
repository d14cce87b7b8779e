"""S-CR-SAME-AS-COUNT (held out): "How many other objects have the same colour as the small star?"."""

from __future__ import annotations

from ...core.scenes.view import ATTRS
from . import template
from ._scene_ops import SceneTemplate, choose, referable


@template("S-CR-SAME-AS-COUNT")
class SameAsCount(SceneTemplate):
    skill = "complex"
    answer_type = "count"
    op = "scene_count_same_as"
    held_out = True
    description = "Resolve a reference, read its attribute, then count the others sharing it."
    phrasings = (
        "How many other objects have the same {attr_word} as {ref_text}?",
        "Not counting {ref_text} itself, how many objects share its {attr_word}?",
    )

    def bind(self, view, rng):
        attr = choose(rng, ATTRS)
        picked = choose(rng, referable(view, exclude=(attr,)))
        return None if picked is None else {"ref": picked[1], "attr": attr}
