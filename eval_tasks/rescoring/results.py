"""Scored results: the results file ``chartprobe score`` writes (:mod:`.rescore`) and reading it back.

A results file holds, per model, the per-task metrics (lm-eval's aggregations recomputed from records),
the per-suite summaries and the scored records themselves, stored column-wise (compact,
fast to load) so ``chartprobe report`` can merge files and recompute everything.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Container, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..suites import suite_for_release
from ..suites._splits import HEADLINE_SPLIT, by_split, coverage, covered_rates
from ..suites._task_index import task_index
from .predictions import PredictionsError, read_json

__all__ = ["FORMAT", "from_columns", "load_results", "load_results_with_provenance", "merge_results",
           "model_record_counts", "read_results_files", "summarize_records", "to_columns"]

FORMAT = "chartprobe-results/1"


def to_columns(records: Sequence[Mapping[str, Any]]) -> dict[str, list[Any]]:
    """Records as column lists (missing keys are None)."""
    keys = sorted(set().union(*records))  # every record's keys, gathered in C
    return {k: [r.get(k) for r in records] for k in keys}


def from_columns(columns: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """Inverse of :func:`to_columns`; a None cell becomes an absent key again.

    Metrics test for optional fields by presence (``"fuzzy" in record``), so the None
    padding of :func:`to_columns` must not survive the round trip.
    """
    keys = list(columns)
    # Columns without a None (most) go in by zip, in C; the sparse ones are added cell by cell after
    # (1M records: 0.7 s against 1.3 s filtering every cell). Equal dicts; key order is not kept.
    full = [k for k in keys if None not in columns[k]]
    sparse = [k for k in keys if k not in full]
    if not full:
        rows: list[dict[str, Any]] = [{} for _ in range(len(next(iter(columns.values()), ())))]
    else:
        rows = [dict(zip(full, vals)) for vals in zip(*(columns[k] for k in full))]
    for k in sparse:
        for row, v in zip(rows, columns[k]):
            if v is not None:
                row[k] = v
    return rows


def _dedupe(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One record per dataset row: a row feeding two tasks (a group and 'all') counts once."""
    seen: dict[Any, dict[str, Any]] = {}
    for i, r in enumerate(records):
        key = r.get("row_id")
        seen[(r.get("task"), r.get("doc_id"), i) if key is None else key] = r
    return list(seen.values())


def summarize_records(records_by_suite: Mapping[str, list[dict[str, Any]]],
                      task_coverage: Mapping[str, float] | None = None) -> dict[str, Any]:
    """Per-task metrics and per-suite summaries of one model's records.

    ``suites`` holds each suite's summary over its test split alone (the headline); the other splits
    (validation tasks scored into the same folder) are summarised apart in ``suites_by_split``
    (suite -> split -> summary), never pooled in. ``suite_coverage`` (suite -> split -> share of
    documents answered) stands beside every summary; parse-failure rates are over covered documents.
    ``task_coverage`` (task -> share answered) counts what a partial run's records leave out.
    """
    index = task_index()
    tasks: dict[str, dict[str, Any]] = {}
    suites: dict[str, Any] = {}
    other_splits: dict[str, dict[str, Any]] = {}
    suite_coverage: dict[str, dict[str, float | None]] = {}
    for suite_name, records in sorted(records_by_suite.items()):
        suite = suite_for_release(suite_name)
        by_task: dict[str, list] = defaultdict(list)
        for r in records:
            by_task[r["task"]].append(r)
        for task, recs in sorted(by_task.items()):
            table = suite.task_table(index[task], recs)
            table = covered_rates(table, recs, lambda rs, t=index[task], s=suite: s.task_table(t, rs))
            tasks[task] = {"suite": suite_name, "split": index[task].split, "config": index[task].config,
                           "n": len(recs), "metrics": table}
        for split, recs in by_split(_dedupe(records)).items():  # never pooled: one summary per split
            summary = covered_rates(suite.summarize(recs), recs, suite.summarize)
            if split == HEADLINE_SPLIT:
                suites[suite_name] = summary
            else:
                other_splits.setdefault(suite_name, {})[split] = summary
            suite_coverage.setdefault(suite_name, {})[split] = coverage(recs, task_coverage)
    return {"tasks": tasks, "suites": suites, "suites_by_split": other_splits, "suite_coverage": suite_coverage}


_RECORD_TYPES = {"correct": (bool, int, float), "parse_failed": (bool, int, float), "doc_id": (int,)}
"""Types of the record columns every suite's metrics compute with (a string there fails deep inside)."""


