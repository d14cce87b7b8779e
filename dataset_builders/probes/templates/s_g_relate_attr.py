"""S-G-RELATE-ATTR: the colour or shape of the one object left of / above ... a named object."""

from __future__ import annotations

from ...core.scenes.view import RELATIONS
from . import template
from ._scene_ops import POSITION_READS, SceneTemplate, choose, referable


@template("S-G-RELATE-ATTR")
class RelateAttr(SceneTemplate):
    skill = "grounding"
    answer_type = "label"
    op = "scene_relate_attr"
    reads = ("objects.color", "objects.shape", "objects.size", "objects.fill", *POSITION_READS)
    description = "Follow one spatial relation from a named object and identify what is there."
    phrasings = (
        "Exactly one object is {rel_text} {ref_text}. What {attr_word} is it?",
        "There is a single object {rel_text} {ref_text}. What is its {attr_word}?",
    )

    def bind(self, view, rng):
        # Only (object, relation) pairs with exactly one related object make the question true.
        pairs = [(ref, rel) for i, ref in referable(view) for rel in RELATIONS
                 if (hits := view.related(i, rel)) is not None and len(hits) == 1]
        picked = choose(rng, pairs)
        if picked is None:
            return None
        return {"ref": picked[0], "relation": picked[1], "attr": choose(rng, ("color", "shape"))}
