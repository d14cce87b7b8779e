"""Legends for the Vega engine: box (a legend-only layer), direct labels, none.

The box legend is drawn from a layer of its own whose marks are invisible: its colour scale maps
one key per *shown entry*, in display order, so the spec's order, hidden entries, explicit
entries and handle colours that disagree with the marks (``LegendSpec.colors``) are all drawn as
specified, independently of the data marks. Colour bars belong to the kinds that have one
(heatmap).
"""

from __future__ import annotations

from ..render_overrides import shown_items
from ..spec import ChartSpec
from .base import MARKER_SHAPES, Plot, VegaKind, dash
from .scales import label_expr

__all__ = ["LEGEND_ORIENT", "legend_layers"]

LEGEND_ORIENT = {
    "upper right": "top-right", "upper left": "top-left", "lower left": "bottom-left",
    "lower right": "bottom-right", "right": "top-right", "center right": "top-right",
    "center left": "top-left", "lower center": "bottom-right", "upper center": "top-right",
    "center": "top-right", "outside right": "right", "outside bottom": "bottom",
}
"""matplotlib ``loc`` -> Vega legend orient. Vega places legends only at corners and sides, so
centred positions move to the nearest corner (the legend stays inside the plot as in matplotlib)."""


def _entries(spec: ChartSpec, labels: tuple[str, ...]) -> list[dict]:
    lg = spec.legend
    out = []
    for k in shown_items(spec, len(labels)):
        if lg.entries is not None:
            e = lg.entries[k]
            out.append({"text": e.label, "color": e.color, "marker": e.marker, "dash": e.line_style})
        else:
            enc = spec.encodings[k]
            color = lg.colors[k] if lg.colors is not None else enc.color
            out.append({"text": labels[k], "color": color, "marker": enc.marker, "dash": enc.line_style,
                        "item": k})
    return out


def _box(spec: ChartSpec, labels: tuple[str, ...], kind: VegaKind, plot: Plot, px: float) -> list[dict]:
    entries = _entries(spec, labels)
    if not entries:
        return []
    lg = spec.legend
    keys = [str(i) for i in range(len(entries))]
    size = spec.style.font_size * lg.font_scale * px
    explicit = lg.entries is not None
    symbol = ("square" if explicit and lg.entries[0].patch else kind.legend_symbol)
    legend = {"orient": LEGEND_ORIENT[lg.position], "title": lg.title or None,
              "labelExpr": label_expr([(float(i), e["text"]) for i, e in enumerate(entries)], "toNumber(datum.value)"),
              "columns": lg.columns, "labelFontSize": size, "titleFontSize": size, "symbolOpacity": 1,
              "symbolSize": (1.1 * size) ** 2, "symbolStrokeWidth": 2 * px, "labelLimit": 0,
              "padding": 0.4 * size, "rowPadding": 0.3 * size, "symbolType": symbol}
    if lg.opaque:
        legend.update(fillColor="#ffffff", strokeColor="#cccccc")
    enc: dict = {"color": {"field": "k", "type": "nominal", "sort": None, "legend": legend,
                           "scale": {"domain": keys, "range": [e["color"] for e in entries]}}}
    shaped = kind.legend_shapes or (explicit and any(e["marker"] for e in entries))
    if shaped and symbol != "square":
        enc["shape"] = {"field": "k", "type": "nominal", "sort": None, "legend": legend,
                        "scale": {"domain": keys, "range": [MARKER_SHAPES[e["marker"] or "o"] for e in entries]}}
    if symbol == "stroke":
        enc["strokeDash"] = {"field": "k", "type": "nominal", "sort": None, "legend": legend,
                             "scale": {"domain": keys, "range": [dash(e["dash"] or "solid", px) for e in entries]}}
    mark = ({"type": "line", "opacity": 0} if symbol == "stroke" and not shaped
            else {"type": "point", "filled": True, "opacity": 0})
    if symbol == "stroke" and shaped:
        legend["symbolType"] = None
    layer = {"data": {"values": [{"k": k} for k in keys]}, "mark": mark, "encoding": enc}
    return [layer]


def _direct(spec: ChartSpec, labels: tuple[str, ...], kind: VegaKind, plot: Plot, px: float) -> list[dict]:
    own = kind.direct_labels(spec, shown_items(spec, len(labels)), labels, px)
    if own is not None:
        return own
    if plot.x is None or plot.y is None or not plot.anchors:
        return []
    size = spec.style.font_size * spec.legend.font_scale * px
    layers = []
    for item in shown_items(spec, len(labels)):
        ax, ay = plot.anchors[item]
        align = plot.anchor_align[item] if plot.anchor_align else "left"
        row = {"x": str(round(ax)) if plot.categorical_x else ax, "y": ay,
               "t": labels[item], "id": f"legend/direct/{item}"}
        layers.append({
            "data": {"values": [row]},
            "mark": {"type": "text", "align": align, "baseline": "middle", "fontSize": size,
                     "dx": plot.direct_dx * px * (1 if align == "left" else -1),
                     "color": spec.encodings[item].color, "clip": False},
            "encoding": {"x": plot.x.field("x"), "y": plot.y.field("y"), "text": {"field": "t"},
                         "description": {"field": "id"}}})
    return layers


def _none(spec: ChartSpec, labels: tuple[str, ...], kind: VegaKind, plot: Plot, px: float) -> list[dict]:
    return []


_FORMS = {"box": _box, "direct": _direct, "none": _none, "colorbar": _none}


def legend_layers(spec: ChartSpec, labels: tuple[str, ...], kind: VegaKind, plot: Plot, px: float) -> list[dict]:
    """The layers that draw ``spec.legend`` (the colour bar is drawn by its kind's colour scale)."""
    return _FORMS[spec.legend.form](spec, labels, kind, plot, px)
