"""Out-of-sample fitting for agents that learn a rule: never fit on the rows they answer.

An agent that learns (which end of the axis holds the answer, which image size goes with
Accept) is fit on the config's other splits; where a config has a single split it is
cross-fitted on two halves split by *unit* (chart, family, pair), each half answered by
the rule learnt on the other, so no row is answered by a rule that saw its own unit.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

__all__ = ["cross_fit", "majority", "unit_half"]

Row = Mapping[str, Any]
Model = TypeVar("Model")


def unit_half(unit: str) -> int:
    """0 or 1, a stable hash of the unit key (independent of row order and process)."""
    return hashlib.sha256(unit.encode("utf-8")).digest()[0] & 1


def majority(counts: Counter) -> str | None:
    """The most common key, ties broken by sort order (None when empty)."""
    live = [(k, c) for k, c in counts.items() if c > 0]
    return min(live, key=lambda kv: (-kv[1], kv[0]))[0] if live else None


def cross_fit(suite: Any, rows: Sequence[Row], fit_rows: Sequence[Row],
              fit: Callable[[Sequence[Row]], Model],
              predict: Callable[[Model, Row], str | None]) -> list[str | None]:
    """``predict(fit(train), row)`` for every row, with train = ``fit_rows`` or the other half."""
    if fit_rows:
        model = fit(fit_rows)
        return [predict(model, r) for r in rows]
    halves: tuple[list[int], list[int]] = ([], [])
    for i, r in enumerate(rows):
        halves[unit_half(suite.unit_key(r))].append(i)
    out: list[str | None] = [None] * len(rows)
    for h in (0, 1):
        model = fit([rows[i] for i in halves[1 - h]])
        for i in halves[h]:
            out[i] = predict(model, rows[i])
    return out
