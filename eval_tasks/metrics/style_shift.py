"""Style shift: how much a model's answer depends on the drawing rather than the data.

Rows of a ``style_shift`` config ask the same question on the same chart drawn under several
styles (``style`` = ``<engine>/<theme>``; ``dataset_builders/core/style_axis.py``). Over scored
records carrying ``style``, ``chart_id``, ``template_id`` and a 0/1 ``accuracy``:

- ``per_style``: accuracy (items pooled) in each style.
- ``reference``: the native style (matplotlib/default) when present, else the first style seen.
- ``worst_style`` and ``worst_style_gap``: the style with the lowest accuracy other than the
  reference, and reference accuracy minus its accuracy (positive: the model loses accuracy when
  the chart is drawn differently). ``gap_low`` / ``gap_high``: its 95% interval, a cluster
  bootstrap over base charts (a chart's rows in every style are one unit) with the worst style
  held fixed (re-picking the minimum in every resample would bias the interval upwards).
- ``consistency``: share of base items (chart, question) present in every style whose correctness
  is the same in every style (LegendBench's consistency, over the drawing instead of the legend);
  ``robust_accuracy``: share correct in every style; ``n_items``: such items.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any

from .bootstrap import RESAMPLES, interval

__all__ = ["NATIVE_STYLE", "base_item", "style_shift_summary", "worst_gap"]

NATIVE_STYLE = "matplotlib/default"

Record = Mapping[str, Any]


def base_item(record: Record) -> tuple[str, str]:
    """The question a row asks, whatever its drawing: (chart, template)."""
    return (str(record.get("chart_id")), str(record.get("template_id")))


def _styles(records: Sequence[Record]) -> list[str]:
    seen = list(dict.fromkeys(str(r["style"]) for r in records))
    return sorted(seen, key=lambda s: (s != NATIVE_STYLE, seen.index(s)))


def _per_style(records: Sequence[Record], value: str) -> dict[str, float]:
    acc: dict[str, list[float]] = defaultdict(list)
    for r in records:
        acc[str(r["style"])].append(float(r[value]))
    return {s: fmean(v) for s, v in acc.items()}


def worst_gap(records: Sequence[Record], reference: str, worst: str, value: str = "accuracy") -> float | None:
    """Reference-style accuracy minus ``worst``-style accuracy over ``records`` (None if either is absent)."""
    per = _per_style(records, value)
    return per[reference] - per[worst] if reference in per and worst in per else None


def style_shift_summary(records: Sequence[Record], value: str = "accuracy", iters: int = RESAMPLES,
                        seed: int = 0) -> dict[str, Any] | None:
    """The style-shift metrics (module doc) of the records that carry a ``style``; None without any."""
    rows = [r for r in records if r.get("style")]
    if not rows:
        return None
    styles = _styles(rows)
    per = _per_style(rows, value)
    reference = styles[0]
    others = [s for s in styles if s != reference]
    worst = min(others, key=lambda s: (per[s], styles.index(s))) if others else None
    items: dict[tuple[str, str], dict[str, bool]] = defaultdict(dict)
    for r in rows:
        items[base_item(r)][str(r["style"])] = float(r[value]) >= 1.0
    complete = [v for v in items.values() if len(v) == len(styles)]
    out: dict[str, Any] = {
        "per_style": {s: per[s] for s in styles}, "reference": reference, "worst_style": worst,
        "worst_style_gap": per[reference] - per[worst] if worst else None, "gap_low": None, "gap_high": None,
        "consistency": fmean(len(set(v.values())) == 1 for v in complete) if complete else None,
        "robust_accuracy": fmean(all(v.values()) for v in complete) if complete else None,
        "n_items": len(complete), "n_charts": len({str(r.get("chart_id")) for r in rows}),
    }
    if worst:
        ci = interval(lambda rs: worst_gap(rs, reference, worst, value), rows, lambda r: str(r.get("chart_id")),
                      iters=iters, seed=seed)
        out.update(gap_low=ci.low, gap_high=ci.high)
    return out
