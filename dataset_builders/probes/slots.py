"""Which hash class of its data table a chart of each split must fall in, and the sampler that
redraws until it does: no two splits (nor the held-out sets) can share a data table, whatever the
worker count."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..core.rng import rng_for

__all__ = ["data_table", "sample_in_slot", "split_slot", "table_slot"]

_SLOTS = {"train": 0, "validation": 1, "test": 2}
"""Charts of different splits (and the CR sets, slot 3) live in disjoint hash classes of their
data table, so no two splits can ever share a table, whatever the worker count."""
_N_SLOTS = 4


def split_slot(split: str, held_out: bool) -> int:
    return _N_SLOTS - 1 if held_out else _SLOTS.get(split, _N_SLOTS - 1)


def table_slot(spec: Any) -> int:
    """Hash class of a spec's data table (stable across processes: BLAKE2b of canonical JSON)."""
    text = json.dumps(data_table(spec.to_dict()), sort_keys=True)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little") % _N_SLOTS


def sample_in_slot(domain: Any, seed: int, key: str, tier: str, slot: int, order: str = "shuffled",
                    accept: Any = None) -> Any:
    """Rejection-sample until the data table falls in the split's hash class (~4 draws;
    sampling is cheap next to rendering) and ``accept(spec)`` holds."""
    for attempt in range(1000):
        spec = domain.sample(rng_for(seed, key, "spec", attempt), tier, order)
        if table_slot(spec) == slot and (accept is None or accept(spec)):
            return spec
    raise RuntimeError(f"{key}: no data table in hash class {slot} after 1000 draws")


def data_table(spec: dict[str, Any]) -> Any:
    """The part of a stored spec that is 'the data': chart data, or scene objects."""
    return spec.get("data", spec.get("objects"))
