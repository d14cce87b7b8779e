"""``line``: 1-5 series as lines over ordered categories (or numeric data.x_values)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..spec import ChartSpec
from . import chart
from ._bars import set_category_ticks
from ._base import DEFAULT_CONFIG, ChartKind, DataPoint, Drawn, SampleConfig
from ._points import MARKER_SIZE, value_label, x_positions


@chart("line")
class Line(ChartKind):
    """Line chart. ``line/<s>`` is the whole line, ``mark/<s>/<c>`` a marker-sized box at
    each vertex; markers and dash styles come from the encodings."""

    max_series = 5
    series_range = (1, 5)
    category_range = (4, 12)
    encoding_channels = ("marker", "line_style")
    pools = ("months", "years", "quarters")

    def sample(self, rng: np.random.Generator, cfg: SampleConfig = DEFAULT_CONFIG) -> ChartSpec:
        """Random trending series over a time-like category axis."""
        return self.sample_base(rng, cfg, walk=True)

    def draw(self, spec: ChartSpec, fig: Any, ax: Any) -> Drawn:
        """One Line2D per series; direct labels anchor at the last point."""
        xs = x_positions(spec)
        drawn = Drawn()
        for s, (ser, enc) in enumerate(zip(spec.data.series, spec.encodings)):
            (line,) = ax.plot(xs, ser.values, color=enc.color, marker=enc.marker or None,
                              linestyle=enc.line_style, linewidth=2, markersize=MARKER_SIZE)
            drawn.marks[f"line/{s}"] = line
            for c, (x, v) in enumerate(zip(xs, ser.values)):
                drawn.marks[f"mark/{s}/{c}"] = DataPoint(ax, x, v, MARKER_SIZE + 2)
                if spec.style.value_labels:
                    drawn.extra[f"value_label/{s}/{c}"] = value_label(spec, ax, x, v, v, enc.color)
            drawn.handles.append(line)
            drawn.anchors.append((xs[-1], ser.values[-1]))
        if spec.data.x_values is None:
            set_category_ticks(ax, spec.data.categories)
        return drawn
