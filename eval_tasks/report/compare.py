"""``chartprobe report --compare A B``: paired model-vs-model differences with a test and an interval.

Both models answered the same release rows, so the comparison is paired over the suite's
independent unit (``Suite.unit_key``: a family, a legend base chart, a judge pair or CRJ item,
a probe chart). Per suite and per headline metric it reports the difference B − A on the units
both models cover, and

- a two-sided p-value from a paired sign-flip permutation test: under "no difference" the two
  models' records of a unit are exchangeable, so each resample swaps A and B on a random subset
  of units (``scipy.stats.permutation_test``, ``permutation_type="samples"``; exact enumeration
  when 2^units ≤ the resample count);
- a 95% percentile bootstrap interval: units drawn with replacement, the same draw for both
  models (``scipy.stats.bootstrap``, ``paired=True``).

Each resample recomputes the suite's headline metric on the resampled records, so ratios and
conditional metrics (RVC, CVA, F1) are tested as defined, not as means of per-unit scores. RNGs
are local and seeded by (seed, suite), so a report is reproducible.
"""

from __future__ import annotations

import math
import warnings
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..rescoring.predictions import PredictionsError

__all__ = ["ALPHA", "COMPARE_RESAMPLES", "HeadlineEvaluator", "MetricDiff", "compare_models", "finite_or_nan",
           "headline_of"]

ALPHA = 0.05
COMPARE_RESAMPLES = 999
"""Permutations and bootstrap draws per suite. Every draw recomputes the headline metrics on the
resampled records (cost: resamples x records), so this is smaller than the sign-flip test's
9,999; with fewer than 10 units the permutation test is exact anyway."""
SEED = 0
_ID_FIELDS = ("id", "row_id", "family_id", "group_id", "base_id", "chain_id", "pair_id", "item_id", "chart_id")
"""Record fields metrics group by: a unit drawn twice by the bootstrap gets distinct ones per copy."""

Record = Mapping[str, Any]


def _families_headline(suite: Any, records: Sequence[Record]) -> dict[str, float | None]:
    """FamiliesSuite.headline(summarize(...)) without the summary's own 9,999-resample sign-flip test."""
    from ..metrics import families as fm

    members = [r for r in records if not r.get("resolution")]  # as FamiliesSuite.summarize
    oa, ra, va = (fm.accuracy(members, role) for role in ("original", "reconstruction", "variant"))
    summary = {"OA": oa, "RA": ra, "VA": va, "RVC": fm.relative_change(va, oa), "RVC_R": fm.relative_change(va, ra),
               "CVA": fm.conditional_variant_accuracy(members), **fm.update_outcomes(members)}
    return suite.headline(summary)


def _legend_headline(suite: Any, records: Sequence[Record]) -> dict[str, float | None]:
    """LegendSuite.headline(summarize(...)) from the profile alone (the studies are not headline numbers)."""
    from ..metrics import legend as lm

    snapshot = [r for r in records if not r.get("study_factor")]  # as legend_studies.summary
    return suite.headline(lm.profile(snapshot or records))


_FAST_HEADLINES: dict[str, Callable[[Any, Sequence[Record]], dict[str, float | None]]] = {
    "families": _families_headline, "legend": _legend_headline}
"""Suites whose full summary costs far more than its headline; tests hold them equal to it."""


def headline_of(suite: Any, records: Sequence[Record]) -> dict[str, float | None]:
    """The suite's headline numbers over ``records`` (what the report's comparison table shows)."""
    fast = _FAST_HEADLINES.get(suite.name)
    return fast(suite, records) if fast else suite.headline(suite.summarize(records))


@dataclass(frozen=True)
class MetricDiff:
    """One headline metric compared: values, B − A, its 95% interval and paired-test p-value."""

    a: float | None
    b: float | None
    diff: float | None
    ci95: tuple[float | None, float | None]
    p_value: float | None
    significant: bool
    exact: bool
    """True when the permutation test enumerated every sign flip."""


def _row_key(r: Record) -> Any:
    return r.get("row_id") if r.get("row_id") is not None else (r.get("task"), r.get("doc_id"))


def _units(suite: Any, a: Sequence[Record], b: Sequence[Record]) -> tuple[list[str], list[list], list[list]]:
    """Shared units and, per unit, each model's records of the rows both models answered."""
    ra = {_row_key(r): r for r in a}  # one record per row: the last wins, as in the report
    rb = {_row_key(r): r for r in b}
    per_a: dict[str, list] = {}
    per_b: dict[str, list] = {}
    for key, rec in ra.items():
        if key in rb:
            unit = suite.unit_key(rec)
            per_a.setdefault(unit, []).append(rec)
            per_b.setdefault(unit, []).append(rb[key])
    units = sorted(per_a)
    return units, [per_a[u] for u in units], [per_b[u] for u in units]


