"""``line`` drawn by Vega: one line per series, markers and dashes from the encodings."""

from __future__ import annotations

from ...spec import ChartSpec
from ..base import Plot, VegaKind, dash
from ..scales import value_axis
from . import vega_kind
from ._points import MARKER_SIZE, point_layer, value_label_layer, x_axis, x_value


@vega_kind("line")
class VegaLine(VegaKind):
    """``line/<s>`` is the whole line, ``mark/<s>/<c>`` a marker-sized box at each vertex."""

    legend_symbol = "stroke"
    legend_shapes = True

    def plot(self, spec: ChartSpec, px: float) -> Plot:
        """Lines (2 pt), markers where the encoding has one, value labels above the vertices."""
        series = spec.data.series
        x = x_axis(spec)
        y = value_axis(spec, "y", [v for s in series if not s.missing for v in s.values], zero=False, pad=0.05)
        layers, anchors = [], []
        width = 2 * px * spec.style.mark_scale
        for s, (ser, enc) in enumerate(zip(series, spec.encodings)):
            n = len(ser.values)
            anchors.append((float(n - 1) if spec.data.x_values is None else spec.data.x_values[-1], ser.values[-1]))
            if ser.missing:
                continue
            pts = [{"x": x_value(spec, c), "y": ser.values[c], "v": ser.values[c], "id": f"mark/{s}/{c}"}
                   for c in range(n)]
            layers.append({"data": {"values": [{**p, "id": f"line/{s}"} for p in pts]},
                           "mark": {"type": "line", "color": enc.color, "strokeWidth": width, "clip": True,
                                    "strokeDash": dash(enc.line_style, px), "opacity": spec.style.alpha},
                           "encoding": {"x": x.field("x"), "y": y.field("y"), "description": {"field": "id"}}})
            layers.append(point_layer(pts, x, y, marker=enc.marker, color=enc.color, px=px,
                                      size_pt=(MARKER_SIZE + 2) * spec.style.mark_scale, visible=bool(enc.marker),
                                      opacity=spec.style.alpha))
            if spec.style.value_labels:
                layers.append(value_label_layer(spec, pts, x, y, px, enc.color))
        return Plot(layers=layers, x=x, y=y, anchors=anchors, categorical_x=spec.data.x_values is None)
