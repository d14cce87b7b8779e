"""The chart spec: a frozen, JSON-round-trippable description of one chart.

A chart is data. The image, every answer and every variant are functions of a
:class:`ChartSpec`; nothing is read back from pixels. This module never imports
matplotlib (``render.py`` is the only place that does).

Layout of a spec (LegendBench's factorisation: the legend ``l`` lives apart from the
chart ``s`` so an intervention can touch only the legend)::

    ChartSpec(kind, data=DataTable(categories, series=(Series(name, values, unit), ...), x_values),
              encodings=(Encoding(color, marker, line_style, hatch), ...),   # one per legend item
              legend=LegendSpec(form, order, position, font_scale, columns, visible, title),
              axes=AxesSpec(x/y labels, limits, scales, tick_format),
              style=StyleSpec(theme, width, height, dpi, value_labels, title))

Optional presentation fields (``Series.missing``, ``LegendSpec.opaque``/``colors``,
``AxesSpec.label_pad``/``x_tick_rotation``, ``StyleSpec.mark_scale``/``alpha``/``title_y``/
``value_label_anchor``) default to the plain rendering; flaws and edits set them.

Legend items are the series, except for kinds whose items are the categories (pie):
the chart kind decides (``ChartKind.legend_labels``).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import types
import typing
from dataclasses import dataclass, field
from typing import Any

from .fields import SPEC_VERSION, SpecError
from .validation import validate_spec

__all__ = [
    "SPEC_VERSION",
    "AxesSpec",
    "ChartSpec",
    "DataTable",
    "Encoding",
    "LegendEntry",
    "LegendSpec",
    "Series",
    "SpecError",
    "StyleSpec",
]

@dataclass(frozen=True)
class Series:
    """One named data series."""

    name: str
    values: tuple[float, ...]
    """One value per category (NaN is never allowed; use a shorter category list)."""
    unit: str = ""
    missing: bool = False
    """True: the series' plotted data is lost (drawn as all-NaN, so no mark appears) while its
    legend entry stays; ``values`` keep the true data (ChartJudgeBench's Data Encoding flaw)."""


@dataclass(frozen=True)
class DataTable:
    """The data: categories (x values as labels) and the series measured on them."""

    categories: tuple[str, ...]
    series: tuple[Series, ...]
    x_values: tuple[float, ...] | None = None
    """Numeric x positions (scatter, numeric line charts); None means categorical x."""


@dataclass(frozen=True)
class Encoding:
    """How one legend item is drawn."""

    color: str
    """Hex colour ``#rrggbb``."""
    marker: str = ""
    line_style: str = "solid"
    hatch: str = ""
    colors: tuple[str, ...] | None = None
    """Per-mark colours (one per category, e.g. a seaborn-style palette on a single-series
    bar chart); None = every mark in ``color``."""


@dataclass(frozen=True)
class LegendEntry:
    """One explicit legend entry, for legends whose entries are not the items themselves
    (LegendBench's compositional encoding: colour entries name one factor, marker or texture
    entries another)."""

    label: str
    color: str = "#555555"
    marker: str = ""
    line_style: str = ""
    """Empty: no line in the handle (a marker or a patch entry)."""
    hatch: str = ""
    patch: bool = False
    """Draw the handle as a filled patch (area marks) instead of a line/marker."""


@dataclass(frozen=True)
class LegendSpec:
    """How the label -> encoding mapping is presented."""

    form: str = "box"
    """box | direct (labels next to marks) | colorbar (continuous scale) | none."""
    order: tuple[int, ...] | None = None
    """Permutation of legend-item indices giving the entry order; None = item order."""
    position: str = "upper right"
    font_scale: float = 1.0
    columns: int = 1
    visible: tuple[bool, ...] | None = None
    """Per-item visibility of the legend entry; None = all visible."""
    title: str = ""
    opaque: bool = False
    """Fully opaque frame drawn above every mark (a legend that hides the data behind it)."""
    colors: tuple[str, ...] | None = None
    """Per-item legend handle colours overriding the encodings (a legend/data mismatch);
    None = the encodings' colours."""
    entries: tuple[LegendEntry, ...] | None = None
    """Explicit box-legend entries replacing the per-item ones; ``order`` and ``visible`` then
    index these entries. None = one entry per legend item."""
    direction: str = "up"
    """Colour bar: ``up`` puts high values at the top, ``down`` at the bottom (an inverted bar)."""


@dataclass(frozen=True)
class AxesSpec:
    """Axis labels, limits, scales and tick format (value axis = y, or x for hbar)."""

    x_label: str = ""
    y_label: str = ""
    x_limits: tuple[float, float] | None = None
    y_limits: tuple[float, float] | None = None
    x_scale: str = "linear"
    y_scale: str = "linear"
    tick_format: str = "{x:g}"
    """``str.format`` pattern for value-axis ticks, with the value as ``x``."""
    grid: bool = False
    label_pad: float | None = None
    """Points between tick labels and axis labels; None = the theme's default."""
    x_tick_rotation: float | None = None
    """Forced rotation (degrees) of the category tick labels; None = the kind decides."""


@dataclass(frozen=True)
class StyleSpec:
    """Presentation: theme, size, resolution, value labels, title."""

    theme: str = "default"
    width: float = 6.4
    """Figure width in inches."""
    height: float = 4.8
    dpi: int = 100
    value_labels: bool = False
    """Print each mark's value on the mark."""
    title: str = ""
    font_size: float = 10.0
    mark_scale: float = 1.0
    """Multiplier on line widths, marker sizes and bar edges (1 = the kind's defaults)."""
    alpha: float = 1.0
    """Multiplier on the opacity of data marks."""
    title_y: float | None = None
    """Title baseline in axes fraction (1 = just above the axes); None = default placement."""
    value_label_anchor: str = "offset"
    """offset: value labels sit just beside their mark; center: centred on the data point."""


@dataclass(frozen=True)
class ChartSpec:
    """A complete chart: kind + data + encodings + legend + axes + style."""

    kind: str
    data: DataTable
    encodings: tuple[Encoding, ...]
    legend: LegendSpec = field(default_factory=LegendSpec)
    axes: AxesSpec = field(default_factory=AxesSpec)
    style: StyleSpec = field(default_factory=StyleSpec)

    # -- serialisation -------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able dict with a ``version`` tag (tuples become lists)."""
        return {"version": SPEC_VERSION, **_to_plain(self)}

    def to_json(self) -> str:
        """Canonical JSON text (sorted keys, no spaces): stable bytes for hashing."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), allow_nan=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ChartSpec:
        """Inverse of :meth:`to_dict`. Raises SpecError naming the bad field."""
        if not isinstance(d, dict):
            raise SpecError("spec", f"expected a JSON object, got {type(d).__name__}")
        version = d.get("version", SPEC_VERSION)
        if version != SPEC_VERSION:
            raise SpecError("spec.version", f"unsupported version {version!r} (expected {SPEC_VERSION!r})")
        body = {k: v for k, v in d.items() if k != "version"}
        return _from_plain(cls, body, "spec")

    @classmethod
    def from_json(cls, text: str) -> ChartSpec:
        """Parse JSON text written by :meth:`to_json`."""
        return _parse_json(cls, text)

    # -- convenience ---------------------------------------------------------------
    def replace(self, **changes: Any) -> ChartSpec:
        """``dataclasses.replace`` shortcut (interventions are such transforms)."""
        return dataclasses.replace(self, **changes)

    @property
    def series_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.data.series)

    def validate(self) -> ChartSpec:
        """Check every field; raise one SpecError naming the first bad field. Returns self."""
        validate_spec(self)
        return self


# -- generic dataclass <-> plain conversion ------------------------------------------

def _to_plain(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: _to_plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (tuple, list)):
        return [_to_plain(x) for x in obj]
    return obj


@functools.lru_cache(maxsize=4096)
def _parse_json(cls: type[ChartSpec], text: str) -> ChartSpec:
    """Specs are frozen, so rows that share a chart (every question and variant of it) share one
    parsed spec: agents and re-answering read the same JSON text thousands of times."""
    try:
        return cls.from_dict(json.loads(text))
    except json.JSONDecodeError as exc:
        raise SpecError("spec", f"invalid JSON: {exc}") from None


@functools.cache
def _field_types(tp: type) -> tuple[tuple[tuple[str, Any, bool], ...], frozenset[str]]:
    """((name, resolved type, required), ...) and the field names of dataclass ``tp``, once per class:
    ``typing.get_type_hints`` re-evaluates every string annotation on each call, which was half
    of the time spent reading specs back from a release."""
    hints = typing.get_type_hints(tp)
    fields = tuple((f.name, hints[f.name],
                    f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
                   for f in dataclasses.fields(tp))
    return fields, frozenset(name for name, _, _ in fields)


def _from_plain(tp: Any, value: Any, path: str) -> Any:
    """Build a value of type ``tp`` from JSON data, naming ``path`` on error."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _from_plain(inner[0], value, path)
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            raise SpecError(path, f"expected an object, got {type(value).__name__}")
        fields, names = _field_types(tp)
        if not names.issuperset(value):
            raise SpecError(f"{path}.{min(set(value) - names)}", "unknown field")
        kwargs = {}
        for name, hint, required in fields:
            if name in value:
                kwargs[name] = _from_plain(hint, value[name], f"{path}.{name}")
            elif required:
                raise SpecError(f"{path}.{name}", "missing required field")
        return tp(**kwargs)
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise SpecError(path, f"expected a list, got {type(value).__name__}")
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_from_plain(args[0], v, f"{path}[{i}]") for i, v in enumerate(value))
        if len(value) != len(args):
            raise SpecError(path, f"expected {len(args)} items, got {len(value)}")
        return tuple(_from_plain(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(args, value)))
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise SpecError(path, f"expected a number, got {value!r}")
        if not math.isfinite(value):
            raise SpecError(path, f"must be finite, got {value!r}")
        return float(value)
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise SpecError(path, f"expected an integer, got {value!r}")
        return value
    if tp is bool:
        if not isinstance(value, bool):
            raise SpecError(path, f"expected true/false, got {value!r}")
        return value
    if tp is str:
        if not isinstance(value, str):
            raise SpecError(path, f"expected a string, got {value!r}")
        return value
    return value
