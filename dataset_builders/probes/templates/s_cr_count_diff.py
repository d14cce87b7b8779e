"""S-CR-COUNT-DIFF (held out): "How many more red objects are there than blue squares?"."""

from __future__ import annotations

from . import template
from ._scene_ops import SceneTemplate, choose, pair_filters, single_filters


@template("S-CR-COUNT-DIFF")
class ComplexCountDiff(SceneTemplate):
    skill = "complex"
    answer_type = "count"
    op = "scene_count_diff"
    held_out = True
    description = "Two compound filters, two counts and a subtraction."
    phrasings = (
        "How many more {a_things} are there than {b_things}?",
        "Subtract the number of {b_things} from the number of {a_things}. What do you get?",
    )

    def bind(self, view, rng):
        # One side filters on one attribute, the other on two: the counts need two lookups each.
        singles, pairs = single_filters(view, ("color", "shape", "fill")), pair_filters(view)
        options = [(a, b) for a in singles for b in pairs if view.count(a) > view.count(b)]
        options += [(b, a) for a in singles for b in pairs if view.count(b) > view.count(a)]
        picked = choose(rng, options)
        return None if picked is None else {"a": picked[0], "b": picked[1]}
