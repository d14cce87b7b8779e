"""Axes for the Vega engine: explicit domains, explicit tick values and tick label text.

Vega would choose its own ticks and format them with d3-format; the renderer must know which
values it labelled (``Rendered.ticks``) and print them with the spec's Python ``tick_format``,
exactly as the matplotlib engine does. So every quantitative axis gets a domain and tick values
computed here, and a ``labelExpr`` that maps each tick value to its formatted text.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..charts._marks import format_value
from ..spec import ChartSpec

__all__ = ["Axis", "category_axis", "label_expr", "nice_ticks", "value_axis"]


@dataclass(frozen=True)
class Axis:
    """One positional channel's shared definition (a layer adds its own ``field``)."""

    encoding: dict
    ticks: tuple[float, ...] = ()
    """Numeric values labelled on the axis (quantitative axes only)."""

    def field(self, name: str, **extra) -> dict:
        """The encoding of this channel reading ``name``."""
        return {**self.encoding, "field": name, **extra}


def nice_ticks(lo: float, hi: float, target: int = 6) -> tuple[float, ...]:
    """Round tick values covering [lo, hi] with a 1-2-2.5-5 step (as matplotlib's auto locator)."""
    span = hi - lo if hi > lo else (abs(hi) or 1.0)
    raw = span / target
    mag = 10.0 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw - 1e-12)
    start, stop = math.floor(lo / step + 1e-9) * step, math.ceil(hi / step - 1e-9) * step
    n = round((stop - start) / step)
    return tuple(round(start + k * step, 10) for k in range(n + 1))


def _log_ticks(lo: float, hi: float) -> tuple[float, ...]:
    a, b = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    return tuple(10.0 ** k for k in range(a, b + 1))


def label_expr(texts: Sequence[tuple[float, str]], key: str = "datum.value") -> str:
    """A Vega expression printing ``text`` for each ``value`` (nested conditionals; '' otherwise)."""
    expr = "''"
    for value, text in reversed(list(texts)):
        tol = max(abs(value) * 1e-9, 1e-12)
        expr = f"abs({key} - ({value!r})) <= {tol!r} ? {json.dumps(text)} : ({expr})"
    return expr


def value_axis(spec: ChartSpec, channel: str, values: Sequence[float], *, zero: bool,
               pad: float = 0.0, grid: bool | None = None) -> Axis:
    """A quantitative axis over ``values`` honouring the spec's limits, scale, format and grid."""
    a = spec.axes
    limits = getattr(a, f"{channel}_limits")
    log = getattr(a, f"{channel}_scale") == "log"
    finite = [float(v) for v in values if math.isfinite(v)] or [0.0, 1.0]
    if limits is not None:
        lo, hi = limits
        ticks = tuple(t for t in (_log_ticks(lo, hi) if log else nice_ticks(lo, hi)) if lo - 1e-9 <= t <= hi + 1e-9)
    elif log:
        ticks = _log_ticks(min(finite), max(finite))
        lo, hi = ticks[0], ticks[-1]
    else:
        lo, hi = min(finite), max(finite)
        if zero:
            lo, hi = min(lo, 0.0), max(hi, 0.0)
        span = (hi - lo) or 1.0
        lo, hi = (lo if zero and lo == 0 else lo - pad * span), (hi if zero and hi == 0 else hi + pad * span)
        ticks = nice_ticks(lo, hi)
        lo, hi = ticks[0], ticks[-1]
    fmt = a.tick_format if channel == _value_channel(spec) else "{x:g}"
    texts = [(t, _fmt(fmt, t)) for t in ticks]
    axis = {"values": list(ticks), "labelExpr": label_expr(texts), "title": getattr(a, f"{channel}_label") or None,
            "grid": a.grid if grid is None else grid, "labelOverlap": False, "labelFlush": False}
    scale = {"type": "log" if log else "linear", "domain": [lo, hi], "nice": False, "zero": False, "clamp": True}
    return Axis({"type": "quantitative", "scale": scale, "axis": axis}, ticks)


def _value_channel(spec: ChartSpec) -> str:
    from ..charts import CHARTS

    return CHARTS.get(spec.kind).value_axis or "y"


def _fmt(fmt: str, value: float) -> str:
    try:
        return fmt.format(x=value)
    except (ValueError, KeyError, IndexError):
        return f"{value:g}"


def category_axis(spec: ChartSpec, channel: str, labels: Sequence[str], *, padding: float = 0.2,
                  title: str | None = None, point: bool = False) -> Axis:
    """A band axis over ``labels`` by position (keys ``"0".."n-1"``, so repeated labels stay apart);
    ``point``: a point scale (lines, areas: marks sit on the category, ``padding`` at the ends)."""
    keys = [str(i) for i in range(len(labels))]
    axis: dict = {"labelExpr": label_expr([(float(i), t) for i, t in enumerate(labels)], "toNumber(datum.value)"),
                  "title": (title if title is not None else getattr(spec.axes, f"{channel}_label")) or None,
                  "grid": False, "labelOverlap": False, "ticks": True}
    if channel == "x":
        rot = spec.axes.x_tick_rotation
        slant = len(labels) > 6 or max((len(s) for s in labels), default=0) > 8
        angle = -rot if rot is not None else (-30 if slant else 0)
        axis.update(labelAngle=angle, labelAlign="right" if angle else "center",
                    labelBaseline="top")
    scale = ({"type": "point", "domain": keys, "padding": padding} if point else
             {"type": "band", "domain": keys, "paddingInner": padding, "paddingOuter": padding / 2})
    return Axis({"type": "nominal", "scale": scale, "axis": axis, "sort": None})


def value_text(spec: ChartSpec, value: float) -> str:
    """A value label's text (the same as the matplotlib engine's)."""
    return format_value(spec, value)
