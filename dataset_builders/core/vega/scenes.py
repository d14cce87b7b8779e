"""Shape scenes drawn by Vega: every object a symbol at its pixel centre, on a plane the size of the
canvas with no axes, so the geometry is the Pillow engine's (:mod:`..scenes.render`).

Vega scales a custom symbol path drawn on [-1, 1]² by ``sqrt(size) / 2``, so with ``size = (2r)²``
one path unit is the object's radius ``r`` and the paths below are the Pillow polygons divided
by ``r``. Outline objects are stroked on their edge (Vega centres strokes), so their path is
shrunk by half the stroke to keep the outer edge where Pillow's is. Boxes are the scene's own
geometry (:func:`..scenes.render.scene_boxes`), the same for both engines.
"""

from __future__ import annotations

import math

from ..render import Rendered
from ..scenes.render import OUTLINE_WIDTH, SQUARE_HALF, STAR_INNER, scene_boxes
from ..scenes.spec import COLORS, EXTENT, SceneSpec

__all__ = ["render_scene_vega", "scene_vega_lite"]


def _path(points: list[tuple[float, float]], scale: float) -> str:
    return "M" + "L".join(f"{x * scale:.4f},{y * scale:.4f}" for x, y in points) + "Z"


def _unit_points(shape: str) -> list[tuple[float, float]]:
    if shape == "square":
        h = SQUARE_HALF
        return [(-h, -h), (h, -h), (h, h), (-h, h)]
    if shape == "triangle":
        return [(EXTENT * math.cos(math.radians(d)), EXTENT * math.sin(math.radians(d))) for d in (-90, 30, 150)]
    if shape == "star":
        return [((EXTENT if k % 2 == 0 else EXTENT * STAR_INNER) * math.cos(math.radians(-90 + 36 * k)),
                 (EXTENT if k % 2 == 0 else EXTENT * STAR_INNER) * math.sin(math.radians(-90 + 36 * k)))
                for k in range(10)]
    return []


def _symbol(shape: str, outline: bool) -> str:
    shrink = 1.0 - OUTLINE_WIDTH / 2 if outline else 1.0
    if shape == "circle":
        # A circle path as two arcs, radius ``shrink`` (named "circle" cannot shrink inside the stroke).
        return f"M{-shrink},0A{shrink},{shrink},0,1,0,{shrink},0A{shrink},{shrink},0,1,0,{-shrink},0Z"
    return _path(_unit_points(shape), shrink)


def scene_vega_lite(scene: SceneSpec) -> dict:
    """The Vega-Lite spec of ``scene``: one symbol layer per object, in spec (drawing) order."""
    layers = []
    for i, obj in enumerate(scene.objects):
        cx, cy = scene.center_px(obj)
        r = scene.radius_px(obj)
        outline = obj.fill != "solid"
        color = COLORS[obj.color]
        mark = {"type": "point", "shape": _symbol(obj.shape, outline), "size": (2 * r) ** 2, "opacity": 1,
                "filled": not outline, "strokeWidth": OUTLINE_WIDTH * r if outline else 0}
        mark.update({"stroke": color, "fill": None} if outline else {"fill": color})
        layers.append({"data": {"values": [{"x": cx, "y": cy, "id": f"object/{i}"}]}, "mark": mark,
                       "encoding": {"x": {"field": "x", "type": "quantitative", "axis": None,
                                          "scale": {"domain": [0, scene.width], "nice": False, "zero": False}},
                                    "y": {"field": "y", "type": "quantitative", "axis": None,
                                          "scale": {"domain": [scene.height, 0], "nice": False, "zero": False}},
                                    "description": {"field": "id"}}})
    return {"$schema": "https://vega.github.io/schema/vega-lite/v5.json", "width": scene.width,
            "height": scene.height, "autosize": {"type": "none"}, "padding": 0, "background": scene.background,
            "config": {"view": {"stroke": None}}, "layer": layers}


def render_scene_vega(scene: SceneSpec) -> Rendered:
    """Validate and draw ``scene`` with Vega; the same boxes as the Pillow engine's."""
    from .engine import _opaque, _vega
    from .runtime import vlc

    scene.validate()
    vl = scene_vega_lite(scene)
    png = _opaque(vlc().vega_to_png(_vega(vl)), scene.background)
    return Rendered(png=png, width=scene.width, height=scene.height, boxes=scene_boxes(scene))
