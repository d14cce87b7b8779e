"""The scene spec: a frozen, JSON-round-trippable scene graph of flat 2D shapes.

This is chartprobe's CLEVR analogue. A scene is data: the image, every answer and
every relation are functions of a :class:`SceneSpec`, never read back from pixels.
Each object has CLEVR's four attributes (``shape``, ``color``, ``size`` and ``fill`` —
solid vs outline plays the part of CLEVR's metal vs rubber) and a centre in
normalized image coordinates (origin top-left). Spatial relations (left of, right of,
above, below) are derived from the centres, CLEVR-style, by
:class:`~chartprobe.dataset_builders.core.scenes.view.SceneView`.

The on-screen size of an object is fixed by the spec (``radius_px``) so that the
sampler, the validator and the renderer agree on where every object is.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from dataclasses import dataclass
from typing import Any

from ..spec import SpecError, _from_plain, _to_plain

__all__ = [
    "COLORS",
    "EXTENT",
    "FILLS",
    "RELATION_MARGIN_PX",
    "SCENE_VERSION",
    "SHAPES",
    "SIZES",
    "SIZE_RADIUS",
    "SceneObject",
    "SceneSpec",
]

SCENE_VERSION = "chartprobe.scene/1"

SHAPES = ("circle", "square", "triangle", "star")
# Clearly nameable, mutually distant hues: a colour question must have one obvious answer.
COLORS: dict[str, str] = {
    "red": "#e03131", "blue": "#1c6ed8", "green": "#2f9e44", "yellow": "#f2c40f",
    "purple": "#8e44ad", "orange": "#f76707", "gray": "#7c858d", "cyan": "#15aabf",
}
SIZES = ("small", "large")
FILLS = ("solid", "outline")

SIZE_RADIUS = {"small": 0.05, "large": 0.085}
"""Nominal radius as a fraction of the scene's shorter side (large is 1.7x small: unmistakable)."""
EXTENT = 1.2
"""Every shape fits in a disc of ``EXTENT * radius`` around its centre (stars and triangles
reach furthest); the sampler keeps these discs apart so no two objects overlap."""

RELATION_MARGIN_PX = 8.0
"""Two centres closer than this along an axis are a visual tie for left/right (or above/below):
relation and extremum questions that depend on such a pair are degenerate."""

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


@dataclass(frozen=True)
class SceneObject:
    """One object: four categorical attributes and a centre (normalized, origin top-left)."""

    shape: str
    color: str
    """A colour *name* from :data:`COLORS` (the name is the answer; the hex is for drawing)."""
    size: str
    fill: str
    x: float
    y: float

    def attr(self, name: str) -> str:
        """The value of attribute ``name`` (shape, color, size or fill)."""
        if name not in ("shape", "color", "size", "fill"):
            raise KeyError(f"unknown object attribute {name!r}")
        return getattr(self, name)


@dataclass(frozen=True)
class SceneSpec:
    """A complete scene: its objects (the scene graph), canvas size and background."""

    objects: tuple[SceneObject, ...]
    width: int = 480
    height: int = 320
    background: str = "#f0f0f0"
    kind: str = "shapes"

    # -- serialisation -------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able dict with a ``version`` tag (tuples become lists)."""
        return {"version": SCENE_VERSION, **_to_plain(self)}

    def to_json(self) -> str:
        """Canonical JSON text (sorted keys, no spaces): stable bytes for hashing."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), allow_nan=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SceneSpec:
        """Inverse of :meth:`to_dict`. Raises SpecError naming the bad field."""
        if not isinstance(d, dict):
            raise SpecError("scene", f"expected a JSON object, got {type(d).__name__}")
        version = d.get("version", SCENE_VERSION)
        if version != SCENE_VERSION:
            raise SpecError("scene.version",
                            f"unsupported version {version!r} (expected {SCENE_VERSION!r})")
        return _from_plain(cls, {k: v for k, v in d.items() if k != "version"}, "scene")

    @classmethod
    def from_json(cls, text: str) -> SceneSpec:
        """Parse JSON text written by :meth:`to_json`."""
        try:
            return cls.from_dict(json.loads(text))
        except json.JSONDecodeError as exc:
            raise SpecError("scene", f"invalid JSON: {exc}") from None

    def replace(self, **changes: Any) -> SceneSpec:
        """``dataclasses.replace`` shortcut (interventions are such transforms)."""
        return dataclasses.replace(self, **changes)

    # -- geometry ------------------------------------------------------------------
    def radius_px(self, obj: SceneObject) -> float:
        """Nominal radius of ``obj`` in pixels."""
        return SIZE_RADIUS[obj.size] * min(self.width, self.height)

    def center_px(self, obj: SceneObject) -> tuple[float, float]:
        """Centre of ``obj`` in pixels (origin top-left)."""
        return obj.x * self.width, obj.y * self.height

    def validate(self) -> SceneSpec:
        """Check every field; raise one SpecError naming the first bad field. Returns self."""
        if self.kind != "shapes":
            raise SpecError("scene.kind", f"must be 'shapes', got {self.kind!r}")
        for name in ("width", "height"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 64 <= value <= 4096:
                raise SpecError(f"scene.{name}", f"must be an integer in [64, 4096], got {value!r}")
        if not isinstance(self.background, str) or not _HEX.match(self.background):
            raise SpecError("scene.background", f"must be a #rrggbb colour, got {self.background!r}")
        if not self.objects:
            raise SpecError("scene.objects", "a scene needs at least one object")
        for i, obj in enumerate(self.objects):
            self._validate_object(i, obj)
        # Overlapping objects would make counts and boxes ambiguous to a viewer.
        for i, a in enumerate(self.objects):
            for j in range(i):
                b = self.objects[j]
                (ax, ay), (bx, by) = self.center_px(a), self.center_px(b)
                if math.hypot(ax - bx, ay - by) < EXTENT * (self.radius_px(a) + self.radius_px(b)):
                    raise SpecError(f"scene.objects[{i}]", f"overlaps objects[{j}]")
        return self

    def _validate_object(self, i: int, obj: SceneObject) -> None:
        path = f"scene.objects[{i}]"
        if not isinstance(obj, SceneObject):
            raise SpecError(path, f"expected a SceneObject, got {type(obj).__name__}")
        for name, allowed in (("shape", SHAPES), ("color", tuple(COLORS)), ("size", SIZES),
                              ("fill", FILLS)):
            if getattr(obj, name) not in allowed:
                raise SpecError(f"{path}.{name}",
                                f"must be one of {', '.join(allowed)}; got {getattr(obj, name)!r}")
        for name in ("x", "y"):
            value = getattr(obj, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value) or not 0.0 <= value <= 1.0:
                raise SpecError(f"{path}.{name}", f"must be a finite number in [0, 1], got {value!r}")
        r = EXTENT * self.radius_px(obj)
        cx, cy = self.center_px(obj)
        if cx - r < 0 or cx + r > self.width:
            raise SpecError(f"{path}.x", "object extends past the left/right edge")
        if cy - r < 0 or cy + r > self.height:
            raise SpecError(f"{path}.y", "object extends past the top/bottom edge")
