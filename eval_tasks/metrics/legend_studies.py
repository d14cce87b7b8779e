"""LegendBench controlled studies (paper §6.1-6.3) over scored records, and the per-task metric sets.

Records are those of :mod:`chartprobe.eval_tasks.metrics.legend`. A study row carries ``study_factor``
(``channel``, ``order``, ``visibility``, ``style``) and ``study_level``.

- Order study (§6.2), over rank rows (``target_legend_index`` and ``visual_rank`` both >= 1):
  aligned_acc on rows whose legend-entry position equals the visual rank, conflict_acc on the
  others; follow_legend = share of conflict predictions whose parsed integer equals
  ``target_legend_index``; follow_legend_all = share of rotation sets (rows sharing a
  ``group_id``: a base rank question and its legend rotations) with at least one conflict row
  in which *every* prediction follows the legend position.
- Visibility study (§6.3, Table 7): AP/AR/AF1 per ``study_level``, each over the level's rows
  plus their groups' base rows (``legend.abstention_scope``: over-refusing on the intact chart
  costs precision; the profile's AP/AR/AF1 are over every row).
- Channel study (§6.1, Table 6): per ``mark_family/study_level`` cell, the stage accuracies
  (guide_read, bind, ve, reason) and grounding (bind and value-extraction rows pooled).
- Style study (ours, config ``style_shift``): per drawing style (``study_level`` =
  ``<engine>/<theme>``) accuracy, the worst style's gap to the native drawing with its interval, and
  style consistency (:mod:`chartprobe.eval_tasks.metrics.style_shift`).

:func:`task_metrics` is what each lm-eval task reports: the whole profile plus its study's
numbers (:data:`STUDY_METRICS`); :func:`summary` is the report's profile plus every study present.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from statistics import fmean
from typing import Any

from . import legend as lm
from .bootstrap import RESAMPLES

__all__ = [
    "LOWER_IS_BETTER",
    "STUDY_FOR_CONFIG",
    "STUDY_METRICS",
    "VISIBILITY_LEVELS",
    "aligned_accuracy",
    "channel_study",
    "conflict_accuracy",
    "follow_legend",
    "follow_legend_all",
    "follows_legend",
    "grounding",
    "metric_names",
    "order_rows",
    "order_study",
    "rotation_sets",
    "style_study",
    "summary",
    "task_metrics",
    "visibility_study",
]

Record = Mapping[str, Any]

VISIBILITY_LEVELS = ("mask_full", "keep_target", "hide_target", "keep_distractor")
"""The occlusion policies of §6.3 (Table 7 rows); lm-eval reports ap/ar/af1 for each."""
STUDY_FOR_CONFIG = {"channel_study": "channel", "order_study": "order", "visibility_study": "visibility",
                    "style_shift": "style"}
"""Release config -> the study its lm-eval task reports (the snapshot reports the profile only)."""


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1


def order_rows(records: Iterable[Record]) -> list[Record]:
    """Rank rows: both the target's legend-entry position and its visual rank are known."""
    return [r for r in records if _int(r.get("target_legend_index")) >= 1 and _int(r.get("visual_rank")) >= 1]


def _aligned(record: Record) -> bool:
    return _int(record.get("target_legend_index")) == _int(record.get("visual_rank"))


def follows_legend(record: Record) -> bool:
    """Whether the prediction, parsed as an integer, is the target's legend-entry position."""
    from ..scoring.typed import score_answer

    return score_answer(str(record.get("prediction") or ""), str(_int(record.get("target_legend_index"))),
                        "integer").correct


def _share(flags: Iterable[bool]) -> float | None:
    vals = [float(f) for f in flags]
    return fmean(vals) if vals else None


def aligned_accuracy(records: Iterable[Record]) -> float | None:
    """Accuracy on rank rows whose legend position equals the visual rank."""
    return lm.accuracy(r for r in order_rows(records) if _aligned(r))


def conflict_accuracy(records: Iterable[Record]) -> float | None:
    """Accuracy on rank rows whose legend position differs from the visual rank."""
    return lm.accuracy(r for r in order_rows(records) if not _aligned(r))


def follow_legend(records: Iterable[Record]) -> float | None:
    """Share of conflict predictions that answer the legend-entry position."""
    return _share(follows_legend(r) for r in order_rows(records) if not _aligned(r))


def rotation_sets(records: Iterable[Record]) -> dict[str, list[Record]]:
    """group_id -> its rank rows: one target and question across legend rotations."""
    out: dict[str, list[Record]] = defaultdict(list)
    for r in order_rows(records):
        out[str(r.get("group_id"))].append(r)
    return dict(out)


def follow_legend_all(records: Iterable[Record]) -> float | None:
    """Share of rotation sets (with a conflict row) where every prediction follows the legend."""
    sets = [rows for rows in rotation_sets(records).values() if not all(map(_aligned, rows))]
    return _share(all(map(follows_legend, rows)) for rows in sets)


