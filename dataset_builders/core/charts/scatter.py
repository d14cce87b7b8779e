"""``scatter``: 1-4 series of points at shared numeric x (data.x_values)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..spec import ChartSpec, SpecError
from ..vocab import pick
from . import chart
from ._base import DEFAULT_CONFIG, ChartKind, DataPoint, Drawn, SampleConfig
from ._points import MARKER_SIZE, value_label

_X_QUANTITIES = ("Advertising spend (USD m)", "Price (USD)", "Population (m)", "Distance (km)",
                 "Store size (m²)", "Staff count")


@chart("scatter")
class Scatter(ChartKind):
    """Scatter plot: point ``mark/s/c`` sits at (x_values[c], series[s].values[c]).
    Categories name the points (they are not printed)."""

    max_series = 4
    series_range = (1, 4)
    category_range = (5, 15)
    encoding_channels = ("marker",)
    pools = ("countries", "cities", "products")

    def validate(self, spec: ChartSpec) -> None:
        """A scatter needs numeric x positions."""
        super().validate(spec)
        if spec.data.x_values is None:
            raise SpecError("spec.data.x_values", "scatter needs numeric x_values")

    def sample(self, rng: np.random.Generator, cfg: SampleConfig = DEFAULT_CONFIG) -> ChartSpec:
        """Random points; x is a sampled quantity shared by all series."""
        spec = self.sample_base(rng, cfg, x_values=True)
        axes = dataclasses.replace(spec.axes, x_label=pick(rng, _X_QUANTITIES))
        return spec.replace(axes=axes)

    def draw(self, spec: ChartSpec, fig: Any, ax: Any) -> Drawn:
        """One PathCollection per series; missing markers fall back to circles."""
        xs = np.asarray(spec.data.x_values, dtype=float)
        size = MARKER_SIZE + 1
        drawn = Drawn()
        for s, (ser, enc) in enumerate(zip(spec.data.series, spec.encodings)):
            coll = ax.scatter(xs, ser.values, s=size ** 2, color=enc.color, marker=enc.marker or "o",
                              zorder=3)
            for c, (x, v) in enumerate(zip(xs, ser.values)):
                drawn.marks[f"mark/{s}/{c}"] = DataPoint(ax, x, v, size + 1)
                if spec.style.value_labels:
                    drawn.extra[f"value_label/{s}/{c}"] = value_label(spec, ax, x, v, v, enc.color)
            drawn.handles.append(coll)
            last = int(np.argmax(xs))
            drawn.anchors.append((xs[last], ser.values[last]))
        return drawn
