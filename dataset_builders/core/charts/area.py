"""``area``: 1-3 series drawn as STACKED areas (series 0 at the bottom)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..spec import ChartSpec, SpecError
from . import chart
from ._bars import set_category_ticks
from ._base import DEFAULT_CONFIG, ChartKind, DataPoint, Drawn, SampleConfig
from ._points import MARKER_SIZE, value_label, x_positions


@chart("area")
class Area(ChartKind):
    """Stacked area chart. Band ``s`` spans cumulative(series < s) to cumulative(series <= s):
    ``area/<s>`` is the band, ``line/<s>`` its top edge, ``mark/<s>/<c>`` the top vertex at
    category c; value labels show each series' own value at the band's middle."""

    max_series = 3
    series_range = (1, 3)
    category_range = (4, 12)
    encoding_channels = ("hatch",)
    pools = ("months", "years", "quarters")

    def validate(self, spec: ChartSpec) -> None:
        """Stacked bands need non-negative values."""
        super().validate(spec)
        for i, s in enumerate(spec.data.series):
            for j, v in enumerate(s.values):
                if v < 0:
                    raise SpecError(f"spec.data.series[{i}].values[{j}]", f"{v} < 0 cannot be stacked")

    def sample(self, rng: np.random.Generator, cfg: SampleConfig = DEFAULT_CONFIG) -> ChartSpec:
        """Random trending series over a time-like axis."""
        return self.sample_base(rng, cfg, walk=True)

    def draw(self, spec: ChartSpec, fig: Any, ax: Any) -> Drawn:
        """fill_between per band plus a top-edge line; x margins removed so bands fill the axes."""
        xs = x_positions(spec)
        base = np.zeros(len(xs))
        drawn = Drawn()
        for s, (ser, enc) in enumerate(zip(spec.data.series, spec.encodings)):
            vals = np.asarray(ser.values, dtype=float)
            top = base + vals
            band = ax.fill_between(xs, base, top, color=enc.color, alpha=0.8, linewidth=0,
                                   hatch=enc.hatch or None)
            (edge,) = ax.plot(xs, top, color=enc.color, linewidth=1.5)
            drawn.marks[f"area/{s}"] = band
            drawn.marks[f"line/{s}"] = edge
            for c, x in enumerate(xs):
                drawn.marks[f"mark/{s}/{c}"] = DataPoint(ax, x, top[c], MARKER_SIZE + 2)
                if spec.style.value_labels:
                    drawn.extra[f"value_label/{s}/{c}"] = value_label(
                        spec, ax, x, base[c] + vals[c] / 2, vals[c])
            drawn.handles.append(band)
            drawn.anchors.append((xs[-1], base[-1] + vals[-1] / 2))
            base = top
        ax.margins(x=0)
        ax.set_ylim(bottom=0)
        if spec.data.x_values is None:
            set_category_ticks(ax, spec.data.categories)
        return drawn
