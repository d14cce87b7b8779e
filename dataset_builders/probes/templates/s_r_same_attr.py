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
        # A yes or a no with equal odds (random pairs mostly differ, which would make "no" a
        # shortcut). Only a scene offering both kinds of pair for the attribute is asked: the old
        # fallback to any pair left colour at 79% "no" on the full preset.
        want_same = bool(rng.random() < 0.5)
        pairs = [(a, b) for a in range(len(refs)) for b in range(len(refs)) if a != b]
        kinds = {True: [], False: []}
        for p in pairs:
            kinds[getattr(view.objects[refs[p[0]][0]], attr) == getattr(view.objects[refs[p[1]][0]], attr)].append(p)
        if not kinds[True] or not kinds[False]:
            return None
        i, j = choose(rng, kinds[want_same])
        return {"ref": refs[i][1], "ref_b": refs[j][1], "attr": attr}
