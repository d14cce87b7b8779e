"""A user's CSV as a real table: a small mapping file says which columns make the chart.

A mapping is a YAML (or JSON) object::

    csv: sales.csv              # relative to the mapping file
    title: Sales by region, 2024
    category: region            # the column whose values are the categories
    value: sales                # the measured column
    agg: sum                    # value (one record per category) | sum | mean | count
    scale: 0.001                # optional; values are round(agg * scale)
    unit: thousand USD
    series: Sales               # optional, default: the value column
    category_label: Region      # optional, default: the category column
    filter: {year: 2024}        # optional: columns held fixed (compared as text)
    order: [North, South, East] # optional: categories and their order (default: first seen)
    whole: true                 # optional: the categories partition a total (pies may use it)
    kinds: [bar, hbar]          # optional: chart kinds it fits (default: bar, hbar; pie if whole)

Every mistake is a ValueError naming the mapping file and the key.
"""

from __future__ import annotations

from pathlib import Path

from .recipes import AGGREGATIONS, Slice, grouped
from .tables import load_csv

__all__ = ["load_mapping"]

_REQUIRED = ("csv", "title", "category", "value", "agg", "unit")
_OPTIONAL = ("scale", "series", "category_label", "filter", "order", "whole", "kinds")


def load_mapping(path: str | Path) -> tuple[Slice, tuple[str, ...]]:
    """The slice a mapping file describes, and the chart kinds it fits."""
    import yaml

    path = Path(path)
    where = f"mapping {path}"
    try:
        spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ValueError(f"{where}: cannot read: {exc}") from None
    if not isinstance(spec, dict):  # a bad file, not a bad call: the CLI reports ValueErrors in one line
        raise ValueError(  # noqa: TRY004
            f"{where}: expected a mapping of keys ({', '.join(_REQUIRED)})")
    missing = [k for k in _REQUIRED if k not in spec]
    unknown = sorted(set(spec) - set(_REQUIRED) - set(_OPTIONAL))
    if missing or unknown:
        raise ValueError(f"{where}: " + "; ".join(
            ([f"missing {', '.join(missing)}"] if missing else []) + ([f"unknown {', '.join(unknown)}"] if unknown else [])))
    if spec["agg"] not in AGGREGATIONS:
        raise ValueError(f"{where}: agg {spec['agg']!r} is not one of {', '.join(AGGREGATIONS)}")
    table = load_csv(path.parent / str(spec["csv"]))
    frame = table.frame
    for column in (spec["category"], spec["value"], *(spec.get("filter") or {})):
        if column not in frame.columns:
            raise ValueError(f"{where}: column {column!r} is not in {spec['csv']} "
                             f"(columns: {', '.join(c for c in frame.columns if c != '_row')})")
    for column, wanted in (spec.get("filter") or {}).items():
        frame = frame[frame[column].astype(str) == str(wanted)]
    text = frame[spec["category"]].astype(str)
    frame = frame.assign(**{spec["category"]: text})
    order = [str(c) for c in (spec.get("order") or list(dict.fromkeys(text)))]
    cats, values, rows = grouped(frame, spec["category"], order, order, spec["value"], spec["agg"],
                                 float(spec.get("scale", 1.0)))
    if len(cats) < 3:
        raise ValueError(f"{where}: {len(cats)} categories after the filter; a chart needs at least 3")
    whole = bool(spec.get("whole", False))
    kinds = tuple(spec.get("kinds") or (("bar", "hbar", "pie") if whole else ("bar", "hbar")))
    return Slice(f"csv:{table.source.name}", str(spec["title"]), str(spec.get("series", spec["value"])),
                 str(spec["unit"]), str(spec.get("category_label", spec["category"])), cats, values, rows,
                 str(spec["value"]), str(spec["agg"]), float(spec.get("scale", 1.0)),
                 tuple((str(k), str(v)) for k, v in (spec.get("filter") or {}).items()), table.source,
                 whole=whole), kinds
