"""A shape scene seen the way a probe template needs it (the ``ChartView`` of scenes).

``SceneView`` wraps a :class:`SceneSpec` and the objects' boxes and answers scene-graph
queries: filters (``where`` = attribute -> value), counts, extremal objects, spatial
relations and unique referring expressions. Every query that could be ambiguous to a
viewer returns ``None`` instead of guessing: two centres within
:data:`RELATION_MARGIN_PX` along an axis make "left of" (or "leftmost") a visual tie,
and a description two objects fit refers to nothing.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .spec import RELATION_MARGIN_PX, SceneObject, SceneSpec

__all__ = ["ATTRS", "DIRECTIONS", "PLURALS", "RELATIONS", "WORDS", "SceneView", "phrase"]

ATTRS = ("size", "fill", "color", "shape")
"""Attribute names in English adjective order (size, fill, colour, then the noun)."""
RELATIONS = ("left", "right", "above", "below")
DIRECTIONS = {"left": "leftmost", "right": "rightmost", "above": "topmost", "below": "bottommost"}
"""Relation -> the extremal object in that direction."""
PLURALS = {"circle": "circles", "square": "squares", "triangle": "triangles", "star": "stars"}
WORDS = MappingProxyType({"noun": "object", "nouns": "objects"})
_FILL_ADJ = {"solid": "solid", "outline": "outlined"}


@dataclass(frozen=True)
class SceneView:
    """Objects, attribute counts, relations and referring expressions of one scene."""

    spec: SceneSpec
    boxes: Mapping[str, tuple[float, float, float, float]] = field(default_factory=dict)

    @classmethod
    def from_spec(cls, spec: SceneSpec) -> SceneView:
        """A view with boxes from the scene geometry (identical to the rendered boxes)."""
        from .render import scene_boxes  # geometry only; nothing is drawn

        return cls(spec, scene_boxes(spec))

    @property
    def words(self) -> Mapping[str, str]:
        return WORDS

    @property
    def objects(self) -> tuple[SceneObject, ...]:
        return self.spec.objects

    @property
    def n(self) -> int:
        return len(self.spec.objects)

    # -- filters and counts ----------------------------------------------------------
    def matching(self, where: Mapping[str, str]) -> list[int]:
        """Indices of the objects whose attributes equal every ``where`` entry."""
        return [i for i, o in enumerate(self.objects)
                if all(o.attr(k) == v for k, v in where.items())]

    def count(self, where: Mapping[str, str]) -> int:
        return len(self.matching(where))

    def counts(self, attr: str, among: list[int] | None = None) -> Counter[str]:
        """Value -> number of objects (of ``among``, default all) with that value of ``attr``."""
        idx = range(self.n) if among is None else among
        return Counter(self.objects[i].attr(attr) for i in idx)

    def majority(self, attr: str, among: list[int] | None = None) -> str | None:
        """The strictly most common value of ``attr`` (among ``among``); None on a tie or if empty."""
        ranked = self.counts(attr, among).most_common()
        if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
            return None
        return ranked[0][0]

    # -- space ----------------------------------------------------------------------
    def _coord(self, i: int, relation: str) -> float:
        """Pixel coordinate along ``relation``'s axis, signed so that larger = further that way."""
        x, y = self.spec.center_px(self.objects[i])
        return {"left": -x, "right": x, "above": -y, "below": y}[relation]

    def related(self, i: int, relation: str) -> list[int] | None:
        """Objects that are ``relation`` of object ``i`` (``left``: further left than it).

        None when any object is within the relation margin of ``i`` along that axis,
        since whether it counts would be a visual coin toss.
        """
        ref = self._coord(i, relation)
        out = []
        for j in range(self.n):
            if j == i:
                continue
            d = self._coord(j, relation) - ref
            if abs(d) < RELATION_MARGIN_PX:
                return None
            if d > 0:
                out.append(j)
        return out

    def extreme(self, relation: str) -> int | None:
        """The object furthest in ``relation``'s direction, clear of the runner-up; else None."""
        ranked = sorted(range(self.n), key=lambda i: self._coord(i, relation), reverse=True)
        if not ranked:
            return None
        if len(ranked) > 1 and (self._coord(ranked[0], relation) - self._coord(ranked[1], relation)
                                < RELATION_MARGIN_PX):
            return None
        return ranked[0]

    # -- referring expressions ---------------------------------------------------------
    def referring(self, i: int, exclude: tuple[str, ...] = ()) -> dict[str, str] | None:
        """The smallest attribute set (shape first, never ``exclude``) that only object ``i`` fits.

        Shape is kept whenever allowed because "the red circle" reads more naturally than
        "the red object". None if even every allowed attribute fits another object too.
        """
        obj = self.objects[i]
        others = [a for a in ("color", "size", "fill") if a not in exclude]
        base = () if "shape" in exclude else ("shape",)
        for k in range(len(others) + 1):
            for extra in itertools.combinations(others, k):
                where = {a: obj.attr(a) for a in base + extra}
                if where and self.matching(where) == [i]:
                    return where
        return None

    def resolve(self, ref: Mapping[str, str]) -> int | None:
        """The one object ``ref`` describes; None if it fits none or several."""
        hits = self.matching(ref)
        return hits[0] if len(hits) == 1 else None

    def describe(self, i: int, exclude: tuple[str, ...] = ()) -> str | None:
        """A unique referring expression for object ``i`` ("the large red circle"), or None."""
        where = self.referring(i, exclude)
        return None if where is None else "the " + phrase(where)


def phrase(where: Mapping[str, str], plural: bool = False) -> str:
    """English noun phrase for a filter: ``{"color": "red"}`` -> "red object(s)"."""
    words = []
    for a in ("size", "fill", "color"):
        if a in where:
            words.append(_FILL_ADJ[where[a]] if a == "fill" else where[a])
    shape = where.get("shape")
    if shape is None:
        noun = "objects" if plural else "object"
    else:
        noun = PLURALS[shape] if plural else shape
    return " ".join([*words, noun])
