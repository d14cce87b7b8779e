"""``bar`` drawn by Vega: single bars."""

from __future__ import annotations

from ...spec import ChartSpec
from ..base import Plot, VegaKind
from . import vega_kind
from ._bars import bar_plot


@vega_kind("bar")
class VegaBar(VegaKind):
    """Vega drawer of ``bar``; bar ``c`` of series ``s`` is ``mark/<s>/<c>``."""

    def plot(self, spec: ChartSpec, px: float) -> Plot:
        """single bars."""
        return bar_plot(spec, px, layout="single", horizontal=False)
