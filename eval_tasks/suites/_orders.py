"""Are a release's value orders exchangeable? Two release-level statistics against a random order.

A generator that often sorts its series lets "the answer is at an end of the axis" pass
rank questions without reading a mark. For the charts of a config (each counted once), the
observed share with the largest or smallest value at an end of the reading order must stay
within 1.3x of what a uniformly random order of the same values gives, and the share of
strictly monotone series within 3x of a random order's (2/n!). Charts drawn for a question
that needs a trend are left out by the caller. Both use the one-sided Wilson lower bound,
so a small release cannot fail by chance.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import fmean

from chartprobe.dataset_builders.probes.orders import is_monotone

from ._checks import share_check
from ._runs import Check

__all__ = ["EXTREME_FACTOR", "MONOTONE_FACTOR", "order_checks"]

EXTREME_FACTOR = 1.3
MONOTONE_FACTOR = 3.0


def _extreme_at_end(values: Sequence[float]) -> bool:
    hi, lo = max(values), min(values)
    return values[0] in (hi, lo) or values[-1] in (hi, lo)


def _random_extreme_share(n: int) -> float:
    """P(max or min at an end) under a uniformly random order of n distinct values."""
    return 1.0 if n <= 3 else 1.0 - (n - 2) * (n - 3) / (n * (n - 1))


def order_checks(scope: str, series: Sequence[Sequence[float]]) -> list[Check]:
    """The two checks over ``series`` (one value sequence per chart, in reading order)."""
    series = [list(s) for s in series if len(s) >= 2]
    if not series:
        return []
    ends = sum(map(_extreme_at_end, series))
    extreme_limit = EXTREME_FACTOR * fmean(_random_extreme_share(len(s)) for s in series)
    mono = sum(is_monotone(tuple(s)) for s in series)
    mono_limit = MONOTONE_FACTOR * fmean(2 / math.factorial(len(s)) if len(s) >= 3 else 0.0 for s in series)
    return [share_check("charts with an extreme at an end", scope, "-", ends, len(series), min(1.0, extreme_limit)),
            share_check("strictly monotone series", scope, "-", mono, len(series), mono_limit)]
