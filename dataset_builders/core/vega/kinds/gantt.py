"""``gantt`` drawn by Vega: one range bar per category, first category on top."""

from __future__ import annotations

from ...spec import ChartSpec
from ..base import Plot, VegaKind
from ..scales import category_axis, value_axis, value_text
from . import vega_kind
from ._points import point_layer


@vega_kind("gantt")
class VegaGantt(VegaKind):
    """``band/<c>`` is the bar, ``mark/0/<c>`` its start and ``mark/1/<c>`` its end (6 pt boxes)."""

    def plot(self, spec: ChartSpec, px: float) -> Plot:
        """Bars from start to end; value labels outside each end."""
        starts, ends = (s.values for s in spec.data.series)
        enc = spec.encodings[0]
        y = category_axis(spec, "y", spec.data.categories, padding=0.4)
        x = value_axis(spec, "x", [*starts, *ends], zero=False, pad=0.08)
        rows = [{"y": str(c), "a": a, "b": b, "id": f"band/{c}", "fill": (enc.colors or [enc.color] * len(starts))[c]}
                for c, (a, b) in enumerate(zip(starts, ends))]
        layers = [{"data": {"values": rows}, "mark": {"type": "bar", "opacity": spec.style.alpha},
                   "encoding": {"y": y.field("y"), "x": x.field("a"), "x2": {"field": "b"},
                                "fill": {"field": "fill", "type": "nominal", "scale": None, "legend": None},
                                "description": {"field": "id"}}}]
        for s, vals in enumerate((starts, ends)):
            pts = [{"x": v, "y": str(c), "id": f"mark/{s}/{c}"} for c, v in enumerate(vals)]
            layers.append(point_layer(pts, x, y, marker="s", color=enc.color, size_pt=6.0, px=px, visible=False))
            if spec.style.value_labels:
                layers.append({"data": {"values": [{**p, "t": value_text(spec, p["x"]),
                                                    "id": p["id"].replace("mark/", "value_label/")} for p in pts]},
                               "mark": {"type": "text", "align": "right" if s == 0 else "left",
                                        "dx": (-3 if s == 0 else 3) * px, "baseline": "middle",
                                        "fontSize": spec.style.font_size * 0.8 * px},
                               "encoding": {"x": x.field("x"), "y": y.field("y"), "text": {"field": "t"},
                                            "description": {"field": "id"}}})
        return Plot(layers=layers, x=x, y=y)
