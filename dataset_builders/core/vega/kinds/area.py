"""``area`` drawn by Vega: stacked bands, each with its top edge drawn as a line."""

from __future__ import annotations

from ...spec import ChartSpec
from ..base import Plot, VegaKind
from ..scales import value_axis
from . import vega_kind
from ._points import MARKER_SIZE, point_layer, value_label_layer, x_axis, x_value


@vega_kind("area")
class VegaArea(VegaKind):
    """``area/<s>`` is band s, ``line/<s>`` its top edge, ``mark/<s>/<c>`` the top vertex."""

    def plot(self, spec: ChartSpec, px: float) -> Plot:
        """Bands from the cumulative sums (no x padding: bands fill the plot, as matplotlib's)."""
        series = spec.data.series
        n = len(spec.data.categories)
        x = x_axis(spec, padding=0.0)
        base = [0.0] * n
        tops = []
        stacked = []
        for ser in series:
            top = [b + (0.0 if ser.missing else v) for b, v in zip(base, ser.values)]
            stacked.append((base, top))
            tops += top
            base = top
        y = value_axis(spec, "y", [0.0, *tops], zero=True, pad=0.05)
        layers, anchors = [], []
        for s, (ser, enc) in enumerate(zip(series, spec.encodings)):
            lo, hi = stacked[s]
            anchors.append((float(n - 1) if spec.data.x_values is None else spec.data.x_values[-1],
                            (lo[-1] + hi[-1]) / 2))
            if ser.missing:
                continue
            rows = [{"x": x_value(spec, c), "y": hi[c], "y0": lo[c], "v": ser.values[c]} for c in range(n)]
            layers.append({"data": {"values": [{**r, "id": f"area/{s}"} for r in rows]},
                           "mark": {"type": "area", "color": enc.color, "opacity": 0.8 * spec.style.alpha,
                                    "clip": True},
                           "encoding": {"x": x.field("x"), "y": y.field("y"), "y2": {"field": "y0"},
                                        "description": {"field": "id"}}})
            layers.append({"data": {"values": [{**r, "id": f"line/{s}"} for r in rows]},
                           "mark": {"type": "line", "color": enc.color, "clip": True,
                                    "strokeWidth": 1.5 * px * spec.style.mark_scale},
                           "encoding": {"x": x.field("x"), "y": y.field("y"), "description": {"field": "id"}}})
            pts = [{**r, "id": f"mark/{s}/{c}"} for c, r in enumerate(rows)]
            layers.append(point_layer(pts, x, y, marker="", color=enc.color, px=px, size_pt=MARKER_SIZE + 2,
                                      visible=False))
            if spec.style.value_labels:
                mids = [{**p, "y": (p["y"] + p["y0"]) / 2} for p in pts]
                layers.append(value_label_layer(spec, mids, x, y, px))
        return Plot(layers=layers, x=x, y=y, anchors=anchors, categorical_x=spec.data.x_values is None)
