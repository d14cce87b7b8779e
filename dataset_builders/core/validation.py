"""Spec validation: one clear error naming the first bad field.

Generic checks live here; each chart kind adds its own (e.g. pie values must be
non-negative) through ``ChartKind.validate``.
"""

from __future__ import annotations

import math
from typing import Any

from .charts import CHARTS
from .fields import (
    _HEX,
    HATCHES,
    LEGEND_FORMS,
    LEGEND_POSITIONS,
    LINE_STYLES,
    MARKERS,
    SCALES,
    THEMES,
    SpecError,
)

__all__ = ["check_finite", "validate_spec"]


def check_finite(values, path: str) -> None:
    """Raise SpecError if any value is NaN/inf or not a number."""
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise SpecError(f"{path}[{i}]", f"expected a number, got {v!r}")
        if not math.isfinite(v):
            raise SpecError(f"{path}[{i}]", f"must be finite, got {v!r}")


def _one_of(value, choices, path: str) -> None:
    if value not in choices:
        raise SpecError(path, f"{value!r} is not one of {', '.join(map(repr, choices))}")


def validate_spec(spec: Any) -> None:
    """Validate a ``ChartSpec`` completely; raise the first SpecError found.

    Typed ``Any`` on purpose: ``ChartSpec.validate`` calls this, so this module never imports
    the spec module (validation rules sit below the spec, never beside it in a circle).
    """
    if spec.kind not in CHARTS:
        raise SpecError("spec.kind", f"unknown chart kind {spec.kind!r}; choose from: "
                        + ", ".join(CHARTS.names()))
    kind = CHARTS.get(spec.kind)()
    data = spec.data
    n = len(data.categories)
    if n == 0:
        raise SpecError("spec.data.categories", "must not be empty")
    if len(set(data.categories)) != n:
        raise SpecError("spec.data.categories", "contains duplicate labels")
    if not data.series:
        raise SpecError("spec.data.series", "must not be empty")
    names = [s.name for s in data.series]
    if len(set(names)) != len(names):
        raise SpecError("spec.data.series", f"duplicate series names {names}")
    for i, s in enumerate(data.series):
        if len(s.values) != n:
            raise SpecError(f"spec.data.series[{i}].values",
                            f"length {len(s.values)} != {n} categories")
        check_finite(s.values, f"spec.data.series[{i}].values")
    if data.x_values is not None:
        if len(data.x_values) != n:
            raise SpecError("spec.data.x_values", f"length {len(data.x_values)} != {n} categories")
        check_finite(data.x_values, "spec.data.x_values")

    n_items = len(kind.legend_labels(spec))
    if len(spec.encodings) != n_items:
        raise SpecError("spec.encodings", f"has {len(spec.encodings)} entries, expected {n_items} "
                        f"(one per legend item of a {spec.kind} chart)")
    for i, e in enumerate(spec.encodings):
        if not _HEX.match(e.color):
            raise SpecError(f"spec.encodings[{i}].color", f"{e.color!r} is not #rrggbb")
        _one_of(e.marker, MARKERS, f"spec.encodings[{i}].marker")
        _one_of(e.line_style, LINE_STYLES, f"spec.encodings[{i}].line_style")
        _one_of(e.hatch, HATCHES, f"spec.encodings[{i}].hatch")
        if e.colors is not None:
            if len(e.colors) != n:
                raise SpecError(f"spec.encodings[{i}].colors", f"length {len(e.colors)} != {n} categories")
            for j, c in enumerate(e.colors):
                if not _HEX.match(c):
                    raise SpecError(f"spec.encodings[{i}].colors[{j}]", f"{c!r} is not #rrggbb")

    lg = spec.legend
    _one_of(lg.form, LEGEND_FORMS, "spec.legend.form")
    if lg.entries is not None:
        _validate_entries(lg.entries)
        n_items = len(lg.entries)  # order/visible index the explicit entries
    _one_of(lg.position, LEGEND_POSITIONS, "spec.legend.position")
    if lg.order is not None and sorted(lg.order) != list(range(n_items)):
        raise SpecError("spec.legend.order", f"{list(lg.order)} is not a permutation of 0..{n_items - 1}")
    if lg.visible is not None and len(lg.visible) != n_items:
        raise SpecError("spec.legend.visible", f"length {len(lg.visible)} != {n_items} legend items")
    if not (0.3 <= lg.font_scale <= 4.0):
        raise SpecError("spec.legend.font_scale", f"{lg.font_scale} outside [0.3, 4]")
    if lg.columns < 1:
        raise SpecError("spec.legend.columns", "must be >= 1")
    if lg.colors is not None:
        if len(lg.colors) != n_items:
            raise SpecError("spec.legend.colors", f"length {len(lg.colors)} != {n_items} legend items")
        for j, c in enumerate(lg.colors):
            if not _HEX.match(c):
                raise SpecError(f"spec.legend.colors[{j}]", f"{c!r} is not #rrggbb")

    ax = spec.axes
    _one_of(ax.x_scale, SCALES, "spec.axes.x_scale")
    _one_of(ax.y_scale, SCALES, "spec.axes.y_scale")
    for name in ("x_limits", "y_limits"):
        lim = getattr(ax, name)
        if lim is not None:
            check_finite(lim, f"spec.axes.{name}")
            if lim[0] >= lim[1]:
                raise SpecError(f"spec.axes.{name}", f"lower {lim[0]} must be < upper {lim[1]}")
    try:
        ax.tick_format.format(x=1.5)
    except (ValueError, KeyError, IndexError) as exc:
        raise SpecError("spec.axes.tick_format", f"bad format {ax.tick_format!r}: {exc}") from None

    st = spec.style
    _one_of(st.theme, THEMES, "spec.style.theme")
    if not (1.0 <= st.width <= 30.0) or not (1.0 <= st.height <= 30.0):
        raise SpecError("spec.style.width", f"figure {st.width}x{st.height} in must be within 1..30 in")
    if not (20 <= st.dpi <= 600):
        raise SpecError("spec.style.dpi", f"{st.dpi} outside 20..600")
    if not (4.0 <= st.font_size <= 40.0):
        raise SpecError("spec.style.font_size", f"{st.font_size} outside 4..40")
    if not (0.1 <= st.mark_scale <= 8.0):
        raise SpecError("spec.style.mark_scale", f"{st.mark_scale} outside 0.1..8")
    if not (0.05 <= st.alpha <= 1.0):
        raise SpecError("spec.style.alpha", f"{st.alpha} outside 0.05..1")
    _one_of(st.value_label_anchor, ("offset", "center"), "spec.style.value_label_anchor")

    kind.validate(spec)


def _validate_entries(entries: tuple) -> None:
    """Explicit legend entries: at least one, valid colours, known markers/styles/hatches."""
    if not entries:
        raise SpecError("spec.legend.entries", "must hold at least one entry (or be null)")
    for k, e in enumerate(entries):
        if not _HEX.match(e.color):
            raise SpecError(f"spec.legend.entries[{k}].color", f"{e.color!r} is not #rrggbb")
        _one_of(e.marker, MARKERS, f"spec.legend.entries[{k}].marker")
        _one_of(e.line_style, ("", *LINE_STYLES), f"spec.legend.entries[{k}].line_style")
        _one_of(e.hatch, HATCHES, f"spec.legend.entries[{k}].hatch")
