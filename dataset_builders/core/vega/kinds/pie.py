"""``pie`` drawn by Vega: wedges clockwise from 12 o'clock in category order (matplotlib's layout)."""

from __future__ import annotations

import math

from ...spec import ChartSpec
from ..base import Plot, VegaKind
from ..scales import value_text
from . import vega_kind

__all__ = ["VegaPie", "wedge_layers"]

RADIUS = "min(width, height) / 2 * 0.9"
"""Outer radius (a Vega expression over the plot's size): the pie fills the plot as matplotlib's."""


def wedge_layers(spec: ChartSpec, px: float, inner: float, label_at: float) -> list[dict]:
    """Arcs (``mark/0/<c>``) with an ``inner`` radius fraction, value labels at ``label_at`` of it."""
    vals = spec.data.series[0].values
    rows = [{"c": c, "v": v, "fill": e.color, "id": f"mark/0/{c}"}
            for c, (v, e) in enumerate(zip(vals, spec.encodings))]
    theta = {"field": "v", "type": "quantitative", "stack": True, "scale": {"type": "linear", "zero": True}}
    order = {"field": "c", "type": "quantitative", "sort": "ascending"}
    layers = [{"data": {"values": rows},
               "mark": {"type": "arc", "outerRadius": {"expr": RADIUS}, "stroke": "#ffffff",
                        "strokeWidth": px, "innerRadius": {"expr": f"({RADIUS}) * {inner}"},
                        "opacity": spec.style.alpha},
               "encoding": {"theta": theta, "order": order,
                            "fill": {"field": "fill", "type": "nominal", "scale": None, "legend": None},
                            "description": {"field": "id"}}}]
    if spec.style.value_labels:
        labels = [{**r, "t": value_text(spec, r["v"]), "id": f"value_label/0/{r['c']}"} for r in rows]
        layers.append({"data": {"values": labels},
                       "mark": {"type": "text", "radius": {"expr": f"({RADIUS}) * {label_at}"},
                                "fontSize": spec.style.font_size * 0.8 * px},
                       "encoding": {"theta": theta, "order": order, "text": {"field": "t"},
                                    "description": {"field": "id"}}})
    return layers


@vega_kind("pie")
class VegaPie(VegaKind):
    """Wedge ``c`` is ``mark/0/c``; direct labels sit just outside each wedge's middle."""

    inner = 0.0
    label_at = 0.65

    def plot(self, spec: ChartSpec, px: float) -> Plot:
        """Arcs, value labels inside them."""
        return Plot(layers=wedge_layers(spec, px, self.inner, self.label_at))

    def direct_labels(self, spec: ChartSpec, items: list[int], labels: tuple[str, ...], px: float) -> list[dict]:
        """Each shown category's name at 1.05 radii, on its wedge's middle angle, facing outwards."""
        vals = spec.data.series[0].values
        total = sum(vals)
        rows = []
        for c in items:
            mid = 2 * math.pi * (sum(vals[:c]) + vals[c] / 2) / total  # Vega angle: clockwise from 12
            rows.append({"a": mid, "t": labels[c], "id": f"legend/direct/{c}", "color": spec.encodings[c].color,
                         "align": "left" if math.sin(mid) >= 0 else "right"})
        size = spec.style.font_size * spec.legend.font_scale * px
        return [{"data": {"values": [r]},
                 "mark": {"type": "text", "theta": r["a"], "radius": {"expr": f"({RADIUS}) * 1.05"},
                          "align": r["align"], "baseline": "middle", "fontSize": size, "color": r["color"]},
                 "encoding": {"text": {"field": "t"}, "description": {"field": "id"}}} for r in rows]
