"""``stacked_bar``: 2-4 series stacked in series order (series 0 at the bottom)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..spec import ChartSpec, SpecError
from . import chart
from ._bars import draw_bars
from ._base import DEFAULT_CONFIG, ChartKind, Drawn, SampleConfig


@chart("stacked_bar")
class StackedBar(ChartKind):
    """Stacked vertical bars; segment ``mark/s/c`` spans the cumulative sum of series < s
    to that plus series s's value. Value labels sit at segment centres."""

    min_series = 2
    max_series = 4
    series_range = (2, 4)
    category_range = (3, 8)
    encoding_channels = ("hatch",)

    def validate(self, spec: ChartSpec) -> None:
        """Stacks need non-negative values (a negative segment would overlap the one below)."""
        super().validate(spec)
        for i, s in enumerate(spec.data.series):
            for j, v in enumerate(s.values):
                if v < 0:
                    raise SpecError(f"spec.data.series[{i}].values[{j}]", f"{v} < 0 cannot be stacked")

    def sample(self, rng: np.random.Generator, cfg: SampleConfig = DEFAULT_CONFIG) -> ChartSpec:
        """Random stacked bar chart with 2-4 series."""
        return self.sample_base(rng, cfg)

    def draw(self, spec: ChartSpec, fig: Any, ax: Any) -> Drawn:
        """Stack series bottom to top in series order."""
        return draw_bars(spec, ax, layout="stacked")
