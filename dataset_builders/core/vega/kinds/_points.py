"""Shared pieces of the point-based Vega drawers (line, area, scatter): the x axis, vertex boxes,
value labels above a point."""

from __future__ import annotations

from ...charts._points import MARKER_SIZE
from ...spec import ChartSpec
from ..base import MARKER_SHAPES
from ..scales import Axis, category_axis, value_axis, value_text

__all__ = ["MARKER_SIZE", "point_layer", "value_label_layer", "x_axis", "x_value"]


def x_axis(spec: ChartSpec, *, padding: float = 0.5) -> Axis:
    """Numeric x (``data.x_values``) or the categories on a point scale."""
    if spec.data.x_values is not None:
        return value_axis(spec, "x", spec.data.x_values, zero=False, pad=0.05)
    return category_axis(spec, "x", spec.data.categories, padding=padding, point=True)


def x_value(spec: ChartSpec, c: int) -> float | str:
    """The x datum of category ``c``: its numeric x, or its key on the point scale."""
    return spec.data.x_values[c] if spec.data.x_values is not None else str(c)


def point_layer(rows: list[dict], x: Axis, y: Axis, *, marker: str, color: str, size_pt: float, px: float,
                visible: bool, opacity: float = 1.0) -> dict:
    """Symbols at (x, y) of ``rows``, each carrying its id; invisible ones still give the vertex box."""
    side = size_pt * px
    return {"data": {"values": rows},
            "mark": {"type": "point", "shape": MARKER_SHAPES[marker or "o"], "filled": marker not in ("x", "+"),
                     "size": side ** 2, "color": color, "opacity": opacity if visible else 0,
                     "strokeWidth": 1.5 * px, "clip": True},
            "encoding": {"x": x.field("x"), "y": y.field("y"), "description": {"field": "id"}}}


def value_label_layer(spec: ChartSpec, rows: list[dict], x: Axis, y: Axis, px: float, color: str | None = None) -> dict:
    """Value text 5 pt above each (x, y) (centred on it with ``value_label_anchor="center"``)."""
    centre = spec.style.value_label_anchor == "center"
    mark = {"type": "text", "fontSize": spec.style.font_size * 0.8 * px, "align": "center",
            "baseline": "middle" if centre else "bottom", "dy": 0 if centre else -5 * px}
    if color:
        mark["color"] = color
    labelled = [{**r, "t": value_text(spec, r["v"]), "id": r["id"].replace("mark/", "value_label/")} for r in rows]
    return {"data": {"values": labelled}, "mark": mark,
            "encoding": {"x": x.field("x"), "y": y.field("y"), "text": {"field": "t"},
                         "description": {"field": "id"}}}
