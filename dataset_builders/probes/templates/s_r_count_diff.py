"""S-R-COUNT-DIFF: how many more X than Y are there (simple reasoning: one subtraction)."""

from __future__ import annotations

from . import template
from ._scene_ops import SceneTemplate, choose, single_filters


@template("S-R-COUNT-DIFF")
class CountDiff(SceneTemplate):
    skill = "reasoning"
    answer_type = "count"
    op = "scene_count_diff"
    description = "Subtract the counts of two values of one attribute."
    phrasings = (
        "How many more {a_things} are there than {b_things}?",
        "By how many do the {a_things} outnumber the {b_things}?",
    )

    def bind(self, view, rng):
        # Both filters on one attribute, ordered so the first is strictly larger: "how many
        # more" must be positive. Pick the attribute first so each is asked about evenly.
        by_attr = [[(a, b) for a in single_filters(view, (attr,)) for b in single_filters(view, (attr,))
                    if view.count(a) > view.count(b)] for attr in ("color", "shape", "fill", "size")]
        pairs = choose(rng, [p for p in by_attr if p]) or []
        # Then the difference, uniformly over those the scene offers: small scenes make most
        # pairs differ by 1, and a majority answer over 1.5x uniform is a free prior.
        by_diff: dict[int, list] = {}
        for a, b in pairs:
            by_diff.setdefault(view.count(a) - view.count(b), []).append((a, b))
        diff = choose(rng, sorted(by_diff))
        picked = None if diff is None else choose(rng, by_diff[diff])
        return None if picked is None else {"a": picked[0], "b": picked[1]}
