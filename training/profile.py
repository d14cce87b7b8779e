"""Capability profiles: a model's accuracy per capability region, with its 95% interval.

Schema ``chartprobe-profile/v2`` (what ``chartprobe profile`` writes and ``--profile`` reads)::

    {
      "schema": "chartprobe-profile/v2",
      "model": "pretrained=Org/VLM",            # lm-eval model_args, or the results file's model name
      "source": "out/eval", "source_kind": "lm-eval samples",
      "benchmarks": {
        "probes": {
          "splits": {"validation": 243},        # rows profiled per split (selection must not see the test split
                                                # it is scored on: the closed loop profiles on validation)
          "tasks": ["chartprobe_probes_val_bar", ...],
          "mean": {"accuracy": 0.41, "n": 243, "correct": 100, "ci_low": 0.35, "ci_high": 0.47},
          "regions": {"skill": {"perception": {"accuracy": .., "n": .., "correct": .., "ci_low": .., "ci_high": ..}},
                      "template_id": {...}, "domain": {...}, "domain_skill": {"bar/perception": {...}}},
          "complex": {"bar": {"fuzzy": 0.4, "accuracy": 0.1, "n": 9}},   # benchmark extras
          "parse_failure_rate": 0.04
        },
        "legend": {... "regions": {"capability": ..., "capability_channel": ..., ...}, "legendbench": {...}}
      },
      "skipped_tasks": {"chartprobe_judge_cpa": "judge: no capability regions"},
      "lm_eval_tasks": {"chartqa": {"relaxed_accuracy": 0.12}}   # other tasks of the run, as lm-eval scored them
    }

Regions come from :mod:`chartprobe.training.regions` (one registered set per benchmark); the
interval is Wilson's score interval (``scipy.stats.binomtest``), which stays inside [0, 1] and
is honest at 0 of n. A region is called a bottleneck only when its whole interval lies below
the benchmark mean (:mod:`.select`). Evaluation-only rows (ChartProbe's complex reasoning)
never enter the regions or the mean. ``chartprobe-profile/v1`` files (no intervals, one
benchmark) are read as probes profiles with intervals computed from their ``n``.

Readers of lm-eval folders, lm-eval results JSONs and ``chartprobe score`` results files are
in :mod:`.profile_sources`, whose ``load_profile`` takes any of them or a profile file.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .regions import get_region_set

SCHEMA = "chartprobe-profile/v2"
SCHEMA_V1 = "chartprobe-profile/v1"
CONFIDENCE = 0.95


class ProfileError(ValueError):
    """A profile file, lm-eval folder or results file that cannot be read as a capability profile."""


def wilson(correct: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval of ``correct`` successes in ``n`` trials."""
    from scipy.stats import binomtest

    if n <= 0:
        return 0.0, 1.0
    ci = binomtest(int(correct), int(n)).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def cell(correct: float, n: int) -> dict[str, Any]:
    """One region's entry: accuracy, n, correct count and the 95% interval."""
    k = round(correct)
    low, high = wilson(k, n)
    return {"accuracy": correct / n if n else 0.0, "n": int(n), "correct": k, "ci_low": low, "ci_high": high}


def benchmark_profile(benchmark: str, records: Iterable[Mapping[str, Any]],
                      splits: Mapping[str, int] | None = None, tasks: Iterable[str] = (),
                      record_splits: Sequence[str] | None = None,
                      task_coverage: Mapping[str, float | None] | None = None) -> dict[str, Any]:
    """One benchmark's section from its scored records (each with the row's region columns).

    ``record_splits`` names each record's split. The benchmark's extras (LegendBench's §5.1
    block, ChartProbe's complex reasoning) are never pooled over splits: they are the test
    split's (study rows apart, they are not the snapshot), and each other split's sit in
    ``extra_by_split``. ``parse_failure_rate`` is over the covered documents; ``coverage`` is
    the share of documents the run answered (``missing`` records are not parse failures;
    ``task_coverage``, task -> share from the results file, counts what a partial run left out).
    """
    from chartprobe.eval_tasks.suites._splits import coverage as covered_share
    from chartprobe.eval_tasks.suites._splits import covered_rates

    rs = get_region_set(benchmark)
    records = [dict(r) for r in records]
    labels = list(record_splits) if record_splits is not None else ["test"] * len(records)
    parts: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r, split in zip(records, labels):
        if not r.get("study_factor"):  # controlled-study rows are not the snapshot profile
            parts[split].append(r)
    extras = covered_rates(rs.extra(parts["test"]), parts["test"], rs.extra) if parts.get("test") else {}
    extra_by_split = {sp: covered_rates(rs.extra(rows), rows, rs.extra)
                      for sp, rows in sorted(parts.items()) if sp != "test" and rows}
    covered = [r for r in records if not r.get("missing")]
    trained = [r for r in records if not rs.evaluation_only(r)]
    if not trained:
        raise ProfileError(f"{benchmark}: no scored row outside the evaluation-only sets to profile")
    regions: dict[str, dict[str, Any]] = {}
    for name, dim in rs.dimensions().items():
        sums: dict[str, list[float]] = defaultdict(list)
        for r in trained:
            key = dim.key(r)
            if key is not None:
                sums[key].append(rs.correct(r))
        if sums:
            regions[name] = {v: cell(sum(x), len(x)) for v, x in sorted(sums.items())}
    outcomes = [rs.correct(r) for r in trained]
    return {"splits": dict(splits or {}), "tasks": sorted(set(tasks)),
            "mean": cell(sum(outcomes), len(outcomes)), "regions": regions, **extras,
            **({"extra_by_split": extra_by_split} if extra_by_split else {}),
            "extra_split": "test" if extras else None,
            "coverage": covered_share(records, task_coverage),
            "parse_failure_rate": (sum(bool(r.get("parse_failed")) for r in covered) / len(covered)
                                   if covered else None)}


