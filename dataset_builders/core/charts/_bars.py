"""Bar drawing shared by ``bar``, ``hbar``, ``grouped_bar`` and ``stacked_bar``.

One function draws any bar layout (single, grouped side by side, stacked) in either
orientation, so the four kinds differ only in their class attributes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._base import Drawn
from ._marks import format_value

__all__ = ["draw_bars", "set_category_ticks"]


def set_category_ticks(ax: Any, labels: tuple[str, ...], horizontal: bool = False) -> None:
    """Category labels on the category axis; long or many x labels are slanted to stay legible."""
    pos = np.arange(len(labels))
    if horizontal:
        ax.set_yticks(pos, labels=list(labels))
        ax.invert_yaxis()  # first category on top, in reading order
        return
    slant = len(labels) > 6 or max(len(s) for s in labels) > 8
    ax.set_xticks(pos, labels=list(labels), rotation=30 if slant else 0,
                  ha="right" if slant else "center", rotation_mode="anchor")


def _geometry(layout: str, n_series: int) -> tuple[float, list[float]]:
    """Bar width and per-series offset from the category position."""
    if layout == "grouped":
        width = 0.8 / n_series
        return width, [(s - (n_series - 1) / 2) * width for s in range(n_series)]
    return 0.7, [0.0] * n_series


def draw_bars(spec, ax: Any, *, layout: str = "single", horizontal: bool = False) -> Drawn:
    """Draw every series of ``spec`` as bars; ``layout`` is single | grouped | stacked."""
    series = spec.data.series
    pos = np.arange(len(spec.data.categories), dtype=float)
    width, offsets = _geometry(layout, len(series))
    base = np.zeros(len(pos))
    drawn = Drawn()
    for s, (ser, enc) in enumerate(zip(series, spec.encodings)):
        vals = np.asarray(ser.values, dtype=float)
        # Hatches are drawn in the edge colour: white lines show on any fill.
        fill = list(enc.colors) if enc.colors else enc.color  # per-bar palette when given
        kw = {"color": fill, "hatch": enc.hatch or None,
              "edgecolor": "white" if enc.hatch else fill, "linewidth": 0.5 if enc.hatch else 0}
        if horizontal:
            bars = ax.barh(pos + offsets[s], vals, height=width, left=base.copy(), **kw)
        else:
            bars = ax.bar(pos + offsets[s], vals, width=width, bottom=base.copy(), **kw)
        for c, patch in enumerate(bars.patches):
            drawn.marks[f"mark/{s}/{c}"] = patch
        drawn.handles.append(bars)
        end = base + vals if layout == "stacked" else vals
        mid = base + vals / 2 if layout == "stacked" else vals
        last = len(pos) - 1
        anchor_v = mid[last] if layout == "stacked" else end[last]
        anchor_c = pos[last] + offsets[s] + width / 2
        drawn.anchors.append((anchor_v, pos[last] + offsets[s]) if horizontal
                             else (anchor_c, anchor_v))
        if spec.style.value_labels:
            texts = ax.bar_label(bars, labels=[format_value(spec, v) for v in vals],
                                 label_type="center" if layout == "stacked" else "edge",
                                 padding=0 if layout == "stacked" else 2,
                                 fontsize=spec.style.font_size * (0.7 if layout == "grouped" else 0.8))
            for c, t in enumerate(texts):
                drawn.extra[f"value_label/{s}/{c}"] = t
        if layout == "stacked":
            base = base + vals
    if spec.style.value_labels and layout != "stacked":
        drawn.anchor_offset += 2.5 * spec.style.font_size  # clear the value label at the bar end
    set_category_ticks(ax, spec.data.categories, horizontal)
    return drawn
