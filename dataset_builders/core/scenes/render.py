"""Draw a SceneSpec with Pillow (no matplotlib) and report every object's box.

The scene is drawn at :data:`SUPERSAMPLE` times the target size and reduced with a box
filter, which gives smooth edges while staying deterministic: Pillow's rasteriser and
``Image.reduce`` are pure integer/float code with no platform fonts or timestamps, and
the PNG encoder writes no time chunk, so the same scene gives byte-identical PNGs in any
process.

Boxes are computed from the same geometry the drawing uses (:func:`scene_boxes`), not
measured from pixels: ``object/<i>`` is the normalized ``x0, y0, x1, y1`` (origin
top-left) of object ``i``'s shape — the circle, the square, the triangle's or the star's
vertices.
"""

from __future__ import annotations

import io
import math

from PIL import Image, ImageDraw

from ..render import Rendered
from .spec import COLORS, EXTENT, SceneObject, SceneSpec

__all__ = ["SUPERSAMPLE", "render_scene", "scene_boxes", "shape_points"]

SUPERSAMPLE = 3
SQUARE_HALF = 0.88
"""Half-side of a square, in radii: about the same area as the circle of that radius."""
STAR_INNER = 0.45
"""Inner/outer radius ratio of the five-pointed star (deep enough to read as a star)."""
OUTLINE_WIDTH = 0.22
"""Stroke width of an outline object, in radii (bold enough to tell from a solid one)."""


def shape_points(scene: SceneSpec, obj: SceneObject, scale: float = 1.0) -> list[tuple[float, float]]:
    """Vertices of ``obj``'s polygon in pixels times ``scale`` (circle: its bounding square corners)."""
    cx, cy = scene.center_px(obj)
    r = scene.radius_px(obj)
    if obj.shape == "circle":
        pts = [(cx - r, cy - r), (cx + r, cy + r)]
    elif obj.shape == "square":
        h = SQUARE_HALF * r
        pts = [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]
    elif obj.shape == "triangle":
        # Point up, centroid on the centre, vertices on the object's reach disc.
        big = EXTENT * r
        pts = [(cx + big * math.cos(a), cy + big * math.sin(a))
               for a in (math.radians(d) for d in (-90, 30, 150))]
    elif obj.shape == "star":
        big = EXTENT * r
        pts = []
        for k in range(10):
            a = math.radians(-90 + 36 * k)
            rad = big if k % 2 == 0 else big * STAR_INNER
            pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    else:
        raise ValueError(f"unknown shape {obj.shape!r}")
    return [(x * scale, y * scale) for x, y in pts]


def scene_boxes(scene: SceneSpec) -> dict[str, tuple[float, float, float, float]]:
    """``object/<i>`` -> normalized box of every object (origin top-left, clipped to [0, 1])."""
    boxes: dict[str, tuple[float, float, float, float]] = {}
    for i, obj in enumerate(scene.objects):
        pts = shape_points(scene, obj)
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        box = (min(xs) / scene.width, min(ys) / scene.height,
               max(xs) / scene.width, max(ys) / scene.height)
        boxes[f"object/{i}"] = tuple(min(max(v, 0.0), 1.0) for v in box)
    return boxes


def _hex_rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def render_scene(scene: SceneSpec) -> Rendered:
    """Validate and draw ``scene``; RGB PNG bytes, pixel size and ``object/<i>`` boxes."""
    scene.validate()
    s = SUPERSAMPLE
    img = Image.new("RGB", (scene.width * s, scene.height * s), _hex_rgb(scene.background))
    draw = ImageDraw.Draw(img)
    for obj in scene.objects:  # spec order = drawing order (objects never overlap anyway)
        rgb = _hex_rgb(COLORS[obj.color])
        pts = shape_points(scene, obj, s)
        solid = obj.fill == "solid"
        width = max(1, round(OUTLINE_WIDTH * scene.radius_px(obj) * s))
        if obj.shape == "circle":
            if solid:
                draw.ellipse(pts, fill=rgb)
            else:
                draw.ellipse(pts, outline=rgb, width=width)
        elif solid:
            draw.polygon(pts, fill=rgb)
        else:
            # Pillow strokes polygons inside the edge, matching the ellipse, so boxes stay exact.
            draw.polygon(pts, outline=rgb, width=width)
    img = img.reduce(s)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False, compress_level=6)
    return Rendered(png=buf.getvalue(), width=scene.width, height=scene.height,
                    boxes=scene_boxes(scene))
