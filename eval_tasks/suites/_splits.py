"""Which split a scored record belongs to, and the coverage of a set of records.

Summaries never pool splits: a samples folder may hold a benchmark's test tasks and
its validation tasks (``chartprobe_legend`` beside ``chartprobe_legend_val``), and a headline is
the test split's alone; the other splits are summarised apart, each under its own name. A record
names its lm-eval task, and the task YAML names the split (:mod:`._task_index`), so the split is
read from there, never guessed from the task's name.

Coverage is its own number: a document the run never answered (a ``missing`` record, added as
wrong by ``chartprobe score`` without ``--allow-partial``) is not a parse failure, so parse-failure
rates are taken over the covered documents (:func:`covered_rates`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ._task_index import task_index

__all__ = ["HEADLINE_SPLIT", "by_split", "coverage", "covered_rates", "headline_records", "split_of"]

HEADLINE_SPLIT = "test"
"""The split every headline number is taken on; the others are reported apart, labelled."""

Record = Mapping[str, Any]


def split_of(record: Record) -> str:
    """The split of the task that produced ``record`` (test when the task is not indexed)."""
    data = task_index().get(str(record.get("task")))
    return data.split if data is not None else HEADLINE_SPLIT


def by_split(records: Sequence[Record]) -> dict[str, list[Record]]:
    """Records grouped by their task's split, the headline split first."""
    out: dict[str, list[Record]] = {}
    for r in records:
        out.setdefault(split_of(r), []).append(r)
    return dict(sorted(out.items(), key=lambda kv: (kv[0] != HEADLINE_SPLIT, kv[0])))


def headline_records(records: Sequence[Record]) -> list[Record]:
    """The records of the headline (test) split only."""
    return [r for r in records if split_of(r) == HEADLINE_SPLIT]


def coverage(records: Sequence[Record], task_coverage: Mapping[str, float | None] | None = None) -> float | None:
    """Share of documents the run answered; None for no records.

    A missed document is a ``missing`` record (scored without ``--allow-partial``); a partial run
    (``--allow-partial``) has no record of what it missed, so its task's ``coverage`` from the
    results file (``task_coverage``: task -> share) says how many documents the task has.
    """
    if not records:
        return None
    answered: dict[str, int] = {}
    total: dict[str, float] = {}
    for r in records:
        task = str(r.get("task"))
        answered[task] = answered.get(task, 0) + (not r.get("missing"))
        total[task] = total.get(task, 0) + 1
    for task, n in answered.items():
        share = (task_coverage or {}).get(task)
        if share and share < 1.0 and n == total[task]:  # partial: only the answered ones are here
            total[task] = n / share
    return sum(answered.values()) / sum(total.values())


def covered_rates(summary: dict[str, Any], records: Sequence[Record],
                  summarize: Callable[[Sequence[Record]], Mapping[str, Any]]) -> dict[str, Any]:
    """``summary`` with every parse-failure rate taken over the covered documents only.

    Missing documents stay wrong answers in accuracy (the score is over the whole split), but a
    document the model never saw cannot have failed to parse. Recomputed only when something is
    missing, so a complete run costs nothing extra.
    """
    covered = [r for r in records if not r.get("missing")]
    if len(covered) == len(records):
        return summary
    again = summarize(covered) if covered else {}
    return _replace_rates(summary, again)


def _replace_rates(summary: Any, covered: Any) -> Any:
    """Copy of ``summary`` whose ``*parse_fail*`` entries are those of ``covered`` (nested dicts too)."""
    if not isinstance(summary, dict):
        return summary
    out = {}
    for k, v in summary.items():
        other = covered.get(k) if isinstance(covered, Mapping) else None
        if "parse_fail" in str(k) and not isinstance(v, dict):
            out[k] = other
        else:
            out[k] = _replace_rates(v, other)
    return out