class HeadlineEvaluator:
    """Headline metrics of a multiset of units, memoized: every metric's test reuses one resampling.

    Where the suite has additive :meth:`~chartprobe.eval_tasks.suites._base.Suite.headline_stats`, a
    multiset's headline is ``headline_from_stats`` of its units' statistics times their counts;
    otherwise (or with ``records=True``) it is recomputed on the multiset's records, a unit drawn
    ``j`` + 1 times adding ``j`` relabelled copies. Tests hold the two paths equal for every suite.
    """

    def __init__(self, suite: Any, units: list[list[Record]], records: bool = False) -> None:
        self.suite, self.units = suite, units
        self._cache: dict[bytes, dict[str, float | None]] = {}
        self._sums = None if records or not units else suite.headline_stats_matrix(units)

    def __call__(self, idx: Any) -> dict[str, float | None]:
        import numpy as np

        idx = np.asarray(idx, dtype=np.int64)
        key = idx.tobytes()
        if key not in self._cache:
            self._cache[key] = (self.of_counts(np.bincount(idx, minlength=len(self.units))[None])[0]
                                if self._sums is not None else self._of_records(idx.tolist()))
        return self._cache[key]

    def of_counts(self, counts: Any) -> list[dict[str, float | None]]:
        """The headline of each row of ``counts`` (units x how often each is drawn), in row order."""
        import numpy as np

        from ..metrics.bootstrap_sums import totals

        if self._sums is None:
            return [self._of_records(np.repeat(np.arange(len(self.units)), row).tolist()) for row in counts]
        keys, matrix = self._sums
        return [self.suite.headline_from_stats(dict(zip(keys, row))) for row in totals(counts, matrix).tolist()]

    def _of_records(self, idx: list[int]) -> dict[str, float | None]:
        records, copies = [], {}
        for k in idx:
            j = copies[k] = copies.get(k, -1) + 1
            records += self.units[k] if j == 0 else [_relabel(r, j) for r in self.units[k]]
        return headline_of(self.suite, records)


def _relabel(record: Record, copy: int) -> dict[str, Any]:
    """A bootstrap duplicate of a unit's record: its own ids, so metrics see a second unit, not a merge.
    An empty id stays empty, as :func:`~chartprobe.eval_tasks.metrics.bootstrap.relabel_fields` keeps it:
    it means "none" (a legend row in no chain has ``chain_id == ""``), and a copy must not make it a chain."""
    return {**record, **{f: f"{record[f]}#{copy}" for f in _ID_FIELDS if record.get(f) not in (None, "")}}


def finite_or_nan(v: Any) -> float:
    """A headline value as a float, NaN when it is undefined (None, a bool, an infinity)."""
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) else math.nan


def _p_from_null(null: Any, observed: float, exact: bool) -> float:
    """scipy's two-sided p over the defined part of a null distribution (a resample can leave a ratio undefined)."""
    import numpy as np

    null = null[np.isfinite(null)]
    gamma = abs(1e-14 * observed)
    adj = 0 if exact else 1
    less = (np.sum(null <= observed + gamma) + adj) / (len(null) + adj)
    greater = (np.sum(null >= observed - gamma) + adj) / (len(null) + adj)
    return float(min(1.0, 2 * min(less, greater)))