def make_profile(sections: Mapping[str, Mapping[str, Any]], *, model: str | None, source: str | None,
                 source_kind: str, skipped: Mapping[str, str] | None = None,
                 lm_eval_tasks: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The whole ``chartprobe-profile/v2`` document."""
    if not sections:
        reasons = "; ".join(f"{t}: {why}" for t, why in sorted((skipped or {}).items())[:5])
        raise ProfileError(f"{source}: no ChartProbe or LegendBench rows to build a profile from"
                           + (f" (skipped {reasons})" if reasons else ""))
    return {"schema": SCHEMA, "model": model, "source": source, "source_kind": source_kind,
            "benchmarks": {b: dict(s) for b, s in sorted(sections.items())},
            "skipped_tasks": dict(sorted((skipped or {}).items())), "lm_eval_tasks": dict(lm_eval_tasks or {})}


def _upgrade_v1(profile: Mapping[str, Any], source: str) -> dict[str, Any]:
    """A v1 file (probes only, accuracy and n per region) as a v2 profile."""
    regions = {col: {v: cell(float(c["accuracy"]) * int(c.get("n", 0)), int(c.get("n", 0))) for v, c in vals.items()}
               for col, vals in profile["regions"].items()}
    kept = {col: {v: c for v, c in vals.items() if v != "complex"} for col, vals in regions.items()}
    first = next(iter(kept.values()))
    n = sum(c["n"] for c in first.values())
    section = {"splits": {}, "tasks": [], "mean": cell(sum(c["correct"] for c in first.values()), n),
               "regions": kept, "complex": dict(profile.get("complex") or {}),
               "parse_failure_rate": profile.get("parse_failure_rate")}
    return make_profile({"probes": section}, model=profile.get("model"), source=profile.get("source") or source,
                        source_kind="profile v1", lm_eval_tasks=profile.get("lm_eval_tasks"))


def validate_profile(profile: Mapping[str, Any], source: str = "profile") -> dict[str, Any]:
    """Check a v2 (or v1) profile's shape; return it as a v2 dict."""
    schema = profile.get("schema")
    if schema not in (SCHEMA, SCHEMA_V1):
        raise ProfileError(f"{source}: expected \"schema\": \"{SCHEMA}\", got {schema!r}")
    sections = {"probes": profile} if schema == SCHEMA_V1 else profile.get("benchmarks")
    if not isinstance(sections, Mapping) or not sections:
        raise ProfileError(f"{source}: 'benchmarks' must map probes/legend to their regions")
    for bench, section in sections.items():
        regions = section.get("regions") if isinstance(section, Mapping) else None
        if not isinstance(regions, Mapping) or not regions:
            raise ProfileError(f"{source}: 'regions' must map a dimension to {{value: {{accuracy, n}}}}")
        for dim, values in regions.items():
            for value, c in values.items():
                acc = c.get("accuracy") if isinstance(c, Mapping) else None
                if not isinstance(acc, (int, float)) or not 0.0 <= acc <= 1.0:
                    raise ProfileError(f"{source}: {bench} regions.{dim}.{value}.accuracy must be in [0, 1], "
                                       f"got {acc!r}")
                if schema == SCHEMA_V1 and not isinstance(c.get("n", 0), int):
                    raise ProfileError(f"{source}: regions.{dim}.{value}.n must be an integer")
    return _upgrade_v1(profile, source) if schema == SCHEMA_V1 else dict(profile)


def section(profile: Mapping[str, Any], benchmark: str) -> dict[str, Any]:
    """One benchmark's section of a profile; a clear error naming those it has."""
    sections = profile.get("benchmarks", {})
    if benchmark not in sections:
        raise ProfileError(f"the profile has no {benchmark} rows (it has: {', '.join(sorted(sections)) or 'none'}); "
                           f"profile the model on chartprobe_{benchmark} tasks first")
    return sections[benchmark]


def region_cells(profile: Mapping[str, Any], benchmark: str, dimension: str) -> dict[str, dict[str, Any]]:
    """``{value: cell}`` of one dimension of one benchmark (what bottleneck selection consumes)."""
    cells = section(profile, benchmark).get("regions", {}).get(dimension)
    if not cells:
        have = sorted(section(profile, benchmark).get("regions", {}))
        raise ProfileError(f"the {benchmark} profile has no '{dimension}' regions (it has: {', '.join(have)})")
    return dict(cells)


def region_accuracy(profile: Mapping[str, Any], dimension: str, benchmark: str = "probes") -> dict[str, float]:
    """``{value: accuracy}`` of one dimension."""
    return {v: float(c["accuracy"]) for v, c in region_cells(profile, benchmark, dimension).items()}
