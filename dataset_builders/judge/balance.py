"""CRJ class balance: Accept on 50% ± 5% of a task's items, or as near half as the count allows."""

from __future__ import annotations

__all__ = ["BALANCE_TOLERANCE", "balance_limits"]

BALANCE_TOLERANCE = 0.05


def balance_limits(n: int, tolerance: float = BALANCE_TOLERANCE) -> tuple[float, float]:
    """The Accept shares a task of ``n`` items may have: 0.5 ± ``tolerance``, widened to half an
    item where that is wider. Nine items can hold 4 or 5 Accepts, 44.4% or 55.6%, never 50% ± 5%:
    the small preset's 10 reproduction items fail that whenever one item is dropped as unverifiable
    (``chartprobe build judge --seed 4``), though no count could be nearer half."""
    half_width = max(tolerance, 0.5 / n) if n else tolerance
    return 0.5 - half_width, 0.5 + half_width
