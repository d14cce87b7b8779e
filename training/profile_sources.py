"""Where a capability profile comes from: an lm-eval folder, an lm-eval results JSON, a results file.

- An lm-eval ``--output_path`` folder (its newest run). With ``--log_samples`` every region is
  filled: each chartprobe task's documents are rescored with the typed scorer of the benchmark
  that owns its release (:mod:`.regions`). The run may hold any mix of tasks: tasks of other
  chartprobe benchmarks (families, judge, smoke) and ``*_paper`` tasks are listed under
  ``skipped_tasks`` with the reason; foreign tasks (lm-eval's ``chartqa``...) are carried as
  lm-eval scored them under ``lm_eval_tasks`` (transfer).
- An lm-eval ``results_*.json`` alone: only the probes' skill / domain cells, from the task
  names and lm-eval's pooled accuracy (legend tasks need their samples and are skipped).
- A ``chartprobe score`` results file (``chartprobe-results/1``): its scored records per suite.

Each profiled row is counted once per benchmark (a row in two tasks, e.g. a group and its
member, is deduplicated by row id), and the splits the rows came from are recorded.
"""

from __future__ import annotations

import glob
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from chartprobe.eval_tasks.rescoring.lm_eval_tables import lm_eval_only

from .profile import ProfileError, benchmark_profile, cell, make_profile, validate_profile
from .regions import region_sets

__all__ = ["describe", "load_profile", "profile_from_lm_eval", "profile_from_lm_eval_results",
           "profile_from_results_file"]


def _owners() -> dict[str, str]:
    """release -> benchmark name of every region set."""
    return {rs.release: name for name, rs in region_sets().items()}


def _route(task: str) -> tuple[str | None, str | None]:
    """(benchmark, None) for a task a region set profiles, (None, reason) for a chartprobe task it
    skips, (None, None) for a foreign task (carried as lm-eval scored it)."""
    from chartprobe.eval_tasks.suites._task_index import task_index

    data = task_index().get(task)
    if data is None:  # a foreign task, or one of our groups and tags (their members are read)
        return None, None
    if not data.rescored:
        return None, f"{data.protocol} protocol: scored by lm-eval's table only"
    owner = _owners().get(data.release)
    return (owner, None) if owner else (None, (f"chartprobe-{data.release}: no capability regions "
                                              f"(profiles cover {', '.join(sorted(region_sets()))})"))


def _split_of(task: str) -> str:
    from chartprobe.eval_tasks.suites._task_index import task_index

    return task_index()[task].split


def _model_name(results: Mapping[str, Any]) -> str | None:
    cfg = results.get("config", {})
    args = cfg.get("model_args")
    return args if isinstance(args, str) else json.dumps(args) if args else cfg.get("model")


