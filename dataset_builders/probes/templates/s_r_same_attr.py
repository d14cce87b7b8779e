"""S-R-SAME-ATTR: do two named objects share a colour / shape / size / fill (simple reasoning)."""

from __future__ import annotations

from ...core.scenes.view import ATTRS
from . import template
from ._scene_ops import SceneTemplate, choose, referable


@template("S-R-SAME-ATTR")
class SameAttr(SceneTemplate):
    skill = "reasoning"
    answer_type = "bool"
    op = "scene_same"
    description = "Test whether two objects share an attribute (CLEVR's same-material test)."
    phrasings = (
        "Do {ref_text} and {ref_b_text} have the same {attr_word}?",
        "Is the {attr_word} of {ref_text} the same as the {attr_word} of {ref_b_text}?",
    )

    def bind(self, view, rng):
        attr = choose(rng, ATTRS)
        # Neither description may mention the compared attribute.
        refs = referable(view, exclude=(attr,))
        if len(refs) < 2:
            return None
        # Aim at a yes or a no with equal odds (random pairs mostly differ, which would make
        # "no" a shortcut); fall back to any pair when the scene has no pair of that kind.
        want_same = bool(rng.random() < 0.5)
        pairs = [(a, b) for a in range(len(refs)) for b in range(len(refs)) if a != b]
        same = [p for p in pairs if (getattr(view.objects[refs[p[0]][0]], attr)
                                     == getattr(view.objects[refs[p[1]][0]], attr)) == want_same]
        i, j = choose(rng, same or pairs)
        return {"ref": refs[i][1], "ref_b": refs[j][1], "attr": attr}
