"""``pie``: one series; legend items are the categories.

Wedges start at 12 o'clock and run CLOCKWISE in category order (matplotlib
``startangle=90, counterclock=False``): wedge 0 begins at the top and extends to the
right. Probes about wedge positions depend on this convention.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..spec import ChartSpec, SpecError
from . import chart
from ._base import DEFAULT_CONFIG, ChartKind, Drawn, SampleConfig
from ._marks import format_value


@chart("pie")
class Pie(ChartKind):
    """Pie chart; wedge ``c`` is ``mark/0/c`` (clockwise from 12 o'clock, see module doc)."""

    legend_items = "categories"
    max_series = 1
    series_range = (1, 1)
    category_range = (3, 7)
    value_axis = ""
    # Laid out by constrained layout: a pie's place follows its wedge labels, which only it
    # measures. With one fixed place per figure size, a wedge's box was predictable from the
    # image's size (full probes, metadata agent on pie:G-BBOX-ELEMENT: 0.122 against chance 0.011).
    margins = None
    encoding_channels = ("hatch",)

    def validate(self, spec: ChartSpec) -> None:
        """Exactly one series, every value > 0 (a wedge cannot be empty or negative)."""
        super().validate(spec)
        for i, v in enumerate(spec.data.series[0].values):
            if v <= 0:
                raise SpecError(f"spec.data.series[0].values[{i}]", f"pie values must be > 0, got {v}")

    def sample(self, rng: np.random.Generator, cfg: SampleConfig = DEFAULT_CONFIG) -> ChartSpec:
        """Random pie; no axis labels (a pie has no axes)."""
        spec = self.sample_base(rng, cfg)
        return spec.replace(axes=dataclasses.replace(spec.axes, x_label="", y_label="", grid=False))

    def apply_axes(self, spec: ChartSpec, ax: Any) -> None:
        """A pie has no value axis: labels, scales and ticks do not apply."""

    def draw(self, spec: ChartSpec, fig: Any, ax: Any) -> Drawn:
        """Wedges clockwise from the top; value labels at 65% radius, anchors just outside."""
        vals = np.asarray(spec.data.series[0].values, dtype=float)
        hatches = [e.hatch or None for e in spec.encodings]
        wedges, _texts = ax.pie(vals, colors=[e.color for e in spec.encodings], startangle=90,
                                counterclock=False, hatch=hatches,
                                wedgeprops={"edgecolor": "white", "linewidth": 1})
        mids = np.deg2rad(90.0 - 360.0 * (np.cumsum(vals) - vals / 2) / vals.sum())
        drawn = Drawn(handles=list(wedges))
        for c, (wedge, ang) in enumerate(zip(wedges, mids)):
            drawn.marks[f"mark/0/{c}"] = wedge
            cos, sin = float(np.cos(ang)), float(np.sin(ang))
            drawn.anchors.append((1.05 * cos, 1.05 * sin))
            drawn.anchor_ha.append("left" if cos >= 0 else "right")
            if spec.style.value_labels:
                drawn.extra[f"value_label/0/{c}"] = ax.text(
                    0.65 * cos, 0.65 * sin, format_value(spec, vals[c]), ha="center", va="center",
                    fontsize=spec.style.font_size * 0.8)
        return drawn
