"""Base vs tuned: accuracy and delta per capability region, CR fuzzy, and transfer tasks.

:func:`compare` reads two ``chartprobe-profile/v2`` profiles (:mod:`.profile`) of one
benchmark; :func:`format_comparison` is its Markdown table (percent, like the papers' tables).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .profile import section
from .regions import get_region_set

__all__ = ["compare", "format_comparison"]


def _delta(base: float, tuned: float) -> dict[str, float]:
    return {"base": base, "tuned": tuned, "delta": tuned - base}


def compare(base: Mapping[str, Any], tuned: Mapping[str, Any], benchmark: str = "probes",
            dimensions: Iterable[str] | None = None) -> dict[str, Any]:
    """Base vs tuned accuracy and delta per region of ``dimensions`` (default: the benchmark's
    headline dimension and, for probes, domain), CR fuzzy per domain, and lm-eval's transfer tasks."""
    rs = get_region_set(benchmark)
    dims = list(dimensions) if dimensions is not None else list(dict.fromkeys((rs.default_dimension, *rs.compare_dims)))
    b_sec, t_sec = section(base, benchmark), section(tuned, benchmark)
    out: dict[str, Any] = {"base": base.get("model"), "tuned": tuned.get("model"), "benchmark": benchmark,
                           "regions": {}, "complex": {}}
    for dim in dims:
        b, t = b_sec.get("regions", {}).get(dim, {}), t_sec.get("regions", {}).get(dim, {})
        out["regions"][dim] = {v: _delta(b[v]["accuracy"], t[v]["accuracy"]) for v in sorted(set(b) & set(t))}
    b, t = b_sec.get("complex", {}), t_sec.get("complex", {})
    out["complex"] = {d: _delta(b[d]["fuzzy"], t[d]["fuzzy"]) for d in sorted(set(b) & set(t))
                      if b[d].get("fuzzy") is not None and t[d].get("fuzzy") is not None}
    # Transfer (ChartProbe §5, LegendBench §5.3 report ChartQA): extra lm-eval tasks of both runs.
    b, t = base.get("lm_eval_tasks", {}), tuned.get("lm_eval_tasks", {})
    out["transfer"] = {task: {m: _delta(b[task][m], t[task][m]) for m in sorted(set(b[task]) & set(t[task]))}
                       for task in sorted(set(b) & set(t))}
    return out


def format_comparison(cmp: Mapping[str, Any]) -> str:
    """Markdown table of :func:`compare` (percent)."""
    lines = ["| region | base | tuned | Δ |", "|---|---:|---:|---:|"]
    rows = [(f"{col}={v}", c) for col, cells in cmp["regions"].items() for v, c in cells.items()]
    rows += [(f"CR {d} (fuzzy)", c) for d, c in cmp.get("complex", {}).items()]
    rows += [(f"{task} {metric} (lm-eval)", c) for task, metrics in cmp.get("transfer", {}).items()
             for metric, c in metrics.items()]
    lines += [f"| {name} | {100 * c['base']:.1f} | {100 * c['tuned']:.1f} | {100 * c['delta']:+.1f} |"
              for name, c in rows]
    return "\n".join(lines)