def order_study(records: Iterable[Record]) -> dict[str, Any]:
    """Every order-study number (§6.2) plus the row and set counts."""
    rows = order_rows(records)
    out: dict[str, Any] = {name: fn(rows) for name, fn in STUDY_METRICS["order"].items()}
    n_aligned = sum(map(_aligned, rows))
    return {**out, "n_aligned": n_aligned, "n_conflict": len(rows) - n_aligned,
            "n_rotation_sets": len(rotation_sets(rows))}


def _study(records: Iterable[Record], factor: str) -> list[Record]:
    return [r for r in records if r.get("study_factor") == factor]


def _level_abstention(records: Sequence[Record], level: str) -> dict[str, Any]:
    def at_level(r: Record) -> bool:
        return r.get("study_factor") == "visibility" and r.get("study_level") == level

    return lm.abstention(lm.abstention_scope(records, at_level))


def visibility_study(records: Iterable[Record]) -> dict[str, dict[str, Any]]:
    """study_level -> AP, AR, AF1 (and counts) of the visibility study (Table 7)."""
    records = list(records)
    levels = sorted({str(r.get("study_level")) for r in _study(records, "visibility") if r.get("expected") != "base"})
    return {level: _level_abstention(records, level) for level in levels}


def grounding(records: Iterable[Record]) -> float | None:
    """Bind and value-extraction rows pooled (Table 6's grounding column)."""
    return lm.accuracy(r for r in records if lm.stage(r) in ("bind", "value_extraction"))


def channel_study(records: Iterable[Record]) -> dict[str, dict[str, Any]]:
    """``mark_family/study_level`` -> stage accuracies of the channel study (Table 6)."""
    cells: dict[str, list[Record]] = defaultdict(list)
    for r in _study(records, "channel"):
        cells[f"{r.get('mark_family')}/{r.get('study_level')}"].append(r)
    return {key: {**{name: lm.stage_accuracy(rows, cap) for name, cap in lm.STAGES.items()},
                  "grounding": grounding(rows), "n": len(rows)} for key, rows in sorted(cells.items())}


def _visibility_metric(key: str, level: str):
    def metric(records: Sequence[Record]) -> float | None:
        return _level_abstention(records, level)[key]

    metric.__name__ = f"{key}_{level}"
    return metric


STUDY_METRICS: dict[str, dict[str, Any]] = {
    "order": {"aligned_acc": aligned_accuracy, "conflict_acc": conflict_accuracy,
              "follow_legend": follow_legend, "follow_legend_all": follow_legend_all},
    "visibility": {f"{key}_{level}": _visibility_metric(key, level)
                   for level in VISIBILITY_LEVELS for key in ("ap", "ar", "af1")},
    "channel": {"grounding": grounding},
    "style": {"style_gap": lambda records: (style_study(records) or {}).get("worst_style_gap"),
              "style_consistency": lambda records: (style_study(records) or {}).get("consistency")},
}
"""Study -> the metrics its lm-eval task adds to the profile (name -> function of records)."""
LOWER_IS_BETTER = frozenset({"parse_fail_rate", "follow_legend", "follow_legend_all", "style_gap"})


def metric_names(study: str | None) -> list[str]:
    """The lm-eval metric names of a task: the profile, then its study's numbers."""
    return [*lm.PROFILE, *STUDY_METRICS.get(study or "", {})]


def task_metrics(study: str | None, records: Iterable[Record]) -> dict[str, float | None]:
    """What the lm-eval task of ``study`` (None = snapshot) reports over ``records``."""
    records = list(records)
    fns = {**lm.PROFILE, **STUDY_METRICS.get(study or "", {})}
    return {name: fns[name](records) for name in metric_names(study)}


def style_study(records: Iterable[Record], iters: int = 0) -> dict[str, Any] | None:
    """The style study (config ``style_shift``): :func:`~.style_shift.style_shift_summary` with the level
    as the style, the base chart as the cluster and the group (one question) as the item."""
    from .style_shift import style_shift_summary

    rows = [{"style": r.get("study_level"), "chart_id": r.get("base_id"), "template_id": r.get("group_id"),
             "accuracy": float(bool(r.get("correct")))} for r in _study(records, "style")]
    return style_shift_summary(rows, iters=iters)


STUDY_SUMMARIES = {"order": order_study, "visibility": visibility_study, "channel": channel_study,
                   "style": lambda records: style_study(records, iters=RESAMPLES)}


def summary(records: Iterable[Record]) -> dict[str, Any]:
    """The report: the profile over snapshot rows (all rows if none), plus each study present."""
    records = list(records)
    snapshot = [r for r in records if not r.get("study_factor")]
    out: dict[str, Any] = lm.profile(snapshot or records)
    for factor, fn in STUDY_SUMMARIES.items():
        rows = _study(records, factor)
        if rows:
            groups = {str(r.get("group_id")) for r in rows}
            # base rows of a study's groups belong to it even when their level is "" (the reference)
            rows += [r for r in records if r.get("expected") == "base" and r.get("study_factor") != factor
                     and str(r.get("group_id")) in groups]
            out[f"{factor}_study"] = fn(rows)
    return out
