"""Bars for ``bar``, ``hbar``, ``grouped_bar``, ``stacked_bar`` and ``histogram``: one function
draws any layout in either orientation, as the matplotlib engine's ``charts/_bars.py``."""

from __future__ import annotations

import math

from ...spec import ChartSpec
from ..base import Plot
from ..scales import category_axis, value_axis, value_text

__all__ = ["bar_plot"]


def bar_plot(spec: ChartSpec, px: float, *, layout: str = "single", horizontal: bool = False,
             padding: float = 0.3) -> Plot:
    """Bars of every series; ``layout`` is single | grouped | stacked (module doc)."""
    cats, series = spec.data.categories, spec.data.series
    rows, labels, tops = [], [], []
    for c in range(len(cats)):
        base = 0.0
        for s, (ser, enc) in enumerate(zip(series, spec.encodings)):
            v = math.nan if ser.missing else float(ser.values[c])
            lo = base if layout == "stacked" else 0.0
            hi = lo + (0.0 if math.isnan(v) else v)
            color = enc.colors[c] if enc.colors else enc.color
            rows.append({"c": str(c), "s": str(s), "lo": lo, "hi": hi, "id": f"mark/{s}/{c}", "fill": color,
                         "hide": math.isnan(v)})
            tops.append(hi)
            if spec.style.value_labels and not math.isnan(v):
                mid = (lo + hi) / 2 if layout == "stacked" else hi
                labels.append({"c": str(c), "s": str(s), "v": mid, "t": value_text(spec, float(ser.values[c])),
                               "id": f"value_label/{s}/{c}"})
            if layout == "stacked" and not math.isnan(v):
                base = hi
    rows = [r for r in rows if not r["hide"]]
    cat_ch, val_ch = ("y", "x") if horizontal else ("x", "y")
    cat = category_axis(spec, cat_ch, cats, padding=padding)
    val = value_axis(spec, val_ch, [0.0, *tops], zero=True, pad=0.05)
    mark: dict = {"type": "bar", "clip": True, "opacity": spec.style.alpha}
    if spec.style.mark_scale > 1:
        mark.update(stroke="#222222", strokeWidth=1.2 * spec.style.mark_scale * px)
    enc = {cat_ch: cat.field("c"), val_ch: val.field("lo"), f"{val_ch}2": {"field": "hi"},
           "fill": {"field": "fill", "type": "nominal", "scale": None, "legend": None},
           "description": {"field": "id"}}
    if layout == "grouped" and len(series) > 1:
        enc[f"{cat_ch}Offset"] = {"field": "s", "type": "nominal", "sort": None,
                                  "scale": {"domain": [str(s) for s in range(len(series))]}}
    if spec.style.mark_scale < 1:
        mark[f"{'height' if horizontal else 'width'}"] = {"band": spec.style.mark_scale}
    layers = [{"data": {"values": rows}, "mark": mark, "encoding": enc}]
    if labels:
        fs = spec.style.font_size * px * (0.7 if layout == "grouped" else 0.8)
        text_mark = ({"type": "text", "fontSize": fs, "baseline": "middle", "align": "center"} if layout == "stacked"
                     else {"type": "text", "fontSize": fs, "align": "left" if horizontal else "center",
                           "baseline": "middle" if horizontal else "bottom",
                           "dx": 2 * px if horizontal else 0, "dy": 0 if horizontal else -2 * px})
        if spec.style.value_label_anchor == "center":
            text_mark.update(align="center", baseline="middle", dx=0, dy=0)
        lenc = {cat_ch: cat.field("c"), val_ch: val.field("v"), "text": {"field": "t"},
                "description": {"field": "id"}}
        if "xOffset" in enc or "yOffset" in enc:
            lenc[f"{cat_ch}Offset"] = enc[f"{cat_ch}Offset"]
        layers.append({"data": {"values": labels}, "mark": text_mark, "encoding": lenc})
    anchors = []
    last = len(cats) - 1
    for s, ser in enumerate(series):
        stacked_mid = next((r["lo"] + r["hi"]) / 2 for r in rows if r["id"] == f"mark/{s}/{last}") \
            if layout == "stacked" and not ser.missing else float(ser.values[last])
        anchors.append((float(last), stacked_mid))
    x, y = (val, cat) if horizontal else (cat, val)
    if horizontal:
        anchors = [(v, c) for c, v in anchors]
    return Plot(layers=layers, x=x, y=y, anchors=anchors, categorical_x=not horizontal,
                direct_dx=6.0 + (2.5 * spec.style.font_size if spec.style.value_labels and layout != "stacked" else 0))