def _suite_diffs(suite: Any, a: Sequence[Record], b: Sequence[Record], n_resamples: int,
                 seed: int) -> dict[str, Any]:
    import numpy as np
    from scipy.stats import DegenerateDataWarning, bootstrap, permutation_test

    names, units_a, units_b = _units(suite, a, b)
    n = len(names)
    ev = HeadlineEvaluator(suite, units_a + units_b)  # index k < n: A's unit k; k >= n: B's unit k - n
    ia, ib = np.arange(n), np.arange(n) + n
    va, vb = ev(ia), ev(ib)
    metrics = [m for m in vb if not math.isnan(finite_or_nan(va.get(m)) - finite_or_nan(vb[m]))]
    # a metric undefined for either model (CVA when no original is solved) is shown, not tested
    out: dict[str, Any] = {"units": n, "metrics": {
        m: asdict(MetricDiff(va.get(m), vb.get(m), None, (None, None), None, False, False)) for m in vb}}
    if n < 2 or not metrics:
        return out
    rng_seed = [seed, zlib.crc32(suite.name.encode())]  # the same draws for every metric: the cache hits
    with warnings.catch_warnings():  # a metric constant over the draws (0 vs 0) is an answer, not a problem
        warnings.simplefilter("ignore", DegenerateDataWarning)
        boot = bootstrap((ia, ib),
                         lambda x, y: np.array([finite_or_nan(ev(y).get(m)) - finite_or_nan(ev(x).get(m))
                                                for m in metrics]),
                         paired=True, vectorized=False, n_resamples=n_resamples, method="percentile",
                         rng=np.random.default_rng(rng_seed)).bootstrap_distribution
    boot = np.atleast_2d(boot)
    for i, m in enumerate(metrics):
        observed = finite_or_nan(vb[m]) - finite_or_nan(va[m])
        res = permutation_test((ia, ib),
                               lambda x, y, m=m: finite_or_nan(ev(y).get(m)) - finite_or_nan(ev(x).get(m)),
                               permutation_type="samples", vectorized=False, n_resamples=n_resamples,
                               alternative="two-sided", rng=np.random.default_rng(rng_seed))
        exact = len(res.null_distribution) == 2 ** n
        p = float(res.pvalue) if np.isfinite(res.null_distribution).all() \
            else _p_from_null(res.null_distribution, observed, exact)
        finite = boot[i][np.isfinite(boot[i])]
        lo, hi = (float(v) for v in np.percentile(finite, [2.5, 97.5])) if len(finite) else (None, None)
        out["metrics"][m] = asdict(MetricDiff(va[m], vb[m], observed, (lo, hi), p, p < ALPHA, exact))
    return out


def compare_models(merged: Mapping[str, Mapping[str, Sequence[Record]]], a: str, b: str,
                   n_resamples: int = COMPARE_RESAMPLES, seed: int = SEED) -> dict[str, Any]:
    """B − A per suite both models have and per headline metric (see the module docstring).

    ``merged`` is model -> suite -> scored records (:func:`~chartprobe.eval_tasks.rescoring.results.load_results`).
    A model that is not there, or two models without a suite in common, is a PredictionsError.
    Only the test split is compared (``split`` in the result); other splits' records are dropped.
    """
    from ..suites import suite_for_release
    from ..suites._splits import HEADLINE_SPLIT, headline_records

    for name in (a, b):
        if name not in merged:
            raise PredictionsError(f"--compare: no model {name!r} in the results (models: {', '.join(sorted(merged))})")
    shared = sorted(set(merged[a]) & set(merged[b]))
    if not shared:
        raise PredictionsError(f"--compare: {a} and {b} have no suite in common")
    # The test split alone: validation tasks scored into the same folder never enter a comparison.
    suites = {s: _suite_diffs(suite_for_release(s), headline_records(merged[a][s]), headline_records(merged[b][s]),
                              n_resamples, seed) for s in shared}
    return {"a": a, "b": b, "alpha": ALPHA, "n_resamples": n_resamples, "seed": seed, "split": HEADLINE_SPLIT,
            "test": "paired sign-flip permutation test over the suite's units (two-sided), "
                    "95% percentile bootstrap interval over units",
            "suites": suites}


def compare_markdown(comparison: Mapping[str, Any], table: Callable[..., str]) -> list[str]:
    """The report.md section of a comparison (``table`` is the report's markdown table writer)."""
    a, b = comparison["a"], comparison["b"]
    parts = [f"## Comparison: {b} − {a}", "",
             (f"Difference B − A ({b} minus {a}) on the units both answered; p from a paired sign-flip "
              f"permutation test ({comparison['n_resamples']} resamples, exact for few units), 95% "
              f"bootstrap interval; * marks p < {comparison['alpha']}."), ""]
    for suite, entry in comparison["suites"].items():
        rows = []
        for m, d in entry["metrics"].items():
            lo, hi = d["ci95"]
            ci = f"[{lo:+.3f}, {hi:+.3f}]" if lo is not None else None
            diff = f"{d['diff']:+.3f}{' *' if d['significant'] else ''}" if d["diff"] is not None else None
            rows.append([m, d["a"], d["b"], diff, ci, d["p_value"]])
        scored = entry.get("scorers") or {}  # set by the report (:mod:`chartprobe.eval_tasks.rescoring.scorers`)
        note = ([("**Mixed scorers:** " if entry.get("mixed_scorers") else "Scored by: ")
                 + "; ".join(f"{m}: {d}" for m, d in scored.items()), ""] if scored else [])
        parts += [f"### {suite} ({entry['units']} units)", "", *note,
                  table(["metric", a, b, "B − A", "95% CI", "p"], rows), ""]
    return parts
