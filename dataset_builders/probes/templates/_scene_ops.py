"""Program operations over a shape scene (a :class:`~chartprobe.dataset_builders.core.scenes.SceneView`), and
the base class of the ``S-*`` scene templates.

Arguments are JSON data, CLEVR ``question_engine`` style: a *filter* (``where``, ``a``,
``b``) is an attribute -> value dict selecting a set of objects; a *reference* (``ref``,
``ref_b``) is such a dict that must select exactly one object. Each op is pure and
returns ``None`` when the answer would not be unique or not visually well-posed: a
reference that fits zero or several objects, a tied majority, a relation or extremum
decided by centres closer than the relation margin, a comparison of two empty sets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, TypeVar

import numpy as np

from ...core.programs import op
from ...core.scenes.view import DIRECTIONS, SceneView, phrase
from ._base import Template

__all__ = [
    "ATTR_WORDS",
    "OBJECT_READS",
    "OPTIONS",
    "POSITION_READS",
    "REL_WORDS",
    "SceneTemplate",
    "choose",
    "pair_filters",
    "present",
    "referable",
    "single_filters",
]

ATTR_WORDS = {"color": "colour", "shape": "shape", "size": "size", "fill": "fill style"}
REL_WORDS = {"left": "to the left of", "right": "to the right of", "above": "above",
             "below": "below"}
OPTIONS = {"fill": " (solid or outline)", "size": " (small or large)"}
"""Two-valued attributes name their answer set, so "outline" vs "outlined" is no guess."""
OBJECT_READS = ("objects.shape", "objects.color", "objects.size", "objects.fill")
POSITION_READS = ("objects.x", "objects.y")

T = TypeVar("T")
Where = Mapping[str, str]


# -- perception: counting -------------------------------------------------------------------

@op("scene_count")
def scene_count(view: SceneView, where: Where) -> int:
    return view.count(where)


@op("scene_count_distinct")
def scene_count_distinct(view: SceneView, attr: str) -> int:
    return len(view.counts(attr))


# -- grounding: locate and identify ------------------------------------------------------------

@op("scene_extreme_attr")
def scene_extreme_attr(view: SceneView, relation: str, attr: str) -> str | None:
    i = view.extreme(relation)
    return None if i is None else view.objects[i].attr(attr)


@op("scene_bbox")
def scene_bbox(view: SceneView, ref: Where) -> tuple[float, float, float, float] | None:
    i = view.resolve(ref)
    if i is None:
        return None
    box = view.boxes.get(f"object/{i}")
    # A view built without boxes falls back to the geometry the renderer uses.
    return box if box is not None else SceneView.from_spec(view.spec).boxes[f"object/{i}"]


@op("scene_query")
def scene_query(view: SceneView, ref: Where, attr: str) -> str | None:
    i = view.resolve(ref)
    return None if i is None else view.objects[i].attr(attr)


@op("scene_relate_attr")
def scene_relate_attr(view: SceneView, ref: Where, relation: str, attr: str) -> str | None:
    """``attr`` of the one object ``relation`` of ``ref`` (None unless exactly one is)."""
    i = view.resolve(ref)
    hits = None if i is None else view.related(i, relation)
    return view.objects[hits[0]].attr(attr) if hits is not None and len(hits) == 1 else None


# -- simple reasoning: one operation -------------------------------------------------------------

@op("scene_more")
def scene_more(view: SceneView, a: Where, b: Where) -> bool | None:
    ca, cb = view.count(a), view.count(b)
    return None if ca == cb == 0 else ca > cb


@op("scene_majority")
def scene_majority(view: SceneView, attr: str) -> str | None:
    return view.majority(attr)


@op("scene_same")
def scene_same(view: SceneView, ref: Where, ref_b: Where, attr: str) -> bool | None:
    i, j = view.resolve(ref), view.resolve(ref_b)
    if i is None or j is None or i == j:
        return None
    return view.objects[i].attr(attr) == view.objects[j].attr(attr)


@op("scene_count_diff")
def scene_count_diff(view: SceneView, a: Where, b: Where) -> int | None:
    """How many more objects match ``a`` than ``b``; None unless ``a`` has strictly more."""
    d = view.count(a) - view.count(b)
    return d if d > 0 else None


# -- complex reasoning: compositions (held out) --------------------------------------------------

@op("scene_equal_counts")
def scene_equal_counts(view: SceneView, a: Where, b: Where) -> bool | None:
    ca, cb = view.count(a), view.count(b)
    return None if ca == cb == 0 else ca == cb


@op("scene_majority_within")
def scene_majority_within(view: SceneView, group: str, attr: str) -> str | None:
    """Most common ``attr`` among the objects sharing the most common ``group`` value."""
    top = view.majority(group)
    return None if top is None else view.majority(attr, view.matching({group: top}))


@op("scene_count_same_as")
def scene_count_same_as(view: SceneView, ref: Where, attr: str) -> int | None:
    """Number of *other* objects with the same ``attr`` as the one ``ref`` names."""
    i = view.resolve(ref)
    if i is None:
        return None
    return view.count({attr: view.objects[i].attr(attr)}) - 1


@op("scene_count_related")
def scene_count_related(view: SceneView, ref: Where, relation: str, where: Where) -> int | None:
    """Number of objects matching ``where`` that are ``relation`` of the one ``ref`` names."""
    i = view.resolve(ref)
    hits = None if i is None else view.related(i, relation)
    if hits is None:
        return None
    wanted = set(view.matching(where))
    return sum(j in wanted for j in hits)


# -- template support ---------------------------------------------------------------------------

def choose(rng: np.random.Generator, items: Sequence[T]) -> T | None:
    """One element of ``items`` drawn by ``rng`` (None when empty)."""
    return items[int(rng.integers(len(items)))] if items else None


def present(view: SceneView, attr: str) -> list[str]:
    """Values of ``attr`` that occur in the scene, sorted (a stable order for the rng)."""
    return sorted(view.counts(attr))


def referable(view: SceneView, exclude: tuple[str, ...] = ()) -> list[tuple[int, dict[str, str]]]:
    """(index, reference) for every object a description without ``exclude`` pins down."""
    refs = ((i, view.referring(i, exclude)) for i in range(view.n))
    return [(i, r) for i, r in refs if r is not None]


def single_filters(view: SceneView, attrs: Sequence[str]) -> list[dict[str, str]]:
    """``{attr: value}`` for every value of every ``attrs`` entry present in the scene."""
    return [{a: v} for a in attrs for v in present(view, a)]


def pair_filters(view: SceneView) -> list[dict[str, str]]:
    """Two-attribute filters (colour/size/fill plus shape, or size plus colour) that select
    at least one object, in a stable order; e.g. ``{"color": "blue", "shape": "square"}``."""
    out: dict[str, dict[str, str]] = {}
    for o in view.objects:
        for a, b in (("color", "shape"), ("fill", "shape"), ("size", "shape"), ("size", "color")):
            f = {a: o.attr(a), b: o.attr(b)}
            out[phrase(f)] = f
    return [out[k] for k in sorted(out)]


class SceneTemplate(Template):
    """Defaults shared by the shape-scene templates, plus phrasing slots derived from args.

    Slots: ``things``/``a_things``/``b_things`` (plural phrase of the filter ``where``/``a``/
    ``b``), ``ref_text``/``ref_b_text`` ("the large red circle"), ``attr_word``,
    ``options`` (" (solid or outline)" for two-valued attributes), ``group_word``, ``rel_text`` ("to the left of") and ``extreme`` ("leftmost").
    """

    domain: ClassVar[str] = "shapes"
    kinds: ClassVar[tuple[str, ...]] = ("shapes",)
    reads: ClassVar[tuple[str, ...]] = OBJECT_READS

    def slots(self, view: Any, args: dict[str, Any]) -> dict[str, Any]:
        out = {**view.words, **args}
        for key, name in (("where", "things"), ("a", "a_things"), ("b", "b_things")):
            if key in args:
                out[name] = phrase(args[key], plural=True)
        for key in ("ref", "ref_b"):
            if key in args:
                out[f"{key}_text"] = "the " + phrase(args[key])
        if "attr" in args:
            out["attr_word"] = ATTR_WORDS[args["attr"]]
            out["options"] = OPTIONS.get(args["attr"], "")
        if "group" in args:
            out["group_word"] = ATTR_WORDS[args["group"]]
        if "relation" in args:
            out["rel_text"] = REL_WORDS[args["relation"]]
            out["extreme"] = DIRECTIONS[args["relation"]]
        return out
