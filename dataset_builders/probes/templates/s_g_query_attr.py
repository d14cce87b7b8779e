"""S-G-QUERY-ATTR: an attribute of an object named by its other attributes (grounding: identify)."""

from __future__ import annotations

from ...core.scenes.view import ATTRS
from . import template
from ._scene_ops import SceneTemplate, choose, referable


@template("S-G-QUERY-ATTR")
class QueryAttr(SceneTemplate):
    skill = "grounding"
    answer_type = "label"
    op = "scene_query"
    description = "Bind a referring expression to its object and read one more attribute."
    phrasings = (
        "What is the {attr_word} of {ref_text}{options}?",
        "Find {ref_text}. What {attr_word} is it{options}?",
    )

    def bind(self, view, rng):
        attr = choose(rng, ATTRS)
        # The reference never mentions the queried attribute, or the question would answer itself.
        picked = choose(rng, referable(view, exclude=(attr,)))
        return None if picked is None else {"ref": picked[1], "attr": attr}