def _sections(rows: Mapping[str, dict[str, tuple[str, str, Mapping[str, Any]]]],
              skipped: dict[str, str], task_coverage: Mapping[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """benchmark -> {row id: (task, split, record)} as profile sections; a benchmark whose rows are
    all evaluation-only (a run of ChartProbe's CR tasks alone) is skipped, its tasks saying why."""
    out = {}
    for bench, by_id in rows.items():
        if not by_id:
            continue
        values = list(by_id.values())
        try:
            out[bench] = benchmark_profile(bench, [rec for _, _, rec in values],
                                           splits=Counter(split for _, split, _ in values),
                                           tasks=[task for task, _, _ in values],
                                           record_splits=[split for _, split, _ in values],
                                           task_coverage=task_coverage)
        except ProfileError as exc:
            skipped.update(dict.fromkeys({task for task, _, _ in values}, str(exc)))
    return out


def profile_from_lm_eval(folder: str | Path) -> dict[str, Any]:
    """Profile of the newest lm-eval run in ``folder`` (see the module docstring)."""
    folder = Path(folder)
    results_files = sorted(glob.glob(str(folder / "**" / "results_*.json"), recursive=True),
                           key=lambda p: Path(p).name)
    if not results_files:
        raise ProfileError(f"{folder}: no lm-eval results_*.json (run lm_eval with --output_path {folder})")
    newest = Path(results_files[-1])
    stamp = newest.stem[len("results_"):]
    results = json.loads(newest.read_text())
    sets = region_sets()
    rows: dict[str, dict[str, tuple[str, str, Mapping[str, Any]]]] = {b: {} for b in sets}
    skipped: dict[str, str] = {}
    sampled: set[str] = set()
    for path in sorted(newest.parent.glob(f"samples_*_{stamp}.jsonl")):
        task = path.name[len("samples_"):-len(f"_{stamp}.jsonl")]
        bench, reason = _route(task)
        if bench is None:
            if reason:
                skipped[task] = reason
            continue
        split, mine = _split_of(task), {}
        try:  # a task counts whole or not at all
            for line in path.read_text().splitlines():
                if not line.strip():
                    continue
                s = json.loads(line)
                doc, resps = s.get("doc") or {}, s.get("filtered_resps")
                prediction = resps[0] if resps else ""
                if isinstance(prediction, list):  # lm-eval nests repeats: [[text]]
                    prediction = prediction[0] if prediction else ""
                mine[str(doc.get("id", f"{task}:{s.get('doc_id')}"))] = (
                    task, split, sets[bench].score(doc, str(prediction)))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:  # JSON errors are ValueErrors
            skipped[task] = f"its samples cannot be scored ({type(exc).__name__}: {exc})"
            continue
        sampled.add(task)
        rows[bench].update(mine)
    for task in results.get("results", {}):  # tasks without samples files, and groups (not listed)
        bench, reason = _route(task)
        if bench is not None and task not in sampled:
            skipped.setdefault(task, "no samples file (run lm_eval with --log_samples for every region)")
        elif reason:
            skipped.setdefault(task, reason)
    sections = _sections(rows, skipped)
    if "probes" not in sections:  # results alone still give the probes' skill and domain cells
        coarse = _probes_from_results(results)
        if coarse:
            sections["probes"] = coarse
            for task in coarse["tasks"]:
                skipped.pop(task, None)
    return make_profile(sections, model=_model_name(results), source=str(folder),
                        source_kind="lm-eval samples" if sampled else "lm-eval results",
                        skipped=skipped, lm_eval_tasks=lm_eval_only(results))


def _probes_from_results(results: Mapping[str, Any]) -> dict[str, Any] | None:
    """The probes section from lm-eval's table: pooled accuracy x n per (domain, skill) task."""
    from chartprobe.eval_tasks.suites._task_index import task_index

    index = task_index()
    cells: dict[str, dict[str, list[float]]] = {"skill": {}, "domain": {}, "domain_skill": {}}
    complex_: dict[str, dict[str, Any]] = {}
    tasks, splits = [], Counter()
    for task, metrics in (results.get("results") or {}).items():
        data = index.get(task)
        if data is None or data.release != "probes" or not isinstance(metrics, Mapping):
            continue
        n = int((results.get("n-samples", {}).get(task) or {}).get("effective", 0))
        acc = metrics.get("accuracy_micro,none", metrics.get("accuracy,none"))
        skill = data.where.get("skill")
        if data.config.startswith("cr_") and "fuzzy,none" in metrics:
            complex_[data.config[len("cr_"):]] = {"fuzzy": metrics["fuzzy,none"],
                                                  "accuracy": metrics.get("accuracy,none"), "n": n}
            continue
        if acc is None or skill is None or n <= 0:
            continue
        tasks.append(task)
        splits[data.split] += n
        for dim, key in (("skill", skill), ("domain", data.config), ("domain_skill", f"{data.config}/{skill}")):
            got = cells[dim].setdefault(key, [0.0, 0])
            got[0] += float(acc) * n
            got[1] += n
    if not tasks:
        return None
    regions = {dim: {k: cell(c, int(n)) for k, (c, n) in sorted(v.items())} for dim, v in cells.items() if v}
    total = sum(n for _, n in cells["skill"].values())
    return {"splits": dict(splits), "tasks": sorted(tasks),
            "mean": cell(sum(c for c, _ in cells["skill"].values()), int(total)), "regions": regions,
            "complex": complex_, "parse_failure_rate": None}


def profile_from_lm_eval_results(results: Mapping[str, Any], source: str | None = None) -> dict[str, Any]:
    """Coarse profile (probes skill / domain cells) from an lm-eval results JSON alone."""
    section = _probes_from_results(results)
    if section is None:
        raise ProfileError(f"{source}: no chartprobe_probes_* task results to build a profile from")
    return make_profile({"probes": section}, model=_model_name(results), source=source,
                        source_kind="lm-eval results", lm_eval_tasks=lm_eval_only(results))


def profile_from_results_file(path: str | Path, doc: Mapping[str, Any] | None = None,
                              model: str | None = None) -> dict[str, Any]:
    """Profile of one model's scored records in a ``chartprobe score`` results file."""
    from chartprobe.eval_tasks.rescoring.predictions import PredictionsError
    from chartprobe.eval_tasks.rescoring.results import load_results_with_provenance
    from chartprobe.eval_tasks.suites._task_index import task_index

    try:
        by_model, prov = load_results_with_provenance([path])
    except PredictionsError as exc:
        raise ProfileError(str(exc)) from None
    if model is None and len(by_model) != 1:
        raise ProfileError(f"{path}: holds {len(by_model)} models ({', '.join(sorted(by_model)) or 'none'}); "
                           "pick one with --model NAME")
    name = model if model is not None else next(iter(by_model))
    if name not in by_model:
        raise ProfileError(f"{path}: no model {name!r} (it has: {', '.join(sorted(by_model))})")
    owners, index = _owners(), task_index()
    rows: dict[str, dict[str, tuple[str, str, Mapping[str, Any]]]] = {b: {} for b in region_sets()}
    skipped: dict[str, str] = {}
    for suite, records in sorted(by_model[name].items()):
        bench = owners.get(suite)
        for r in records:
            task = str(r.get("task"))
            if bench is None:
                skipped[task] = f"chartprobe-{suite}: no capability regions"
                continue
            split = index[task].split if task in index else "test"
            rows[bench][str(r.get("row_id") or r.get("id") or f"{task}:{r.get('doc_id')}")] = (task, split, r)
    return make_profile(_sections(rows, skipped, prov[name].get("task_coverage")), model=name, source=str(path),
                        source_kind="chartprobe results",
                        skipped=skipped, lm_eval_tasks=prov[name].get("lm_eval_tasks"))


def describe(profile: Mapping[str, Any]) -> Iterable[str]:
    """Human-readable lines: what was profiled, on which splits, and what was skipped."""
    for bench, sec in profile.get("benchmarks", {}).items():
        mean = sec["mean"]
        splits = ", ".join(f"{s} {n}" for s, n in sorted(sec.get("splits", {}).items())) or "unknown split"
        yield (f"{bench}: {mean['n']} rows ({splits}), mean accuracy {mean['accuracy']:.3f} "
               f"[{mean['ci_low']:.3f}, {mean['ci_high']:.3f}], regions: {', '.join(sec['regions'])}")
    for task, why in profile.get("skipped_tasks", {}).items():
        yield f"skipped {task}: {why}"


def load_profile(path: str | Path, model: str | None = None) -> dict[str, Any]:
    """A v2 profile from a profile JSON, an lm-eval output folder or results JSON, or a
    ``chartprobe score`` results file (``model`` picks one when it holds several)."""
    path = Path(path)
    if path.is_dir():
        return profile_from_lm_eval(path)
    if not path.is_file():
        raise ProfileError(f"{path}: no such profile file, results file or lm-eval output folder")
    try:
        data = json.loads(path.read_text())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ProfileError(f"{path}: not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise ProfileError(f"{path}: expected a JSON object")
    if str(data.get("format", "")).startswith("chartprobe-results/"):
        return profile_from_results_file(path, data, model)
    if "results" in data and "schema" not in data:
        return profile_from_lm_eval_results(data, source=str(path))
    return validate_profile(data, str(path))
