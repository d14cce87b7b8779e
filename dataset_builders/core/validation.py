"""Spec validation: one clear error naming the first bad field.

Generic checks live here; each chart kind adds its own (e.g. pie values must be
non-negative) through ``ChartKind.validate``.
"""

from __future__ import annotations

import math
import string
from typing import Any

from .charts import CHARTS
from .fields import (
    _HEX,
    COLORBAR_DIRECTIONS,
    HATCHES,
    HOUSE_STYLES,
    LEGEND_FORMS,
    LEGEND_POSITIONS,
    LINE_STYLES,
    MARKERS,
    MAX_CATEGORIES,
    MAX_IMAGE_PIXELS,
    MAX_LEGEND_COLUMNS,
    MAX_SERIES,
    MAX_TEXT_CHARS,
    MAX_TICK_FORMAT_CHARS,
    SCALES,
    THEMES,
    TICK_FORMAT_SPEC,
    SpecError,
)

__all__ = ["check_finite", "check_tick_format", "validate_spec"]


MAX_ABS_VALUE = 1e100
"""Largest magnitude a chart draws: beyond it an axis span (max - min) or a tick step overflows to
inf and matplotlib draws a blank chart (``render`` of +-1e308 exited 0 with nothing drawn)."""


def check_finite(values, path: str) -> None:
    """Raise SpecError if any value is NaN/inf, not a number, or beyond +-:data:`MAX_ABS_VALUE`."""
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise SpecError(f"{path}[{i}]", f"expected a number, got {v!r}")
        if not math.isfinite(v):
            raise SpecError(f"{path}[{i}]", f"must be finite, got {v!r}")
        if abs(v) > MAX_ABS_VALUE:
            raise SpecError(f"{path}[{i}]", f"{v!r} is too large to draw (at most +-{MAX_ABS_VALUE:g})")


def check_tick_format(fmt: Any, path: str = "spec.axes.tick_format") -> None:
    """Raise SpecError unless ``fmt`` is literal text around exactly one ``{x}`` / ``{x:SPEC}``.

    ``str.format`` is a small language: ``{x.__class__}`` reads attributes and ``{x:>999999999}``
    allocates a gigabyte, so the pattern is parsed and every field checked before it is ever run.
    """
    if not isinstance(fmt, str):
        raise SpecError(path, f"expected a string, got {fmt!r}")
    if len(fmt) > MAX_TICK_FORMAT_CHARS:
        raise SpecError(path, f"longer than {MAX_TICK_FORMAT_CHARS} characters")
    try:
        parts = list(string.Formatter().parse(fmt))
    except ValueError as exc:
        raise SpecError(path, f"bad format {fmt!r}: {exc}") from None
    fields = [(name, spec, conv) for _text, name, spec, conv in parts if name is not None]
    if len(fields) != 1:
        raise SpecError(path, f"bad format {fmt!r}: needs exactly one {{x}} field, found {len(fields)}")
    name, spec, conv = fields[0]
    if name != "x" or conv is not None:
        raise SpecError(path, f"bad format {fmt!r}: the field must be {{x}} or {{x:SPEC}} "
                        "(no attributes, indexes or conversions)")
    if not TICK_FORMAT_SPEC.match(spec):
        raise SpecError(path, f"bad format {fmt!r}: {spec!r} is not a numeric format spec "
                        "such as 'g', '.1f', ',.0f' or '.0%' (width and precision below 100)")
    try:  # the grammar is a subset of format()'s; one trial run keeps any mismatch a SpecError
        fmt.format(x=1.5)
    except ValueError as exc:
        raise SpecError(path, f"bad format {fmt!r}: {exc}") from None


def _check_text(value: Any, path: str) -> None:
    if isinstance(value, str) and len(value) > MAX_TEXT_CHARS:
        raise SpecError(path, f"longer than {MAX_TEXT_CHARS} characters")


def _check_sizes(spec: Any) -> None:
    """The size limits (fields.MAX_*), checked first so no other check loops over a huge spec."""
    data = spec.data
    if len(data.categories) > MAX_CATEGORIES:
        raise SpecError("spec.data.categories",
                        f"{len(data.categories)} categories; at most {MAX_CATEGORIES}")
    if len(data.series) > MAX_SERIES:
        raise SpecError("spec.data.series", f"{len(data.series)} series; at most {MAX_SERIES}")
    entries = spec.legend.entries or ()
    if len(entries) > MAX_CATEGORIES:
        raise SpecError("spec.legend.entries", f"{len(entries)} entries; at most {MAX_CATEGORIES}")
    for i, c in enumerate(data.categories):
        _check_text(c, f"spec.data.categories[{i}]")
    for i, s in enumerate(data.series):
        _check_text(s.name, f"spec.data.series[{i}].name")
        _check_text(s.unit, f"spec.data.series[{i}].unit")
    for k, e in enumerate(entries):
        _check_text(e.label, f"spec.legend.entries[{k}].label")
    _check_text(spec.legend.title, "spec.legend.title")
    _check_text(spec.axes.x_label, "spec.axes.x_label")
    _check_text(spec.axes.y_label, "spec.axes.y_label")
    _check_text(spec.style.title, "spec.style.title")


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
    _check_sizes(spec)
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
    _one_of(lg.direction, COLORBAR_DIRECTIONS, "spec.legend.direction")
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
    if not (1 <= lg.columns <= MAX_LEGEND_COLUMNS):
        raise SpecError("spec.legend.columns", f"{lg.columns} outside 1..{MAX_LEGEND_COLUMNS}")
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
    check_tick_format(ax.tick_format)

    st = spec.style
    _one_of(st.theme, THEMES + HOUSE_STYLES, "spec.style.theme")
    if not (1.0 <= st.width <= 30.0) or not (1.0 <= st.height <= 30.0):
        raise SpecError("spec.style.width", f"figure {st.width}x{st.height} in must be within 1..30 in")
    if not (20 <= st.dpi <= 600):
        raise SpecError("spec.style.dpi", f"{st.dpi} outside 20..600")
    pixels = st.width * st.dpi * st.height * st.dpi
    if pixels > MAX_IMAGE_PIXELS:
        raise SpecError("spec.style.dpi", f"figure {st.width}x{st.height} in at {st.dpi} dpi is "
                        f"{pixels / 1e6:.1f} Mpx; at most {MAX_IMAGE_PIXELS / 1e6:.1f} Mpx")
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
