"""The image-statistics agent may not beat chance: accuracy and AUC per config, worst template apart.

The ``image_stats`` agent (``eval_tasks/validity/agents/image_stats.py``) is fit per config on
all its splits, so it is judged per config (its runs pooled over splits):

- **accuracy**: its gap over chance (per template the higher of the majority and the uniform
  rate, as for every shortcut agent, ``_shortcuts._chance``); fails when the gap's one-sided
  95% lower bound, cluster-robust over units, exceeds :data:`~._shortcuts.SHORTCUT_MARGIN`
  (5 points). The note gives accuracy and chance and the gap's two-sided 95% interval;
- **AUC** on two-answer templates: how well its probability of a template's first answer
  ranks the rows whose gold it is above those whose gold it is not, counting only pairs of rows
  of one template (so a template's answer prior alone reads .5). The interval is a cluster
  bootstrap over units (:data:`DRAWS` draws, seed 0, percentiles); fails when the one-sided 95%
  lower bound (5th percentile) exceeds :data:`AUC_LIMIT`;
- **worst template** (criterion for CPA): the accuracy gap of the template with the highest
  bound, Bonferroni-corrected over the config's templates, so a tell hidden in one flaw type
  shows even when the config as a whole is at chance.

Few units: the cluster-robust bound uses Student's t with G - 1 degrees of freedom and the CR1
factor sqrt(G / (G - 1)) for G units (a normal quantile over 4 base charts failed a small
legend build whose 2 "yes" charts happened to be the inkier ones), and a line over fewer than
:data:`MIN_UNITS` units is reported as info, not judged: no interval over so few is
trustworthy, which is why small presets are validated pooled over seeds (``--pool-seeds``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any

from ._checks import _gap_bound
from ._runs import Check, RunSet
from ._shortcuts import SHORTCUT_MARGIN, _chance, chance_levels
from ._verdict import info, verdict

__all__ = ["AGENT", "AUC_LIMIT", "DRAWS", "MIN_UNITS", "image_stats_checks", "stratified_auc"]

AGENT = "image_stats"
AUC_LIMIT = 0.55
MIN_UNITS = 10
"""Lines over fewer units than this are info: a bound over a handful of charts means nothing."""
DRAWS = 2000


def stratified_auc(scores: Sequence[float], positive: Sequence[bool], strata: Sequence[str],
                   units: Sequence[str], draws: int = DRAWS, seed: int = 0) -> tuple[float, Any] | None:
    """(AUC, its bootstrap replicates) over pairs of rows of one stratum (ties count half).

    Replicates resample units with replacement (every row of a drawn unit, as often as it was
    drawn); None when no stratum has both a positive and a negative row.
    """
    import numpy as np

    unit_ids = {u: i for i, u in enumerate(dict.fromkeys(units))}
    u = np.array([unit_ids[x] for x in units])
    rng = np.random.default_rng(seed)
    weights = np.vstack([np.ones(len(unit_ids)), rng.multinomial(len(unit_ids), [1 / len(unit_ids)] * len(unit_ids),
                                                                  size=draws)])
    num = np.zeros(draws + 1)
    den = np.zeros(draws + 1)
    s, p = np.asarray(scores, dtype=float), np.asarray(positive, dtype=bool)
    for stratum in sorted(set(strata)):
        idx = np.array([i for i, t in enumerate(strata) if t == stratum])
        if p[idx].all() or not p[idx].any():
            continue
        order = idx[np.argsort(s[idx], kind="stable")]
        _, starts = np.unique(s[order], return_index=True)
        w = weights[:, u[order]]
        pos = np.add.reduceat(w * p[order], starts, axis=1)
        neg = np.add.reduceat(w * ~p[order], starts, axis=1)
        below = np.cumsum(neg, axis=1) - neg
        num += (pos * (below + 0.5 * neg)).sum(axis=1)
        den += pos.sum(axis=1) * neg.sum(axis=1)
    if den[0] == 0:
        return None
    reps = num[1:][den[1:] > 0] / den[1:][den[1:] > 0]
    return float(num[0] / den[0]), reps


def _quantile(units: Sequence[str], alpha: float) -> float:
    """One-sided critical value at ``alpha`` for a cluster-robust SE over ``units``: t with G - 1
    degrees of freedom times the CR1 small-sample factor sqrt(G / (G - 1))."""
    from scipy.stats import t

    g = len(set(units))
    return float(t.ppf(1 - alpha, g - 1) * (g / (g - 1)) ** 0.5) if g > 1 else float("inf")


def _judged(line: Check, units: Sequence[str]) -> Check:
    """``line``, or an info line saying why not, when its rows come from fewer than :data:`MIN_UNITS` units."""
    g = len(set(units))
    if g >= MIN_UNITS:
        return line
    return info(f"{line.check} (not judged: {g} units < {MIN_UNITS}; pool seeds with --pool-seeds)",
                line.scope, line.agent, line.value, line.n)


def _auc_inputs(suite: Any, rows: Sequence[Mapping[str, Any]], scores: Sequence[Mapping[str, float] | None]
                ) -> tuple[list[float], list[bool], list[str], list[str]]:
    """Rows of two-answer templates: P(first answer), gold is first answer, template, unit."""
    out: tuple[list, list, list, list] = ([], [], [], [])
    for row, probs in zip(rows, scores):
        if not probs or len(probs) != 2 or str(row["answer"]) not in probs:
            continue
        first = min(probs)
        for lst, v in zip(out, (probs[first], str(row["answer"]) == first, suite.group_key(row), suite.unit_key(row))):
            lst.append(v)
    return out


def _pooled(suite: Any, runs: RunSet) -> dict[str, dict[str, list]]:
    """config -> rows, accuracies, chances, units and scores of the agent's runs over its splits."""
    cells: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for run in runs.by_agent(AGENT):
        if not run.records:
            continue
        cell = cells[run.config]
        cell["rows"] += run.rows
        cell["acc"] += [suite.accuracy(r) for r in run.records]
        cell["chance"] += _chance(suite, run.rows, *chance_levels(suite, runs, run.config, run.split))
        cell["units"] += [suite.unit_key(r) for r in run.rows]
        cell["scores"] += run.scores or [None] * len(run.rows)
    return cells