def _read_results(path: str | Path) -> dict[str, Any]:
    """One results file, its structure checked (a PredictionsError names the file and the part)."""
    from ..suites import suite_names

    doc = read_json(path)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise PredictionsError(f"{path} is not a chartprobe results file (format {FORMAT})")
    if not isinstance(doc.get("models"), dict):
        raise PredictionsError(f"{path}: 'models' must map model names to their results")
    index = task_index()
    for model, entry in doc["models"].items():
        records = entry.get("records", {}) if isinstance(entry, dict) else None
        if not isinstance(records, dict):
            raise PredictionsError(f"{path}: models.{model} must hold 'records' by suite")
        for suite_name, cols in records.items():
            where = f"{path}: models.{model}.records.{suite_name}"
            if suite_name not in suite_names():
                raise PredictionsError(f"{where}: unknown suite (known: {', '.join(suite_names())})")
            if not isinstance(cols, dict) or not all(isinstance(v, list) for v in cols.values()) \
                    or len({len(v) for v in cols.values()}) > 1:
                raise PredictionsError(f"{where}: records must be columns of equal-length lists")
            unknown = sorted({t for t in cols.get("task", [None]) if t not in index}, key=str)
            if cols and unknown:  # every record names its lm-eval task; metrics group by it
                raise PredictionsError(f"{where}: records of unknown tasks {unknown[:3]}")
            for name, kinds in _RECORD_TYPES.items():
                bad = [v for v in cols.get(name, ()) if v is not None and not isinstance(v, kinds)]
                if bad:
                    raise PredictionsError(f"{where}: {name} must be {' or '.join(k.__name__ for k in kinds)}, "
                                           f"got {bad[0]!r}")
    return doc


def load_results(paths: Iterable[str | Path]) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """model -> suite -> records, merged over results files (a later file's row wins)."""
    return load_results_with_provenance(paths)[0]


def read_results_files(paths: Iterable[str | Path]) -> list[dict[str, Any]]:
    """Every results file of ``paths``, parsed and checked (a PredictionsError names the file and the part)."""
    return [_read_results(path) for path in paths]


def model_record_counts(docs: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """model -> how many records the files ``docs`` (:func:`read_results_files`) hold for it (before the
    de-duplication of re-runs), for every model :func:`merge_results` gives records (any suite, even empty)."""
    out: dict[str, int] = {}
    for doc in docs:
        for model, entry in doc["models"].items():
            if entry.get("records"):
                out[model] = out.get(model, 0) + sum(len(next(iter(cols.values()), ()))
                                                     for cols in entry["records"].values())
    return out


def load_results_with_provenance(paths: Iterable[str | Path], models: Container[str] | None = None,
                                  ) -> tuple[dict[str, dict[str, list[dict[str, Any]]]], dict[str, dict[str, Any]]]:
    """:func:`load_results` plus, per model, where its records came from.

    ``models``: the models whose records are turned into records (the rest are still checked, and
    their provenance read; None: every model). A report's worker reads its models' records this way.

    The second value maps model -> ``{"releases": {suite: [ReleaseProvenance, ...]}, "runs": [...],
    "scored_by": [...], "scorers": {suite: [scorer, ...]}}``: one release per distinct release its
    records of that suite were scored on (two when merged files disagree), the lm-eval runs, the
    scoring software versions and the scorers (typed or an LLM judge, :mod:`.scorers`) per suite.
    """
    return merge_results(read_results_files(paths), models)


def merge_results(docs: Iterable[Mapping[str, Any]], models: Container[str] | None = None,
                  ) -> tuple[dict[str, dict[str, list[dict[str, Any]]]], dict[str, dict[str, Any]]]:
    """:func:`load_results_with_provenance` of files already read (:func:`read_results_files`)."""
    from .provenance import ReleaseProvenance
    from .scorers import scorer_identity, scorers_of_entry

    merged: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    prov: dict[str, dict[str, Any]] = {}
    for doc in docs:
        releases = doc.get("releases") if isinstance(doc.get("releases"), dict) else {}
        for model, entry in doc["models"].items():
            mine = prov.setdefault(model, {"releases": {}, "runs": [], "scored_by": [], "lm_eval_tasks": {},
                                           "scorers": {}})
            mine["lm_eval_tasks"].update(entry.get("lm_eval_tasks") or {})
            mine.setdefault("task_coverage", {}).update(  # what a partial run's records cannot tell
                {t: e.get("coverage") for t, e in (entry.get("tasks") or {}).items() if isinstance(e, dict)})
            for suite_name, scorer in scorers_of_entry(entry, entry.get("records", {})).items():
                known = mine["scorers"].setdefault(suite_name, [])
                if scorer_identity(scorer) not in map(scorer_identity, known):
                    known.append(scorer)
            for suite_name, cols in entry.get("records", {}).items():
                if models is None or model in models:
                    merged[model][suite_name] += from_columns(cols)
                rel = releases.get(suite_name)
                rel = ReleaseProvenance.from_json(suite_name, rel if isinstance(rel, dict) else {})
                if rel not in mine["releases"].setdefault(suite_name, []):
                    mine["releases"][suite_name].append(rel)
            for run in entry.get("runs") or ():
                if run not in mine["runs"]:
                    mine["runs"].append(run)
            if doc.get("provenance") and doc["provenance"] not in mine["scored_by"]:
                mine["scored_by"].append(doc["provenance"])
    records = {m: {s: _dedupe_task_rows(rs) for s, rs in by.items()} for m, by in merged.items()}
    return records, prov


def _dedupe_task_rows(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Keep the last record per (task, doc_id): merging a re-run replaces, never doubles."""
    last: dict[tuple, dict[str, Any]] = {}
    for r in records:
        last[(r.get("task"), r.get("doc_id"))] = r
    return list(last.values())
