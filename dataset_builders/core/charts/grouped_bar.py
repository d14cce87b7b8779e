"""``grouped_bar``: 2-4 series drawn side by side within each category."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..spec import ChartSpec
from . import chart
from ._bars import draw_bars
from ._base import DEFAULT_CONFIG, ChartKind, Drawn, SampleConfig


@chart("grouped_bar")
class GroupedBar(ChartKind):
    """Grouped vertical bars; series ``s`` in category ``c`` is ``mark/s/c``."""

    min_series = 2
    max_series = 4
    series_range = (2, 4)
    category_range = (3, 7)
    encoding_channels = ("hatch",)

    def sample(self, rng: np.random.Generator, cfg: SampleConfig = DEFAULT_CONFIG) -> ChartSpec:
        """Random grouped bar chart with 2-4 series."""
        return self.sample_base(rng, cfg)

    def draw(self, spec: ChartSpec, fig: Any, ax: Any) -> Drawn:
        """Series offset within a 0.8-wide slot per category, in series order left to right."""
        return draw_bars(spec, ax, layout="grouped")
