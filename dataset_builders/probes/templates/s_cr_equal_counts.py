"""S-CR-EQUAL-COUNTS (held out): "Is the number of solid circles equal to the number of outlined squares?"."""

from __future__ import annotations

from . import template
from ._scene_ops import SceneTemplate, choose, pair_filters


@template("S-CR-EQUAL-COUNTS")
class EqualCounts(SceneTemplate):
    skill = "complex"
    answer_type = "bool"
    op = "scene_equal_counts"
    held_out = True
    description = "Two compound filters, two counts and an equality test."
    phrasings = (
        "Is the number of {a_things} equal to the number of {b_things}?",
        "Are there exactly as many {a_things} as {b_things}?",
    )

    def bind(self, view, rng):
        filters = pair_filters(view)
        # Disjoint filters only: "red circles" vs "large circles" may share objects, which
        # invites a double-counting misreading of the question.
        pairs = [(a, b) for k, a in enumerate(filters) for b in filters[k + 1:]
                 if not set(view.matching(a)) & set(view.matching(b))]
        equal = [p for p in pairs if view.count(p[0]) == view.count(p[1])]
        unequal = [p for p in pairs if p not in equal]
        # Draw the answer first (yes/no evenly when both exist), then a pair that has it, so
        # neither answer dominates (singleton filters make 1 == 1 the common case otherwise).
        picked = choose(rng, equal if equal and (not unequal or rng.random() < 0.5) else unequal)
        return None if picked is None else {"a": picked[0], "b": picked[1]}
