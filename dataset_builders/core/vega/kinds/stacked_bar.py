"""``stacked_bar`` drawn by Vega: stacked bars."""

from __future__ import annotations

from ...spec import ChartSpec
from ..base import Plot, VegaKind
from . import vega_kind
from ._bars import bar_plot


@vega_kind("stacked_bar")
class VegaStackedBar(VegaKind):
    """Vega drawer of ``stacked_bar``; bar ``c`` of series ``s`` is ``mark/<s>/<c>``."""

    def plot(self, spec: ChartSpec, px: float) -> Plot:
        """stacked bars."""
        return bar_plot(spec, px, layout="stacked", horizontal=False)
