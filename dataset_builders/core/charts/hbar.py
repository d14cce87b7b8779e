"""``hbar``: horizontal bars, one series (the value axis is x; first category on top)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..spec import ChartSpec
from . import chart
from ._bars import draw_bars
from ._base import DEFAULT_CONFIG, ChartKind, Drawn, SampleConfig


@chart("hbar")
class HBar(ChartKind):
    """Single-series horizontal bar chart; bar ``c`` is ``mark/0/c``, drawn top to bottom."""

    max_series = 1
    series_range = (1, 1)
    category_range = (3, 10)
    default_legend = "none"
    value_axis = "x"
    encoding_channels = ("hatch",)

    def sample(self, rng: np.random.Generator, cfg: SampleConfig = DEFAULT_CONFIG) -> ChartSpec:
        """Random single-series horizontal bar chart."""
        return self.sample_base(rng, cfg)

    def draw(self, spec: ChartSpec, fig: Any, ax: Any) -> Drawn:
        """Bars at y = 0..n-1 (inverted, so category 0 is on top)."""
        return draw_bars(spec, ax, horizontal=True)
