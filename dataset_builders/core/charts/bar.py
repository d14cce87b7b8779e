"""``bar``: vertical bars, one series, one colour (the value axis is y)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..spec import ChartSpec
from . import chart
from ._bars import draw_bars
from ._base import DEFAULT_CONFIG, ChartKind, Drawn, SampleConfig


@chart("bar")
class Bar(ChartKind):
    """Single-series vertical bar chart; bar ``c`` is ``mark/0/c``."""

    max_series = 1
    series_range = (1, 1)
    category_range = (3, 10)
    default_legend = "none"
    encoding_channels = ("hatch",)

    def sample(self, rng: np.random.Generator, cfg: SampleConfig = DEFAULT_CONFIG) -> ChartSpec:
        """Random single-series bar chart."""
        return self.sample_base(rng, cfg)

    def draw(self, spec: ChartSpec, fig: Any, ax: Any) -> Drawn:
        """Bars at x = 0..n-1 labelled with the categories."""
        return draw_bars(spec, ax)
