"""95% intervals beside every headline number of ``report.md``.

A headline metric (OA, RVC, CVA, legend QA, ChartProbe's per-skill macro, a judge's two-pass
accuracy) is a function of a whole set of records, not a mean of per-row scores. Its interval is
therefore a cluster bootstrap that recomputes the suite's headline on resampled records: whole
units (``Suite.unit_key``: a probe chart, a family, a legend base chart, a judge pair) drawn with
replacement, a unit drawn twice getting its own ids (so a family counted twice is two families),
and the 2.5th / 97.5th percentiles of the defined replicates. The RNG is local, seeded by
(seed, suite): the same records give the same interval. A draw is priced as its units' counts
times their additive headline statistics where the suite has them (1M probe records: seconds,
not minutes), and recomputed on its records otherwise; both give the same numbers.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from .compare import HeadlineEvaluator, finite_or_nan

__all__ = ["HEADLINE_RESAMPLES", "cell", "headline_intervals"]

HEADLINE_RESAMPLES = 400
"""Bootstrap draws per (model, suite): each recomputes every headline metric once (one draw serves
all metrics), so the cost is resamples x records; 400 puts the percentile bounds within about a
point of their limit at the sample sizes of the releases."""

Interval = tuple[float, float] | None


def headline_intervals(suite: Any, records: Sequence[Mapping[str, Any]], n_resamples: int = HEADLINE_RESAMPLES,
                       seed: int = 0, by_records: bool = False) -> dict[str, Interval]:
    """Headline metric -> (low, high) 95% percentile interval over ``suite``'s units; None where fewer
    than two units, or fewer than half the draws, define the metric.

    A draw's headline comes from summed unit statistics where the suite has them
    (:class:`~.compare.HeadlineEvaluator`); ``by_records`` recomputes it on the draw's relabelled
    records instead (the definition the fast path is tested against: same draws, same numbers)."""
    import numpy as np

    from ..metrics.bootstrap_sums import draw_counts

    per_unit: dict[str, list] = {}
    for r in records:
        per_unit.setdefault(suite.unit_key(r), []).append(r)
    units = [per_unit[u] for u in sorted(per_unit)]
    ev = HeadlineEvaluator(suite, units, records=by_records)
    observed = ev(np.arange(len(units)))
    out: dict[str, Interval] = dict.fromkeys(observed)
    if len(units) < 2:
        return out
    rng = np.random.default_rng([seed, zlib.crc32(suite.name.encode())])
    # the draws of n_resamples x rng.integers(0, units, units), as count vectors, a chunk at a time
    draws = [d for counts in draw_counts(rng, len(units), n_resamples) for d in ev.of_counts(counts)]
    for metric in observed:
        values = np.array([finite_or_nan(d.get(metric)) for d in draws])
        finite = values[np.isfinite(values)]
        if len(finite) >= n_resamples / 2:
            lo, hi = np.percentile(finite, [2.5, 97.5])
            out[metric] = (float(lo), float(hi))
    return out


def cell(value: Any, ci: Interval) -> Any:
    """A headline cell: "0.620 [0.51, 0.72]" (value and its interval), the bare value without one."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value) or ci is None:
        return value
    if abs(value) >= 10:  # a percentage (RVC)
        return f"{value:.1f} [{ci[0]:.1f}, {ci[1]:.1f}]"
    return f"{value:.3f} [{ci[0]:.2f}, {ci[1]:.2f}]"
