"""``histogram`` drawn by Vega: adjacent bins (no gap), white bin edges."""

from __future__ import annotations

from ...spec import ChartSpec
from ..base import Plot, VegaKind
from . import vega_kind
from ._bars import bar_plot


@vega_kind("histogram")
class VegaHistogram(VegaKind):
    """Vega drawer of ``histogram``; bin ``c`` is ``mark/0/c``."""

    def plot(self, spec: ChartSpec, px: float) -> Plot:
        """Bins side by side: a band scale without padding, a white stroke between bins."""
        plot = bar_plot(spec, px, padding=0.0)
        plot.layers[0]["mark"].update(stroke="#ffffff", strokeWidth=0.8 * px)
        return plot
