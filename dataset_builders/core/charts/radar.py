"""``radar``: 1-3 series on polar axes; categories are spokes.

Spoke 0 points up (12 o'clock) and spokes follow CLOCKWISE in category order.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..layout import Margins
from ..spec import ChartSpec, SpecError
from . import chart
from ._base import DEFAULT_CONFIG, ChartKind, DataPoint, Drawn, SampleConfig
from ._points import MARKER_SIZE, value_label


@chart("radar")
class Radar(ChartKind):
    """Radar chart; ``line/<s>`` is the closed outline, ``mark/<s>/<c>`` the vertex on spoke c.
    Spoke labels are the x ticks (``tick/x/<c>``), radial ticks the y ticks."""

    polar = True
    margins = Margins(left=8.0, right=8.0, bottom=2.2, top=2.4)  # spoke labels all round
    max_series = 3
    series_range = (1, 3)
    category_range = (3, 8)
    encoding_channels = ("marker", "line_style")
    pools = ("skills", "departments", "products")

    def validate(self, spec: ChartSpec) -> None:
        """At least 3 spokes, non-negative radii, linear radial scale."""
        super().validate(spec)
        if len(spec.data.categories) < 3:
            raise SpecError("spec.data.categories", "radar needs at least 3 spokes")
        if spec.axes.y_scale != "linear":
            raise SpecError("spec.axes.y_scale", "radar supports only a linear radial scale")
        for i, s in enumerate(spec.data.series):
            for j, v in enumerate(s.values):
                if v < 0:
                    raise SpecError(f"spec.data.series[{i}].values[{j}]", f"radius {v} < 0")

    def sample(self, rng: np.random.Generator, cfg: SampleConfig = DEFAULT_CONFIG) -> ChartSpec:
        """Random radar chart; no axis labels (spokes are self-labelled)."""
        spec = self.sample_base(rng, cfg)
        return spec.replace(axes=dataclasses.replace(spec.axes, x_label="", y_label=""))

    def apply_axes(self, spec: ChartSpec, ax: Any) -> None:
        """As Cartesian, but the polar grid is the chart's skeleton, so it always stays on."""
        super().apply_axes(spec, ax)
        ax.grid(True)

    def draw(self, spec: ChartSpec, fig: Any, ax: Any) -> Drawn:
        """Closed outline + light fill per series; radial limit from 0 unless y_limits is set."""
        n = len(spec.data.categories)
        theta = 2 * np.pi * np.arange(n) / n
        ax.set_theta_offset(np.pi / 2)
        ax.set_theta_direction(-1)
        closed = np.append(theta, theta[0])
        drawn = Drawn()
        for s, (ser, enc) in enumerate(zip(spec.data.series, spec.encodings)):
            vals = np.asarray(ser.values, dtype=float)
            (line,) = ax.plot(closed, np.append(vals, vals[0]), color=enc.color,
                              marker=enc.marker or None, linestyle=enc.line_style, linewidth=2,
                              markersize=MARKER_SIZE)
            ax.fill(closed, np.append(vals, vals[0]), color=enc.color, alpha=0.12)
            drawn.marks[f"line/{s}"] = line
            for c in range(n):
                drawn.marks[f"mark/{s}/{c}"] = DataPoint(ax, theta[c], vals[c], MARKER_SIZE + 2)
                if spec.style.value_labels:
                    drawn.extra[f"value_label/{s}/{c}"] = value_label(spec, ax, theta[c], vals[c], vals[c], enc.color)
            drawn.handles.append(line)
            k = int(np.argmax(vals))
            drawn.anchors.append((theta[k], vals[k]))
            # Text runs inward from the vertex so it does not collide with the spoke labels.
            drawn.anchor_ha.append("right" if np.sin(theta[k]) >= -1e-9 else "left")
        ax.set_xticks(theta, labels=list(spec.data.categories))
        top = max(max(s.values) for s in spec.data.series)
        ax.set_ylim(0, top * 1.1 if top > 0 else 1)
        return drawn
