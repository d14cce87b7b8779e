"""Each model's part of a report (its capability profile and its diagnosis section), in this process
or in ``--num-proc`` worker processes.

A model's profile, headline intervals and diagnosis depend on its own records alone, and they are
most of a report's time at scale (1M records: bootstrap draws, per-task tables, per-record passes).
The models are dealt to the workers by record count (largest first, each to the least loaded), and a
worker is handed the results files' paths and its models' names: it reads the files once and makes
its models' records one model at a time (the parent never holds every model's records unless
``--compare`` or ``--paper-tables`` needs them, and nothing large is copied between processes). Parts
come back in model order and do not depend on which process made them, so the report is
byte-identical for any N.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..suites import suite_for_release
from ..suites._splits import HEADLINE_SPLIT, by_split, coverage, covered_rates
from ..suites._task_index import task_index

__all__ = ["ModelPart", "deal", "model_part", "model_parts", "suite_profile", "unique_rows"]


@dataclass(frozen=True)
class ModelPart:
    """What one model adds to a report."""

    profile: dict[str, Any]
    """suite -> profile (summary, headline, split, coverage, tasks, partial and ``n``, the headline split's rows)."""
    lead: list[str]
    """The model's ``## Model:`` section of report.md: its diagnosis paragraph and headline tables."""


def model_part(model: str, by_suite: Mapping[str, list], prov: Mapping[str, Any]) -> ModelPart:
    """``model``'s profile and diagnosis section from its records (``by_suite``: suite -> records)."""
    from .headline import diagnosis_markdown

    profile: dict[str, Any] = {}
    tests: dict[str, list] = {}
    for name, records in sorted(by_suite.items()):
        profile[name], tests[name] = suite_profile(name, records, prov.get("task_coverage"))
        profile[name]["n"] = len(tests[name])  # rows of the headline split: beside every number and figure row
    return ModelPart(profile, diagnosis_markdown({model: profile}, {model: tests}, progress=False))


def suite_profile(name: str, records: list[dict[str, Any]],
                  task_coverage: Mapping[str, float | None] | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One model's profile on suite ``name`` (summary, headline, split, coverage, tasks, partial) and its
    headline-split rows, one per dataset row (what the diagnosis and the row count ``n`` read)."""
    index = task_index()
    suite = suite_for_release(name)
    by_task: dict[str, list] = {}
    for r in records:
        by_task.setdefault(r["task"], []).append(r)
    # Never pooled: the headline is the test split's; other splits summarised apart, labelled.
    parts = by_split(unique_rows(records))
    tests = parts.get(HEADLINE_SPLIT, [])
    summary = covered_rates(suite.summarize(tests), tests, suite.summarize)
    return {
        "summary": summary, "headline": suite.headline(summary), "split": HEADLINE_SPLIT,
        "coverage": {sp: coverage(rs, task_coverage) for sp, rs in parts.items()},
        "other_splits": {sp: covered_rates(suite.summarize(rs), rs, suite.summarize)
                         for sp, rs in parts.items() if sp != HEADLINE_SPLIT},
        "tasks": {t: suite.task_table(index[t], rs) for t, rs in sorted(by_task.items()) if t in index},
        "partial": sorted(t for t, rs in by_task.items() if any(r.get("partial") for r in rs))}, tests


def unique_rows(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One record per dataset row (a row in a group task and an 'all' task counts once)."""
    seen: dict[Any, dict[str, Any]] = {}
    for i, r in enumerate(records):
        seen[r.get("row_id") if r.get("row_id") is not None else (r.get("task"), r.get("doc_id"), i)] = r
    return list(seen.values())


def deal(counts: Mapping[str, int], workers: int) -> list[list[str]]:
    """The models of ``counts`` (model -> records) in ``workers`` groups of near-equal records: the
    largest model first, each to the group with the fewest records so far (ties: the first group);
    each group in model order, empty groups dropped."""
    groups: list[list[str]] = [[] for _ in range(workers)]
    load = [0] * workers
    for model in sorted(counts, key=lambda m: (-counts[m], m)):
        k = load.index(min(load))
        groups[k].append(model)
        load[k] += counts[model]
    return [sorted(g) for g in groups if g]


def _parts_of(docs: Sequence[Mapping[str, Any]], models: Sequence[str]) -> Iterator[tuple[str, ModelPart]]:
    """(model, part) of each of ``models``, their records made from ``docs`` one model at a time."""
    from ..rescoring.results import merge_results

    for model in models:
        merged, prov = merge_results(docs, models={model})
        yield model, model_part(model, merged[model], prov[model])


def _worker(paths: Sequence[str], models: Sequence[str]) -> list[tuple[str, ModelPart]]:
    """In a worker process: read the results files once, then make each of ``models``' parts."""
    from ..rescoring.results import read_results_files

    return list(_parts_of(read_results_files(paths), models))


def model_parts(paths: Sequence[str | Path], docs: list[dict[str, Any]],
                merged: Mapping[str, Mapping[str, list]] | None, prov: Mapping[str, Mapping[str, Any]],
                num_proc: int = 1) -> dict[str, ModelPart]:
    """model -> part for every model with records, in model order.

    ``docs``: the results files of ``paths`` already read (:func:`..rescoring.results.read_results_files`);
    ``merged``: every model's records when this process has them (else None: made from ``docs`` a model
    at a time). With ``num_proc`` > 1 and several models, workers read ``paths`` again themselves.
    ``docs`` is emptied once it is not needed (beside ``merged``, or before workers start: a forked
    worker would otherwise carry this process's copy of every file, counted in its resident memory:
    2.1 GB against 1.3 GB per worker on 1M records)."""
    from tqdm.auto import tqdm

    from ..rescoring.results import model_record_counts

    counts = model_record_counts(docs)
    groups = deal(counts, num_proc)
    if merged is not None or len(groups) > 1:
        docs.clear()
    # a stderr bar, one step per model (hidden when stderr is not a terminal)
    with tqdm(total=len(counts), desc="report: models", unit="model", disable=None, leave=False) as bar:
        if len(groups) <= 1:
            found = ((m, model_part(m, merged[m], prov[m])) for m in sorted(counts)) if merged is not None \
                else _parts_of(docs, sorted(counts))
            parts = {}
            for model, part in found:
                parts[model] = part
                bar.update()
            return parts
        return dict(sorted(_in_workers([str(p) for p in paths], groups, bar)))


def _in_workers(paths: list[str], groups: list[list[str]], bar: Any) -> Iterator[tuple[str, ModelPart]]:
    import gc
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from chartprobe.dataset_builders.core.vega.runtime import start_method

    # fork unless this process has started Vega's runtime (a forked child would wait on its threads)
    ctx = multiprocessing.get_context(start_method())
    # This process may hold every model's records (--compare, --paper-tables): frozen, a forked
    # worker's garbage collector leaves them alone instead of touching (and so copying) their pages.
    gc.freeze()
    try:
        with ProcessPoolExecutor(len(groups), mp_context=ctx) as pool:
            futures = [pool.submit(_worker, paths, group) for group in groups]
            try:
                for future in as_completed(futures):
                    found = future.result()
                    bar.update(len(found))
                    yield from found
            finally:  # a failing worker (or a consumer that stops early) cancels the rest
                for f in futures:
                    f.cancel()
    finally:
        gc.unfreeze()
