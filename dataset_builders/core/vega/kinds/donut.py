"""``donut`` drawn by Vega: the pie's wedges cut to a ring, value labels on the ring."""

from __future__ import annotations

from ...charts.donut import RING_WIDTH
from . import vega_kind
from .pie import VegaPie


@vega_kind("donut")
class VegaDonut(VegaPie):
    """Ring segment ``c`` is ``mark/0/c`` (the same ring width as the matplotlib engine's)."""

    inner = 1.0 - RING_WIDTH
    label_at = 1.0 - RING_WIDTH / 2
