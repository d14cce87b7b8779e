"""Capability profiles: a model's accuracy per capability region, and base-vs-tuned comparisons.

Schema ``chartprobe-profile/v1`` (what ``--select bottleneck --profile FILE`` reads and what
``chartprobe report`` is meant to emit)::

    {
      "schema": "chartprobe-profile/v1",
      "model": "pretrained=Org/VLM,peft=runs/x",   # lm-eval model_args, or any label
      "source": "results/Org__VLM",               # where it was computed from
      "n": 243,                                   # scored probe records (CR excluded)
      "regions": {                                # column -> value -> accuracy
        "skill":       {"perception": {"accuracy": 0.37, "n": 81}, ...},
        "template_id": {"P-COUNT-BARS": {"accuracy": 0.5, "n": 8}, ...},
        "chart_kind":  {"bar": {...}, "pie": {...}},
        "domain":      {"bar": {...}, "shapes": {...}}
      },
      "complex": {"bar": {"fuzzy": 0.41, "accuracy": 0.11, "n": 9}, ...},
      "parse_failure_rate": 0.04
    }

A *region* is any row column; a LegendBench profile adds e.g. ``"capability"`` regions and
selection works unchanged. Accuracy is the item accuracy (the typed verdict; a list must be
the exact set) from :func:`chartprobe.eval_tasks.metrics.probes.score_record`; complex
reasoning is reported apart (fuzzy, the paper's CR metric) because it is never trained on.

Sources: an lm-eval ``--output_path`` folder run with ``--log_samples`` (every region), a
lm-eval ``results_*.json`` alone (only ``skill`` and ``domain``, from the task names), or a
profile JSON file.
"""

from __future__ import annotations

import glob
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from chartprobe.eval_tasks.lm_eval_tables import lm_eval_only

SCHEMA = "chartprobe-profile/v1"
REGION_COLUMNS = ("skill", "template_id", "chart_kind", "domain")
PROBE_TASK = "chartprobe_probes_"  # chartprobe_probes_<domain>_<skill>
CR_TASK = "chartprobe_cr_"  # chartprobe_cr_<domain>


class ProfileError(ValueError):
    """A profile file or lm-eval folder that cannot be read as a capability profile."""


def _mean_by(records: Iterable[Mapping[str, Any]], column: str, value: str) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[float]] = defaultdict(list)
    for r in records:
        if r.get(column) is not None:
            groups[str(r[column])].append(float(r[value]))
    return {k: {"accuracy": sum(v) / len(v), "n": len(v)} for k, v in sorted(groups.items())}


def profile_from_samples(samples: Iterable[tuple[Mapping[str, Any], str]], columns: Iterable[str] = REGION_COLUMNS,
                         model: str | None = None, source: str | None = None) -> dict[str, Any]:
    """Profile from ``(dataset row, model output)`` pairs, scored with ``score_record``."""
    from chartprobe.eval_tasks.metrics.probes import score_record

    columns = tuple(columns)
    probes, complex_ = [], []
    for doc, prediction in samples:
        rec = {**score_record(doc, prediction), **{c: doc.get(c) for c in columns}}
        (complex_ if doc.get("held_out") or doc.get("skill") == "complex" else probes).append(rec)
    cr = {}
    for domain, items in sorted(_group(complex_, "domain").items()):
        cr[domain] = {"fuzzy": _avg(r["fuzzy"] for r in items), "accuracy": _avg(r["correct"] for r in items),
                      "n": len(items)}
    return {"schema": SCHEMA, "model": model, "source": source, "n": len(probes),
            "regions": {c: _mean_by(probes, c, "accuracy") for c in columns},
            "complex": cr, "parse_failure_rate": _avg(r["parse_failed"] for r in probes + complex_)}


def _group(records: list[dict[str, Any]], column: str) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        out[str(r.get(column))].append(r)
    return out


def _avg(values: Iterable[Any]) -> float | None:
    vals = [float(v) for v in values]
    return sum(vals) / len(vals) if vals else None


def profile_from_results(results: Mapping[str, Any], source: str | None = None) -> dict[str, Any]:
    """Coarse profile (``skill`` and ``domain`` regions) from an lm-eval results JSON alone."""
    by: dict[str, dict[str, list[tuple[float, int]]]] = {"skill": defaultdict(list), "domain": defaultdict(list)}
    cr = {}
    for task, metrics in results.get("results", {}).items():
        n = int(results.get("n-samples", {}).get(task, {}).get("effective", 1))
        if task.startswith(PROBE_TASK) and "accuracy,none" in metrics:
            domain, skill = task[len(PROBE_TASK):].rsplit("_", 1)
            by["skill"][skill].append((metrics["accuracy,none"], n))
            by["domain"][domain].append((metrics["accuracy,none"], n))
        elif task.startswith(CR_TASK) and "fuzzy,none" in metrics:
            cr[task[len(CR_TASK):]] = {"fuzzy": metrics["fuzzy,none"], "accuracy": metrics.get("accuracy,none"), "n": n}
    regions = {col: {k: {"accuracy": sum(a * n for a, n in v) / sum(n for _, n in v), "n": sum(n for _, n in v)}
                     for k, v in sorted(groups.items())} for col, groups in by.items()}
    if not regions["skill"]:
        raise ProfileError(f"{source}: no chartprobe_probes_* task results to build a profile from")
    return {"schema": SCHEMA, "model": _model_name(results), "source": source,
            "n": sum(r["n"] for r in regions["skill"].values()), "regions": regions, "complex": cr,
            "parse_failure_rate": None}


def _model_name(results: Mapping[str, Any]) -> str | None:
    cfg = results.get("config", {})
    args = cfg.get("model_args")
    return args if isinstance(args, str) else json.dumps(args) if args else cfg.get("model")


