"""The style-shift table of ``report.md``: per model, accuracy in every drawing style, the worst
style's gap to the native drawing with its chart-clustered interval, and style consistency
(:mod:`chartprobe.eval_tasks.metrics.style_shift`). Read from the suites' summaries, never
recomputed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .markdown import fmt_cell, markdown_table

__all__ = ["style_shift_section"]


def _block(summary: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The probes' ``style_shift`` block or the legend's ``style_study``."""
    return summary.get("style_shift") or summary.get("style_study")


def style_shift_section(profiles: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """One table over models and suites whose summary has a ``style_shift`` block; [] when none has."""
    found = {(model, suite): block for model, per in profiles.items() for suite, prof in per.items()
             for block in [_block(prof.get("summary") or {})] if block}
    if not found:
        return []
    styles = list(dict.fromkeys(s for block in found.values() for s in block["per_style"]))
    header = ["model", "suite", *styles, "worst style", "gap (0–1) [95% CI]", "consistency (0–1)",
              "robust acc (0–1)", "items"]
    rows = []
    for (model, suite), b in found.items():
        gap = f"{fmt_cell(b['worst_style_gap'])} [{fmt_cell(b.get('gap_low'))}, {fmt_cell(b.get('gap_high'))}]"
        rows.append([model, suite, *(b["per_style"].get(s) for s in styles), b.get("worst_style") or "–", gap,
                     b.get("consistency"), b.get("robust_accuracy"), b.get("n_items")])
    return ["## Style shift", "",
            ("The same charts and questions drawn by both engines in several house styles. Gap: accuracy on "
             f"the reference drawing ({next(iter(found.values()))['reference']}) minus the worst style's, with a "
             "95% interval from a bootstrap over base charts. Consistency: share of questions answered "
             "right in every style or wrong in every style; robust accuracy: right in every style."), "",
            markdown_table(header, rows), ""]
