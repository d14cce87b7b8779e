"""Fresh private test sets: are releases built with other ``--seed`` values the same test?

LegendBench names contamination through public generators as a limit of frozen snapshots.
``chartprobe build NAME --preset P --seed S`` gives a release with the same configs, splits
and mixes but new data; a private leaderboard keeps its seed secret. This module checks that
such releases (``chartprobe validate --across-seeds A B C``) measure the same thing:

* **mix** (per config/split): the counts of templates (``template_id``, where the rows have
  one) over distinct (chart, question), answer types over distinct (chart, answer type) and chart kinds (a
  ``chart_kind`` column, else the spec's ``kind``; shape scenes count as ``scene``) over distinct
  charts, are homogeneous across seeds: a
  chi-square test per axis, pass at p >= 0.05 for the smallest, Bonferroni-adjusted over the axes.
  Whether the
  counts are *identical* is reported beside it (``seed mix exact``, info): builders that
  pick templates by what each chart supports (probes) do not fix the counts per seed;
* **fresh** (per config/split): no row of a later seed repeats an earlier seed's specs
  (every ``spec*`` column) and question;
* **agreement** (per agent and config, splits pooled): every reference agent's accuracy on
  each seed, over distinct questions (a style-shift question's drawings averaged), has a 95% Wilson interval, and all the seeds' intervals overlap (the largest
  lower bound is at most the smallest upper bound), i.e. no seed is measurably easier.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from statistics import fmean
from typing import Any

from ..rescoring.predictions import PredictionsError, load_release_rows, read_release_card
from ..suites import suite_for_release
from ..suites._base import Check
from .agents import AGENTS
from .validate import ValidityReport, release_dataset, run_agents

__all__ = ["mix_of", "seed_check"]


def _kind(spec: str) -> str:
    try:
        return str(json.loads(spec).get("kind") or "scene")
    except (TypeError, ValueError, AttributeError):
        return "unparsed"


def mix_of(rows: Sequence[dict[str, Any]]) -> Counter:
    """The (axis, value) counts the seeds must share: template per distinct (chart, question); chart kind per distinct
    chart and answer type per distinct (chart, answer type). A chart's questions share its kind,
    and its categories decide some answer types (a pie of years answers "year" where a pie of
    countries answers "label"): counting rows would treat a chart's questions as independent
    draws, and three validation pies failed the test on one chart's topic."""
    mix: Counter = Counter()
    charts: dict[tuple, str] = {}
    typed: set[tuple[tuple, str]] = set()
    asked: set[tuple] = set()
    for r in rows:
        chart = _chart(r)
        if "template_id" in r and (chart, r["template_id"], r.get("question")) not in asked:
            asked.add((chart, r["template_id"], r.get("question")))
            mix["template", str(r["template_id"])] += 1
        typed.add((chart, str(r.get("answer_type", ""))))
        charts[chart] = str(r["chart_kind"]) if r.get("chart_kind") else _kind(r.get("spec", ""))
    for kind in charts.values():
        mix["chart kind", kind] += 1
    for _, answer_type in typed:
        mix["answer type", answer_type] += 1
    return mix


def _chart(row: dict[str, Any]) -> tuple:
    """The chart a row asks about: its specs, or for a style-shift drawing the base chart every
    style redraws (six drawings of one question are one draw of the mix, not six)."""
    if row.get("style"):
        return ("drawn", str(row.get("chart_id") or row.get("group_id")))
    return _specs(row)


def _specs(row: dict[str, Any]) -> tuple:
    """Every spec a row carries (``spec``; judge rows: ``spec_better``/``spec_worse``...): its charts."""
    return tuple(sorted((k, str(v)) for k, v in row.items() if k.startswith("spec") and v))


MIX_ALPHA = 0.05


def _homogeneity(mixes: list[Counter]) -> float:
    """The smallest p-value, over the axes, of a chi-square test that the seeds share one mix,
    Bonferroni-adjusted for the number of axes tested (1.0 where the counts are identical or an
    axis has one category). Unadjusted, the smallest of k p-values falls under 0.05 about k times
    as often as one does: three fresh seeds of an unchanged preset failed on chance alone."""
    from scipy.stats import chi2_contingency

    p, tested = 1.0, 0
    for axis in {a for m in mixes for a, _ in m}:
        cats = sorted({v for m in mixes for a, v in m if a == axis})
        table = [[m[axis, v] for v in cats] for m in mixes]
        if len(cats) > 1 and any(row != table[0] for row in table):
            p, tested = min(p, float(chi2_contingency(table).pvalue)), tested + 1
    return min(1.0, p * max(1, tested))


def _recipe(release: Path) -> tuple[str, str, dict, int]:
    block = read_release_card(release)["chartprobe"]
    recipe = block.get("recipe") or block.get("preset") or {}
    if isinstance(recipe, str):
        recipe = json.loads(recipe)
    configs = {c: v.get("splits") for c, v in (recipe.get("configs") or {}).items()}
    return block["dataset"], str(recipe.get("preset", "")), configs, int(recipe.get("seed", block.get("seed", -1)))


