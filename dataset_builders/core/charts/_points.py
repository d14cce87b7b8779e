"""Helpers shared by point-based kinds (line, area, scatter, radar)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._marks import format_value

__all__ = ["MARKER_SIZE", "value_label", "x_positions"]

MARKER_SIZE = 6.0
"""Marker size in points (also the side of a point mark's box)."""


def x_positions(spec) -> np.ndarray:
    """Numeric x of each category: data.x_values when given, else 0..n-1."""
    if spec.data.x_values is not None:
        return np.asarray(spec.data.x_values, dtype=float)
    return np.arange(len(spec.data.categories), dtype=float)


def value_label(spec, ax: Any, x: float, y: float, value: float, color: Any = None) -> Any:
    """Annotate ``value`` just above the data point (x, y); returns the Text artist."""
    return ax.annotate(format_value(spec, value), (x, y), xytext=(0, 5), textcoords="offset points",
                       ha="center", va="bottom", fontsize=spec.style.font_size * 0.8, color=color,
                       annotation_clip=False)
