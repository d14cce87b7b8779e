"""``grouped_bar`` drawn by Vega: grouped bars."""

from __future__ import annotations

from ...spec import ChartSpec
from ..base import Plot, VegaKind
from . import vega_kind
from ._bars import bar_plot


@vega_kind("grouped_bar")
class VegaGroupedBar(VegaKind):
    """Vega drawer of ``grouped_bar``; bar ``c`` of series ``s`` is ``mark/<s>/<c>``."""

    def plot(self, spec: ChartSpec, px: float) -> Plot:
        """grouped bars."""
        return bar_plot(spec, px, layout="grouped", horizontal=False)
