"""``donut``: a pie with a hole (seat shares, market shares); legend items are the categories.

Same geometry as ``pie`` (wedges clockwise from 12 o'clock in category order, ``mark/0/c``),
drawn as a ring so the centre stays empty; value labels sit in the middle of the ring.
"""

from __future__ import annotations

from typing import Any

from ..spec import ChartSpec
from . import chart
from ._base import Drawn
from .pie import Pie

RING_WIDTH = 0.42
"""Ring thickness as a fraction of the radius (the hole is the remaining 58%)."""
_LABEL_RADIUS = 1.0 - RING_WIDTH / 2


@chart("donut")
class Donut(Pie):
    """Donut chart; wedge ``c`` is ``mark/0/c`` (the ring segment), clockwise from the top."""

    name = "donut"  # set explicitly: the decorator keeps an inherited name (Pie's)

    def draw(self, spec: ChartSpec, fig: Any, ax: Any) -> Drawn:
        """Draw the pie, then cut each wedge to a ring and move value labels onto the ring."""
        drawn = super().draw(spec, fig, ax)
        for key, wedge in drawn.marks.items():
            wedge.set_width(RING_WIDTH)
            label = drawn.extra.get(key.replace("mark/", "value_label/"))
            if label is not None:  # the pie put it at 65% of the radius, inside the hole's edge
                x, y = label.get_position()
                scale = _LABEL_RADIUS / 0.65
                label.set_position((x * scale, y * scale))
        return drawn
