"""Program ops of the out-of-template complex-reasoning scene templates (``S-CR-OOD-*``).

They read a *histogram* of one attribute (objects per value), a primitive no trained scene
template uses: the trained ones filter and count, or take a strict majority. Pure, and
``None`` when the answer would not be unique (a tie at the rank asked for, one value only).
"""

from __future__ import annotations

from ...core.programs import op
from ...core.scenes.view import SceneView

__all__: list[str] = []


@op("scene_second_most_common")
def scene_second_most_common(view: SceneView, attr: str) -> str | None:
    """The value of ``attr`` second by object count, strictly between its neighbours."""
    ranked = view.counts(attr).most_common()
    counts = [c for _, c in ranked] + [0]  # a sentinel: a last runner-up needs no strict third
    if len(ranked) < 2 or counts[0] == counts[1] or counts[1] == counts[2]:
        return None
    return ranked[1][0]


@op("scene_count_spread")
def scene_count_spread(view: SceneView, attr: str) -> int | None:
    """Objects of the most common value of ``attr`` minus those of the least common one present."""
    counts = view.counts(attr).values()
    if len(counts) < 2 or max(counts) == min(counts):  # all groups equal: no fullest group
        return None
    return max(counts) - min(counts)


@op("scene_count_singletons")
def scene_count_singletons(view: SceneView, attr: str) -> int | None:
    """Objects whose value of ``attr`` no other object has."""
    counts = view.counts(attr)
    if len(counts) < 2:
        return None
    return sum(c == 1 for c in counts.values())
