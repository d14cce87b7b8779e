"""S-CR-COUNT-RELATED (held out): "How many red objects are to the left of the large square?"."""

from __future__ import annotations

from ...core.scenes.view import RELATIONS
from . import template
from ._scene_ops import POSITION_READS, SceneTemplate, choose, referable, single_filters


@template("S-CR-COUNT-RELATED")
class CountRelated(SceneTemplate):
    skill = "complex"
    answer_type = "count"
    op = "scene_count_related"
    held_out = True
    reads = ("objects.color", "objects.shape", "objects.size", "objects.fill", *POSITION_READS)
    description = "Resolve a reference, follow a relation, then filter and count."
    phrasings = (
        "How many {things} are {rel_text} {ref_text}?",
        "Count the {things} that are {rel_text} {ref_text}.",
    )

    def bind(self, view, rng):
        # Only relations every object is clearly on one side of (else the op returns None).
        pairs = [(i, ref, rel) for i, ref in referable(view) for rel in RELATIONS
                 if view.related(i, rel) is not None]
        picked = choose(rng, pairs)
        if picked is None:
            return None
        i, ref, rel = picked
        # Filter on a value the reference does not have, so it could never count itself.
        wheres = [w for w in single_filters(view, ("color", "shape", "fill"))
                  if view.objects[i].attr(next(iter(w))) != next(iter(w.values()))]
        where = choose(rng, wheres)
        return None if where is None else {"ref": ref, "relation": rel, "where": where}
