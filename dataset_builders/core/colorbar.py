"""A colour bar's scale as a pure function of the spec: its value range, its labelled ticks and
which way it runs.

The renderer draws exactly these ticks (``render._legend_colorbar`` sets them), so a question
about a tick label is answered from the spec, never from pixels. The rule is matplotlib's
default locator on a bar of ordinary height (``MaxNLocator``: at most 9 intervals, steps 1, 2,
2.5, 5 and 10 times a power of ten), so the bars drawn before the ticks were pinned keep their
labels; unlike matplotlib's, the number of intervals depends only on the figure's height and
font size, never on the layout or the legend's font scale, so a legend-only edit that preserves
the scale (a smaller legend font) preserves its ticks too.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["MAX_BINS", "colorbar_bins", "colorbar_range", "colorbar_ticks", "ticks_from_end"]

MAX_BINS = 9
"""Most intervals between ticks (matplotlib's ``AutoLocator`` caps its own at 9)."""
_STEPS = (1.0, 2.0, 2.5, 5.0, 10.0)
_BAR_SHARE = 0.8
"""Roughly the share of the figure height the bar spans (constrained layout, no shrink)."""


def colorbar_range(spec: Any) -> tuple[float, float]:
    """(low, high) of the drawn field: the heatmap's colour norm is autoscaled to its data."""
    vals = [v for s in spec.data.series if not s.missing for v in s.values]
    arr = np.asarray(vals, dtype=float)
    arr = arr[np.isfinite(arr)]
    if not arr.size:
        return (math.nan, math.nan)
    return (float(arr.min()), float(arr.max()))


def colorbar_bins(spec: Any) -> int:
    """Most tick intervals: two label heights of room each (matplotlib's tick space), at most 9."""
    room = _BAR_SHARE * spec.style.height * 72.0
    return max(2, min(MAX_BINS, int(room // (2.0 * spec.style.font_size))))


def colorbar_ticks(spec: Any) -> tuple[float, ...]:
    """Values of the labelled colour-bar ticks, ascending: the multiples of the smallest nice
    step that splits the range into at most :func:`colorbar_bins` intervals, inside the range."""
    lo, hi = colorbar_range(spec)
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return ()
    raw = (hi - lo) / colorbar_bins(spec)
    scale = 10.0 ** math.floor(math.log10(raw))
    step = next(s * scale for s in _STEPS if s * scale >= raw * (1 - 1e-12))
    # The ends count when they sit on a multiple (float noise forgiven, as matplotlib does).
    first, last = math.ceil(lo / step - 1e-9), math.floor(hi / step + 1e-9)
    return tuple(round(k * step, 10) + 0.0 for k in range(first, last + 1))


def ticks_from_end(spec: Any, end: str) -> tuple[float, ...]:
    """The tick values in the order a reader meets them from the bar's ``top`` or ``bottom`` end."""
    ticks = colorbar_ticks(spec)
    up = spec.legend.direction == "up"
    return ticks if (end == "bottom") == up else ticks[::-1]