def image_stats_checks(suite: Any, runs: RunSet) -> list[Check]:
    """Accuracy over chance and AUC per config, and the worst template, of the ``image_stats`` agent."""
    out: list[Check] = []
    for config, cell in sorted(_pooled(suite, runs).items()):
        acc, chance, units = cell["acc"], cell["chance"], cell["units"]
        q = _quantile(units, 0.05)
        gap, bound = _gap_bound(acc, chance, units, z=q)
        half = (gap - bound) * _quantile(units, 0.025) / q
        out.append(_judged(verdict(
            "image_stats gap over chance", config, AGENT, gap, len(acc), op="<=", limit=SHORTCUT_MARGIN,
            signed=True, tested=bound, statistic="95% lower bound",
            note=f"acc {fmean(acc):.3f}, chance {fmean(chance):.3f}, gap 95% CI [{gap - half:+.3f}, {gap + half:+.3f}], "
                 f"{len(set(units))} units"), units))
        scores, positive, strata, auc_units = _auc_inputs(suite, cell["rows"], cell["scores"])
        auc = stratified_auc(scores, positive, strata, auc_units) if scores else None
        if auc is not None:
            import numpy as np

            value, reps = auc
            lo, lo2, hi2 = (float(np.quantile(reps, p)) for p in (0.05, 0.025, 0.975))
            out.append(_judged(verdict(
                "image_stats AUC", config, AGENT, value, len(scores), op="<=", limit=AUC_LIMIT, tested=lo,
                statistic="95% lower bound", note=f"within template; 95% CI [{lo2:.3f}, {hi2:.3f}], unit bootstrap"),
                auc_units))
        groups: dict[str, tuple[list, list, list]] = defaultdict(lambda: ([], [], []))
        for row, a, c, u in zip(cell["rows"], acc, chance, units):
            g = groups[suite.group_key(row)]
            g[0].append(a)
            g[1].append(c)
            g[2].append(u)
        alpha = 0.05 / len(groups)  # Bonferroni over the config's templates

        def bound_of(g: tuple[list, list, list], alpha: float = alpha) -> tuple[float, float]:
            return _gap_bound(*g, z=_quantile(g[2], alpha))

        judged = {k: g for k, g in groups.items() if len(set(g[2])) >= MIN_UNITS} or groups
        key, worst = max(judged.items(), key=lambda kv: (bound_of(kv[1])[1], len(kv[1][0])))
        g_gap, g_bound = bound_of(worst)
        out.append(_judged(verdict(
            "image_stats gap over chance, worst template", f"{config}:{key}", AGENT, g_gap, len(worst[0]), op="<=",
            limit=SHORTCUT_MARGIN, signed=True, tested=g_bound, statistic="Bonferroni 95% lower bound",
            note=f"{len(groups)} templates, acc {fmean(worst[0]):.3f}, chance {fmean(worst[1]):.3f}"), worst[2]))
    return out
