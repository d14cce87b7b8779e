"""The shared spec sampler behind ``ChartKind.sample_base``.

Draws a topic, categories, series, values, encodings, legend, axes and style from one
Generator, respecting the kind's class attributes (series/category ranges, encoding
channels, legend forms, value axis). Kinds then adjust the result with ``spec.replace``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..spec import AxesSpec, ChartSpec, DataTable, Encoding, LegendSpec, Series, StyleSpec
from ..vocab import pick, pick_categories, pick_palette, pick_topic

__all__ = ["clamp_range", "sample_spec_parts", "sample_values"]

_POOL_LABEL = {"countries": "Country", "products": "Product", "months": "Month", "years": "Year",
               "quarters": "Quarter", "departments": "Department", "cities": "City",
               "skills": "Attribute"}
_MARKERS = ("o", "s", "^", "D", "v", "P", "X")
_STYLES = ("solid", "dashed", "dotted", "dashdot")
_HATCHES = ("/", "\\", "x", ".", "o", "-", "+")
_INSIDE = ("upper right", "upper left", "lower right", "lower left", "center right", "upper center")
_OUTSIDE = ("outside right", "outside bottom")


def clamp_range(want: tuple[int, int], allowed: tuple[int, int]) -> tuple[int, int]:
    """Intersect the requested inclusive range with what the kind allows (never empty)."""
    lo = min(max(want[0], allowed[0]), allowed[1])
    hi = min(max(want[1], allowed[0]), allowed[1])
    return (min(lo, hi), max(lo, hi))


def _draw_int(rng: np.random.Generator, rng_range: tuple[int, int]) -> int:
    return int(rng.integers(rng_range[0], rng_range[1] + 1))


def sample_values(rng: np.random.Generator, cfg: Any, n: int, lo: float, hi: float,
                  walk: bool = False) -> tuple[float, ...]:
    """``n`` values in [lo, hi]: uniform, or a clipped random walk (trending series).

    Rounded to integers (cfg.integer_values) or one decimal; redrawn until distinct when
    cfg.distinct_values, giving up after a few tries when the range is too narrow.
    """
    for _ in range(50):
        if walk:
            steps = rng.normal(0.0, (hi - lo) * 0.15, size=n)
            raw = np.clip(rng.uniform(lo, hi) + np.cumsum(steps) - steps[0], lo, hi)
        else:
            raw = rng.uniform(lo, hi, size=n)
        vals = np.round(raw) if cfg.integer_values else np.round(raw, 1)
        out = tuple(float(v) for v in vals)
        if not cfg.distinct_values or len(set(out)) == n:
            return out
    return out


def _encodings(kind: Any, rng: np.random.Generator, n: int) -> tuple[Encoding, ...]:
    colors = pick_palette(rng, n)
    chans = kind.encoding_channels
    markers = rng.permutation(len(_MARKERS)) if "marker" in chans else None
    vary_style = "line_style" in chans and rng.random() < 0.35
    hatch = "hatch" in chans and rng.random() < 0.2
    out = []
    for i in range(n):
        out.append(Encoding(
            color=colors[i],
            marker=_MARKERS[int(markers[i % len(_MARKERS)])] if markers is not None else "",
            line_style=_STYLES[i % len(_STYLES)] if vary_style else "solid",
            hatch=_HATCHES[i % len(_HATCHES)] if hatch else ""))
    return tuple(out)


def _legend(kind: Any, rng: np.random.Generator, cfg: Any) -> LegendSpec:
    form = cfg.legend_form if cfg.legend_form in kind.legend_forms else kind.default_legend
    position = pick(rng, _OUTSIDE) if rng.random() < 0.25 else pick(rng, _INSIDE)
    return LegendSpec(form=form, position=position)


def sample_spec_parts(kind: Any, rng: np.random.Generator, cfg: Any, *, walk: bool = False,
                      x_values: bool = False) -> ChartSpec:
    """A complete, valid-by-construction spec for ``kind`` (see module docstring)."""
    topic = pick_topic(rng, kind.pools)
    n_cat = _draw_int(rng, clamp_range(cfg.n_categories, kind.category_range))
    pool, cats = pick_categories(rng, topic, n_cat, kind.pools)
    n_ser = _draw_int(rng, clamp_range(cfg.n_series, kind.series_range))
    names = rng.choice(len(topic.series), size=min(n_ser, len(topic.series)), replace=False)
    lo, hi = topic.value_range or cfg.value_range
    series = tuple(Series(topic.series[int(i)], sample_values(rng, cfg, len(cats), lo, hi, walk),
                          topic.unit) for i in names)
    xs = None
    if x_values:
        xs = tuple(sorted(sample_values(rng, cfg, len(cats), 1.0, 100.0)))
    data = DataTable(categories=tuple(cats), series=series, x_values=xs)
    metric = series[0].name if len(series) == 1 else topic.title.split(" by ")[0]
    value_label = f"{metric} ({topic.unit})"
    cat_label = _POOL_LABEL.get(pool, pool.title())
    if kind.value_axis == "x":
        axes = AxesSpec(x_label=value_label, y_label=cat_label, tick_format=topic.tick_format)
    elif kind.value_axis == "y":
        axes = AxesSpec(x_label=cat_label, y_label=value_label, tick_format=topic.tick_format)
    else:
        axes = AxesSpec(tick_format=topic.tick_format)
    axes = dataclasses.replace(axes, grid=bool(rng.random() < 0.4))
    style = StyleSpec(theme=cfg.theme, value_labels=cfg.value_labels,
                      title=topic.title.format(cat=cat_label.lower()))
    spec = ChartSpec(kind=kind.name, data=data, encodings=(), axes=axes, style=style)
    n_items = len(kind.legend_labels(spec))
    return spec.replace(encodings=_encodings(kind, rng, n_items), legend=_legend(kind, rng, cfg))
