"""Sample random shape scenes (CLEVR's scene generator, in 2D).

Everything comes from the numpy Generator passed in, so a scene depends on nothing but
its rng. Objects are placed by bounded rejection sampling: a candidate centre is kept
only if its disc clears every placed object's disc by a gap *and* it is clear of every
placed object along both axes by :data:`RELATION_MARGIN_PX` (CLEVR's ``margin`` test),
so every left/right/above/below relation in a sampled scene is visually unambiguous.
"""

from __future__ import annotations

import math

import numpy as np

from .spec import COLORS, EXTENT, FILLS, RELATION_MARGIN_PX, SHAPES, SIZES, SceneObject, SceneSpec

__all__ = ["PLACEMENT_TRIES", "SCENE_RESTARTS", "sample_scene"]

PLACEMENT_TRIES = 200
"""Candidate centres tried per object before the scene is abandoned."""
SCENE_RESTARTS = 50
"""Whole scenes tried before giving up (never reached at the default density)."""
GAP_PX = 6.0
"""Clear space between two objects' bounding discs, so they never touch visually."""

_COLOR_NAMES = tuple(COLORS)


def _place(rng: np.random.Generator, scene: SceneSpec, attrs: list[tuple[str, str, str, str]],
           ) -> list[SceneObject] | None:
    """Place objects with ``attrs`` (shape, color, size, fill) on ``scene``'s canvas, or None."""
    placed: list[SceneObject] = []
    for shape, color, size, fill in attrs:
        probe = SceneObject(shape, color, size, fill, 0.5, 0.5)
        reach = EXTENT * scene.radius_px(probe)
        for _ in range(PLACEMENT_TRIES):
            # 1 px inside the edge, so rounding the stored centre never pushes it out.
            cx = float(rng.uniform(reach + 1, scene.width - reach - 1))
            cy = float(rng.uniform(reach + 1, scene.height - reach - 1))
            if all(_clear(scene, cx, cy, reach, other) for other in placed):
                # Round to 4 decimals so the JSON spec is short; stays inside the canvas.
                placed.append(SceneObject(shape, color, size, fill,
                                          round(cx / scene.width, 4), round(cy / scene.height, 4)))
                break
        else:
            return None
    return placed


def _clear(scene: SceneSpec, cx: float, cy: float, reach: float, other: SceneObject) -> bool:
    ox, oy = scene.center_px(other)
    # The 1 px slack absorbs the 4-decimal rounding of stored centres.
    if math.hypot(cx - ox, cy - oy) < reach + EXTENT * scene.radius_px(other) + GAP_PX:
        return False
    return abs(cx - ox) >= RELATION_MARGIN_PX + 1 and abs(cy - oy) >= RELATION_MARGIN_PX + 1


def sample_scene(rng: np.random.Generator, n_objects: tuple[int, int] = (3, 10),
                 width: int = 480, height: int = 320) -> SceneSpec:
    """A random valid scene with ``n_objects[0]``..``n_objects[1]`` (inclusive) objects.

    Attributes are drawn uniformly from the small palettes; placement is rejection
    sampling with a bounded number of tries. Raises RuntimeError if no scene fits.
    """
    lo, hi = n_objects
    if not 1 <= lo <= hi:
        raise ValueError(f"n_objects must be (lo, hi) with 1 <= lo <= hi, got {n_objects!r}")
    canvas = SceneSpec(objects=(), width=width, height=height)
    n = int(rng.integers(lo, hi + 1))
    attrs = [(SHAPES[int(rng.integers(len(SHAPES)))], _COLOR_NAMES[int(rng.integers(len(COLORS)))],
              SIZES[int(rng.integers(len(SIZES)))], FILLS[int(rng.integers(len(FILLS)))])
             for _ in range(n)]
    for _ in range(SCENE_RESTARTS):
        placed = _place(rng, canvas, attrs)
        if placed is not None:
            return canvas.replace(objects=tuple(placed)).validate()
    raise RuntimeError(f"could not place {n} non-overlapping objects on a {width}x{height} canvas")
