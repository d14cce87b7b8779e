"""``radar`` drawn by Vega. Vega-Lite has no polar coordinates, so the radar is projected onto a
Cartesian plane whose axes are hidden: spokes and rings are rule and line marks, spoke labels and
radial tick labels are text marks carrying the tick ids the matplotlib engine reports
(``tick/x/<c>`` per spoke, ``tick/y/<k>`` per ring). The renderer equalises the two scales
(:attr:`Plot.aspect`), so rings stay circles. The light fill under each outline is not drawn
(Vega-Lite lines cannot be filled).
"""

from __future__ import annotations

import math

from ...spec import ChartSpec
from ..base import Plot, VegaKind, dash
from ..scales import Axis, nice_ticks, value_text
from . import vega_kind
from ._points import MARKER_SIZE, point_layer

_LABEL_R = 1.1  # spoke labels sit 10% outside the outer ring
_EXTENT = 1.28  # the plane spans this many outer radii each side of the centre


def _xy(r: float, angle: float) -> tuple[float, float]:
    """Spoke ``angle`` runs clockwise from 12 o'clock, as the matplotlib engine's."""
    return r * math.sin(angle), r * math.cos(angle)


def radar_axes(outer: float, ratio: float = 1.0) -> tuple[Axis, Axis]:
    """Hidden linear x/y over the plane; ``ratio`` = plot width / height widens x to keep circles round."""
    def axis(half: float) -> Axis:
        return Axis({"type": "quantitative", "axis": None,
                     "scale": {"domain": [-half, half], "nice": False, "zero": False}})
    half = _EXTENT * outer
    return axis(half * max(ratio, 1.0)), axis(half / min(ratio, 1.0))


@vega_kind("radar")
class VegaRadar(VegaKind):
    """``line/<s>`` is the closed outline, ``mark/<s>/<c>`` the vertex on spoke c."""

    legend_symbol = "stroke"
    legend_shapes = True

    def plot(self, spec: ChartSpec, px: float, ratio: float = 1.0) -> Plot:
        """Rings at the radial ticks, spokes, outlines, vertices, labels; ``ratio``: the plot's
        width / height, measured by the engine on a first layout."""
        cats, series = spec.data.categories, spec.data.series
        n = len(cats)
        top = max(max(s.values) for s in series)
        outer = spec.axes.y_limits[1] if spec.axes.y_limits else (top * 1.1 if top > 0 else 1.0)
        ticks = tuple(t for t in nice_ticks(0.0, outer, 5) if 0 < t <= outer + 1e-9)
        x, y = radar_axes(outer, ratio)
        angles = [2 * math.pi * c / n for c in range(n)]
        grid = "#cccccc"
        ring_rows = [{"x": _xy(r, 2 * math.pi * k / 96)[0], "y": _xy(r, 2 * math.pi * k / 96)[1], "r": str(r), "o": k}
                     for r in (*ticks, outer) for k in range(97)]
        spoke_rows = [{"x": 0.0, "y": 0.0, "x2": _xy(outer, a)[0], "y2": _xy(outer, a)[1]} for a in angles]
        fs = spec.style.font_size * 0.85 * px
        layers = [
            {"data": {"values": ring_rows}, "mark": {"type": "line", "color": grid, "strokeWidth": 0.8 * px},
             "encoding": {"x": x.field("x"), "y": y.field("y"), "detail": {"field": "r"},
                          "order": {"field": "o", "type": "quantitative"}}},
            {"data": {"values": spoke_rows}, "mark": {"type": "rule", "color": grid, "strokeWidth": 0.8 * px},
             "encoding": {"x": x.field("x"), "y": y.field("y"), "x2": {"field": "x2"}, "y2": {"field": "y2"}}},
            _text([{"x": _xy(outer * _LABEL_R, a)[0], "y": _xy(outer * _LABEL_R, a)[1], "t": cats[c],
                    "id": f"tick/x/{c}", "align": _align(a)} for c, a in enumerate(angles)], x, y, fs),
            _text([{"x": _xy(t, math.radians(22.5))[0], "y": _xy(t, math.radians(22.5))[1],
                    "t": spec.axes.tick_format.format(x=t), "id": f"tick/y/{k}", "align": "left"}
                   for k, t in enumerate(ticks)], x, y, fs, color="#555555"),
        ]
        anchors, aligns = [], []
        for s, (ser, enc) in enumerate(zip(series, spec.encodings)):
            k = max(range(n), key=lambda c: ser.values[c])
            anchors.append(_xy(ser.values[k], angles[k]))
            aligns.append("right" if math.sin(angles[k]) >= -1e-9 else "left")
            if ser.missing:
                continue
            pts = [{"x": _xy(v, a)[0], "y": _xy(v, a)[1], "v": v, "o": c, "id": f"mark/{s}/{c}"}
                   for c, (v, a) in enumerate(zip(ser.values, angles))]
            outline = [{**p, "id": f"line/{s}"} for p in (*pts, {**pts[0], "o": n})]
            layers.append({"data": {"values": outline},
                           "mark": {"type": "line", "color": enc.color, "strokeWidth": 2 * px * spec.style.mark_scale,
                                    "strokeDash": dash(enc.line_style, px), "opacity": spec.style.alpha},
                           "encoding": {"x": x.field("x"), "y": y.field("y"), "description": {"field": "id"},
                                        "order": {"field": "o", "type": "quantitative"}}})
            layers.append(point_layer(pts, x, y, marker=enc.marker, color=enc.color, px=px, visible=bool(enc.marker),
                                      size_pt=(MARKER_SIZE + 2) * spec.style.mark_scale, opacity=spec.style.alpha))
            if spec.style.value_labels:
                layers.append(_text([{**p, "t": value_text(spec, p["v"]), "align": "center",
                                      "id": p["id"].replace("mark/", "value_label/")} for p in pts],
                                    x, y, spec.style.font_size * 0.8 * px, color=enc.color, dy=-5 * px))
        return Plot(layers=layers, x=x, y=y, anchors=anchors, anchor_align=aligns, ticks={"y": ticks},
                    aspect=outer)


def _align(angle: float) -> str:
    s = math.sin(angle)
    return "center" if abs(s) < 1e-6 else ("left" if s > 0 else "right")


def _text(rows: list[dict], x: Axis, y: Axis, size: float, color: str | None = None, dy: float = 0.0) -> dict:
    mark: dict = {"type": "text", "fontSize": size, "baseline": "middle", "dy": dy}
    if color:
        mark["color"] = color
    return {"data": {"values": rows}, "mark": mark,
            "encoding": {"x": x.field("x"), "y": y.field("y"), "text": {"field": "t"},
                         "align": {"field": "align", "type": "nominal", "scale": None},
                         "description": {"field": "id"}}}
