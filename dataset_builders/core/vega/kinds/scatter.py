"""``scatter`` drawn by Vega: one symbol per point, shape from the encoding's marker."""

from __future__ import annotations

from ...spec import ChartSpec
from ..base import Plot, VegaKind
from ..scales import value_axis
from . import vega_kind
from ._points import MARKER_SIZE, point_layer, value_label_layer


@vega_kind("scatter")
class VegaScatter(VegaKind):
    """Point ``mark/<s>/<c>`` sits at (x_values[c], series[s].values[c])."""

    legend_symbol = "circle"
    legend_shapes = True

    def plot(self, spec: ChartSpec, px: float) -> Plot:
        """Numeric x and y axes padded by 5%; markers 7 pt across (matplotlib's size)."""
        xs, series = spec.data.x_values, spec.data.series
        x = value_axis(spec, "x", xs, zero=False, pad=0.05)
        y = value_axis(spec, "y", [v for s in series if not s.missing for v in s.values], zero=False, pad=0.05)
        layers, anchors = [], []
        last = max(range(len(xs)), key=lambda c: xs[c])
        for s, (ser, enc) in enumerate(zip(series, spec.encodings)):
            anchors.append((xs[last], ser.values[last]))
            if ser.missing:
                continue
            pts = [{"x": xs[c], "y": v, "v": v, "id": f"mark/{s}/{c}"} for c, v in enumerate(ser.values)]
            layers.append(point_layer(pts, x, y, marker=enc.marker, color=enc.color, px=px,
                                      size_pt=(MARKER_SIZE + 1) * spec.style.mark_scale, visible=True,
                                      opacity=spec.style.alpha))
            if spec.style.value_labels:
                layers.append(value_label_layer(spec, pts, x, y, px, enc.color))
        return Plot(layers=layers, x=x, y=y, anchors=anchors)
