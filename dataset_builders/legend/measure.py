"""Render a legend chart with its legend handles measured as drawn.

``core.render.render`` measures every artist with ``get_window_extent``, which matplotlib
cannot answer for two kinds of legend handle: a scatter handle (a ``PathCollection`` whose
offsets live in the legend's own coordinates: a null box, stored as all zeros) and a plain
line sample (a ``Line2D`` without marker: zero height, its stroke width is ignored). The
legend boxes LegendBench stores must locate each entry on the image, so :func:`render_chart`
draws the figure exactly as ``core.render.render`` does (same scene, same single draw, same
PNG bytes) and only swaps those handles' measurement for their drawn extent: the marker
paths at their offsets, or the line padded by half its stroke. Every other box is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.spec import ChartSpec

__all__ = ["render_chart"]

_EXTENTS: dict[str, Callable[[Any, Any], Any]] = {}
"""Artist class name -> drawn extent (display Bbox) of a handle of that class."""


def _extent_of(cls_name: str) -> Callable:
    def register(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
        _EXTENTS[cls_name] = fn
        return fn
    return register


@_extent_of("PathCollection")
def _collection_extent(artist: Any, renderer: Any) -> Any:
    """Marker paths (sized in pixels at draw time) placed at their display offsets."""
    from matplotlib.path import get_path_collection_extents

    bb = get_path_collection_extents(artist.get_transform().frozen(), artist.get_paths(), artist.get_transforms(),
                                     artist.get_offsets(), artist.get_offset_transform().frozen())
    widths = artist.get_linewidths()
    return bb.padded(_points_to_px(artist, max(widths) if len(widths) else 0.0) / 2)


@_extent_of("Line2D")
def _line_extent(artist: Any, renderer: Any) -> Any:
    """The sample line with its stroke: matplotlib's box (markers included) padded by half the width."""
    return artist.get_window_extent(renderer).padded(_points_to_px(artist, artist.get_linewidth()) / 2)


def _points_to_px(artist: Any, points: float) -> float:
    return float(points) * artist.get_figure(root=True).dpi / 72.0


def _degenerate(bb: Any) -> bool:
    import numpy as np

    pts = bb.get_points()
    return not np.all(np.isfinite(pts)) or bb.width <= 0 or bb.height <= 0


@dataclass(frozen=True)
class _AsDrawn:
    """A legend handle measured by matplotlib when that works, by its drawn extent when it does not."""

    artist: Any

    def get_visible(self) -> bool:
        return self.artist.get_visible()

    def get_window_extent(self, renderer: Any = None) -> Any:
        bb = self.artist.get_window_extent(renderer)
        if not _degenerate(bb):
            return bb
        # Subclasses of a registered class measure like it.
        names = [c.__name__ for c in type(self.artist).__mro__ if c.__name__ in _EXTENTS]
        return _EXTENTS[names[0]](self.artist, renderer) if names else bb


def _as_drawn(obj: Any) -> Any:
    if isinstance(obj, (list, tuple)):
        return [_as_drawn(o) for o in obj]
    return _AsDrawn(obj) if type(obj).__name__ != "Text" else obj


def render_chart(spec: ChartSpec) -> Any:
    """``core.render.render(spec, validate=False)`` with legend handles measured as drawn."""
    from ..core import render as core

    def as_drawn(scene: Any) -> None:
        for key, obj in scene.measured.items():
            if key.startswith(("legend/handle/", "legend/entry/")):  # an entry is [handle, text]
                scene.measured[key] = _as_drawn(obj)

    return core.render(spec, validate=False, prepare=as_drawn)
