"""S-P-COUNT-FILL: how many objects are solid (or outlined) — the CLEVR material count."""

from __future__ import annotations

from ...core.scenes.spec import FILLS
from . import template
from ._scene_ops import SceneTemplate, choose


@template("S-P-COUNT-FILL")
class CountFill(SceneTemplate):
    skill = "perception"
    answer_type = "count"
    op = "scene_count"
    reads = ("objects.fill",)
    description = "Count the solid, or the outlined, objects."
    phrasings = (
        "How many {things} are there? (Outlined objects are drawn as an outline with no fill.)",
        "Some objects are solid and some are only outlined. How many {things} are there?",
    )

    def bind(self, view, rng):
        # Both values are fair: "none are outlined" is an exact, visually checkable 0.
        return {"where": {"fill": choose(rng, FILLS)}}