def _checked(releases: Sequence[str | Path], flag: str = "--across-seeds") -> list[Path]:
    paths = [Path(r) for r in releases]
    if len(paths) < 2:
        raise PredictionsError(f"{flag}: give at least two releases of one preset built with different --seed")
    recipes = [_recipe(p) for p in paths]
    for path, (dataset, preset, configs, _) in zip(paths[1:], recipes[1:], strict=True):
        if (dataset, preset, configs) != recipes[0][:3]:
            raise PredictionsError(f"{flag}: {path} is not the same dataset, preset and splits as {paths[0]}")
    seeds = [r[3] for r in recipes]
    if len(set(seeds)) != len(seeds):
        raise PredictionsError(f"{flag}: the releases must have different seeds, got {seeds}")
    return paths


def _interval(correct: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Two-sided Wilson interval of ``correct`` of ``n`` (fractional scores rounded)."""
    from scipy.stats import binomtest

    ci = binomtest(min(n, round(correct)), n).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def agreement_checks(pooled: dict[tuple[str, str], list[tuple[float, int]]]) -> list[Check]:
    """Per (agent, config): do the seeds' Wilson intervals of accuracy overlap?

    ``pooled`` maps (agent, config) to (summed score, rows) per seed. The intervals are
    family-wise 95% (Bonferroni over every pair compared): a release check runs ~13 agents on
    every config, and uncorrected intervals fail by chance alone on some pair (a small probes
    build did: the random agent on bar, 0.10 apart on ~200 rows a seed).
    """
    compared = {key: per_seed for key, per_seed in sorted(pooled.items()) if all(n for _, n in per_seed)}
    confidence = 1 - 0.05 / max(1, len(compared))
    rule = f"{confidence:.2%} intervals of every seed overlap (95% Bonferroni over {len(compared)})"
    out = []
    for (agent, config), per_seed in compared.items():
        bounds = [_interval(k, n, confidence) for k, n in per_seed]
        accs = [k / n for k, n in per_seed]
        gap = max(lo for lo, _ in bounds) - min(hi for _, hi in bounds)
        out.append(Check("seed agreement", config, agent, max(accs) - min(accs), rule, sum(n for _, n in per_seed),
                         "pass" if gap <= 0 else "fail", tested=gap, statistic="max lower - min upper", op="<="))
    return out


def seed_check(releases: Sequence[str | Path], agents: Sequence[str] | None = None) -> ValidityReport:
    """Mix, freshness and agent-agreement checks over releases that differ only in their seed."""
    paths = _checked(releases)
    dataset = release_dataset(paths[0])
    suite = suite_for_release(dataset)
    rows = [load_release_rows(p) for p in paths]
    checks: list[Check] = []
    for key in sorted(rows[0]):
        scope = "/".join(key)
        mixes = [mix_of(r.get(key, [])) for r in rows]
        differ = sum(1 for item in set().union(*mixes) if len({m[item] for m in mixes}) > 1)
        checks.append(Check("seed mix exact", scope, "–", float(differ), "categories whose count differs (info)",
                            len(rows[0][key]), "info"))
        p = _homogeneity(mixes)
        checks.append(Check("seed mix", scope, "–", p, "chi-square homogeneity p >= 0.05 (min over axes, Bonferroni-adjusted)",
                            len(rows[0][key]), "pass" if p >= MIX_ALPHA else "fail", tested=p, op=">="))
        seen: set[tuple[tuple, str]] = set()
        repeats = 0
        for r in rows:
            pairs = {(_specs(x), str(x.get("question", ""))) for x in r.get(key, [])}
            repeats += len(pairs & seen)
            seen |= pairs
        checks.append(Check("seed fresh", scope, "–", float(repeats), "= 0 rows repeated across seeds",
                            sum(len(r.get(key, [])) for r in rows), "pass" if repeats == 0 else "fail"))
    if agents is None:  # learned agents are judged on seeds pooled, not compared seed by seed
        agents = [name for name, cls in AGENTS.items() if not cls.learned]
    runs = [run_agents(dataset, r, agents) for r in rows]
    pooled: dict[tuple[str, str], list[tuple[float, int]]] = {}
    for i, runset in enumerate(runs):
        for (agent, config, _split), run in sorted(runset.runs.items()):
            # one question drawn in several styles is one trial (its drawings' mean), as in validate
            units: dict[Any, list[float]] = {}
            for n, (row, rec) in enumerate(zip(run.rows, run.records)):
                unit = suite.answer_unit(row)
                units.setdefault(("row", n) if unit is None else unit, []).append(suite.accuracy(rec))
            entry = pooled.setdefault((agent, config), [(0.0, 0)] * len(runs))
            entry[i] = (entry[i][0] + sum(fmean(v) for v in units.values()), entry[i][1] + len(units))
    checks += agreement_checks(pooled)
    return ValidityReport(" + ".join(p.name for p in paths) + " (across seeds)", dataset, checks)
