"""``hbar`` drawn by Vega: single bars, horizontal."""

from __future__ import annotations

from ...spec import ChartSpec
from ..base import Plot, VegaKind
from . import vega_kind
from ._bars import bar_plot


@vega_kind("hbar")
class VegaHbar(VegaKind):
    """Vega drawer of ``hbar``; bar ``c`` of series ``s`` is ``mark/<s>/<c>``."""

    def plot(self, spec: ChartSpec, px: float) -> Plot:
        """single bars, categories top to bottom."""
        return bar_plot(spec, px, layout="single", horizontal=True)
