"""Measurable stand-ins for marks that are not separate artists, and value formatting.

A line is one Line2D and a heatmap is one image, yet grounding probes need one box per
point or cell. ``DataPoint`` and ``DataBox`` expose ``get_window_extent(renderer)`` like an
artist does, so the renderer measures every mark the same way. matplotlib is imported only
when they are measured.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["DataBox", "DataPoint", "format_value"]


def format_value(spec, value: float) -> str:
    """Text of a value label: the spec's value-axis tick format, else ``{:g}``."""
    try:
        return spec.axes.tick_format.format(x=value)
    except (ValueError, KeyError, IndexError):
        return f"{value:g}"


@dataclass(frozen=True)
class DataPoint:
    """A point at data coords (x, y) of ``ax``, drawn ``size_pt`` points across."""

    ax: Any
    x: float
    y: float
    size_pt: float = 6.0

    def get_window_extent(self, renderer=None):
        """Display-space square of side ``size_pt`` centred on the point."""
        from matplotlib.transforms import Bbox

        cx, cy = self.ax.transData.transform((self.x, self.y))
        half = self.size_pt * self.ax.figure.dpi / 72.0 / 2.0
        return Bbox([[cx - half, cy - half], [cx + half, cy + half]])


@dataclass(frozen=True)
class DataBox:
    """An axis-aligned rectangle (x0, y0)-(x1, y1) in data coords of ``ax`` (e.g. a heatmap cell)."""

    ax: Any
    x0: float
    y0: float
    x1: float
    y1: float

    def get_window_extent(self, renderer=None):
        """Display-space bounding box of the two transformed corners."""
        from matplotlib.transforms import Bbox

        pts = self.ax.transData.transform([(self.x0, self.y0), (self.x1, self.y1)])
        return Bbox.from_extents(min(pts[:, 0]), min(pts[:, 1]), max(pts[:, 0]), max(pts[:, 1]))