def profile_from_lm_eval(folder: str | Path) -> dict[str, Any]:
    """Profile from an lm-eval ``--output_path`` folder (the newest run in it).

    With ``--log_samples`` files every region column is filled; without them it falls back
    to :func:`profile_from_results`.
    """
    folder = Path(folder)
    results_files = sorted(glob.glob(str(folder / "**" / "results_*.json"), recursive=True),
                           key=lambda p: Path(p).name)
    if not results_files:
        raise ProfileError(f"{folder}: no lm-eval results_*.json (run lm_eval with --output_path {folder})")
    newest = Path(results_files[-1])
    stamp = newest.stem[len("results_"):]
    results = json.loads(newest.read_text())
    # Only the probes' samples build the profile; other tasks of the run (transfer tasks such as
    # lm-eval's chartqa) are carried as lm-eval scored them.
    samples_files = [p for p in sorted(newest.parent.glob(f"samples_*_{stamp}.jsonl"))
                     if p.name[len("samples_"):-len(f"_{stamp}.jsonl")].startswith((PROBE_TASK, CR_TASK))]
    if not samples_files:
        return {**profile_from_results(results, source=str(folder)), "lm_eval_tasks": lm_eval_only(results)}
    pairs = []
    for path in samples_files:
        for line in path.read_text().splitlines():
            s = json.loads(line)
            pairs.append((s["doc"], s["filtered_resps"][0] if s.get("filtered_resps") else ""))
    return {**profile_from_samples(pairs, model=_model_name(results), source=str(folder)),
            "lm_eval_tasks": lm_eval_only(results)}


def validate_profile(profile: Mapping[str, Any], source: str = "profile") -> dict[str, Any]:
    """Check the ``chartprobe-profile/v1`` shape; return the profile as a dict."""
    if profile.get("schema") != SCHEMA:
        raise ProfileError(f"{source}: expected \"schema\": \"{SCHEMA}\", got {profile.get('schema')!r}")
    regions = profile.get("regions")
    if not isinstance(regions, Mapping) or not regions:
        raise ProfileError(f"{source}: 'regions' must map a column to {{value: {{accuracy, n}}}}")
    for column, values in regions.items():
        for value, cell in values.items():
            acc = cell.get("accuracy") if isinstance(cell, Mapping) else None
            if not isinstance(acc, (int, float)) or not 0.0 <= acc <= 1.0:
                raise ProfileError(f"{source}: regions.{column}.{value}.accuracy must be in [0, 1], got {acc!r}")
    return dict(profile)


def load_profile(path: str | Path) -> dict[str, Any]:
    """A profile from a profile JSON, an lm-eval results JSON, or an lm-eval output folder."""
    path = Path(path)
    if path.is_dir():
        return profile_from_lm_eval(path)
    if not path.is_file():
        raise ProfileError(f"{path}: no such profile file or lm-eval output folder")
    data = json.loads(path.read_text())
    if "results" in data and "schema" not in data:
        return profile_from_results(data, source=str(path))
    return validate_profile(data, str(path))


def region_accuracy(profile: Mapping[str, Any], region: str) -> dict[str, float]:
    """``{value: accuracy}`` of one region column (what bottleneck selection consumes)."""
    cells = profile.get("regions", {}).get(region)
    if not cells:
        raise ProfileError(f"profile has no '{region}' regions (it has: {sorted(profile.get('regions', {}))})")
    return {v: float(c["accuracy"]) for v, c in cells.items()}


def compare(base: Mapping[str, Any], tuned: Mapping[str, Any], columns: Iterable[str] = ("skill", "domain")) -> dict:
    """Base vs tuned accuracy and delta per region (selected columns) and CR fuzzy per domain."""
    out: dict[str, Any] = {"base": base.get("model"), "tuned": tuned.get("model"), "regions": {}, "complex": {}}
    for col in columns:
        b, t = base.get("regions", {}).get(col, {}), tuned.get("regions", {}).get(col, {})
        out["regions"][col] = {v: _delta(b[v]["accuracy"], t[v]["accuracy"]) for v in sorted(set(b) & set(t))}
    b, t = base.get("complex", {}), tuned.get("complex", {})
    out["complex"] = {d: _delta(b[d]["fuzzy"], t[d]["fuzzy"]) for d in sorted(set(b) & set(t))}
    # Transfer (ChartProbe §5, LegendBench §5.3 report ChartQA): extra lm-eval tasks of both runs.
    b, t = base.get("lm_eval_tasks", {}), tuned.get("lm_eval_tasks", {})
    out["transfer"] = {task: {m: _delta(b[task][m], t[task][m]) for m in sorted(set(b[task]) & set(t[task]))}
                       for task in sorted(set(b) & set(t))}
    return out


def _delta(base: float, tuned: float) -> dict[str, float]:
    return {"base": base, "tuned": tuned, "delta": tuned - base}


def format_comparison(cmp: Mapping[str, Any]) -> str:
    """Markdown table of :func:`compare` (percent, like the paper's tables)."""
    lines = ["| region | base | tuned | Δ |", "|---|---:|---:|---:|"]
    rows = [(f"{col}={v}", c) for col, cells in cmp["regions"].items() for v, c in cells.items()]
    rows += [(f"CR {d} (fuzzy)", c) for d, c in cmp["complex"].items()]
    rows += [(f"{task} {metric} (lm-eval)", c) for task, metrics in cmp.get("transfer", {}).items()
             for metric, c in metrics.items()]
    lines += [f"| {name} | {100 * c['base']:.1f} | {100 * c['tuned']:.1f} | {100 * c['delta']:+.1f} |"
              for name, c in rows]
    return "\n".join(lines)
