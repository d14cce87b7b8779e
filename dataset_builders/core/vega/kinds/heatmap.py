"""``heatmap`` drawn by Vega: one rect per cell, the colour bar as a gradient legend."""

from __future__ import annotations

from ...colorbar import colorbar_range, colorbar_ticks
from ...spec import ChartSpec
from ..base import Plot, VegaKind
from ..scales import category_axis, label_expr, value_text
from . import vega_kind


def _ramp(color: str) -> list[str]:
    """Near-white -> the colour -> its 45% shade: the matplotlib engine's colormap stops."""
    rgb = [int(color[i:i + 2], 16) for i in (1, 3, 5)]
    return ["#f7f7f7", color, "#" + "".join(f"{round(v * 0.45):02x}" for v in rgb)]


@vega_kind("heatmap")
class VegaHeatmap(VegaKind):
    """Cell (row s, column c) is ``mark/s/c``, row 0 on top; ticks of the bar are the spec's."""

    def plot(self, spec: ChartSpec, px: float) -> Plot:
        """Rects on two band scales; value labels white on cells past 55% of the range."""
        lo, hi = colorbar_range(spec)
        ticks = tuple(colorbar_ticks(spec))
        rows, labels = [], []
        for s, ser in enumerate(spec.data.series):
            for c, v in enumerate(ser.values):
                rows.append({"c": str(c), "s": str(s), "v": v, "id": f"mark/{s}/{c}"})
                dark = hi > lo and (v - lo) / (hi - lo) > 0.55
                labels.append({"c": str(c), "s": str(s), "t": value_text(spec, v), "id": f"value_label/{s}/{c}",
                               "ink": "#ffffff" if dark else "#000000"})
        x = category_axis(spec, "x", spec.data.categories, padding=0.0)
        y = category_axis(spec, "y", spec.series_names, padding=0.0)
        legend = None
        if spec.legend.form == "colorbar":
            size = spec.style.font_size * spec.legend.font_scale * px
            legend = {"title": spec.legend.title or None, "values": list(ticks), "orient": "right",
                      "direction": "vertical", "gradientLength": {"expr": "height * 0.8"},
                      "labelFontSize": size, "titleFontSize": size,
                      "labelExpr": label_expr([(t, spec.axes.tick_format.format(x=t)) for t in ticks])}
        scale = {"domain": [lo, hi], "range": _ramp(spec.encodings[0].color), "type": "linear",
                 "reverse": spec.legend.direction == "down"}
        layers = [{"data": {"values": rows}, "mark": {"type": "rect", "opacity": spec.style.alpha},
                   "encoding": {"x": x.field("c"), "y": y.field("s"), "description": {"field": "id"},
                                "color": {"field": "v", "type": "quantitative", "scale": scale, "legend": legend}}}]
        if spec.style.value_labels:
            layers.append({"data": {"values": labels},
                           "mark": {"type": "text", "fontSize": spec.style.font_size * 0.8 * px},
                           "encoding": {"x": x.field("c"), "y": y.field("s"), "text": {"field": "t"},
                                        "color": {"field": "ink", "type": "nominal", "scale": None},
                                        "description": {"field": "id"}}})
        return Plot(layers=layers, x=x, y=y, ticks={"colorbar": ticks} if legend else {})
