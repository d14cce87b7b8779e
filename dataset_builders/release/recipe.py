"""A release recipe as data: the :class:`Preset` dataclasses and the limits every preset obeys.

Kept apart from the YAML loader (``preset.py``) so the builder contract (``dataset.py``) can
name a ``Preset`` without importing the loader, which looks builders up to check params.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from .schema import check_int

__all__ = ["MAX_CONFIGS", "MAX_ITEMS_PER_RELEASE", "MAX_ITEMS_PER_SPLIT", "MAX_PRESET_BYTES", "MAX_SEED",
           "MAX_SPLITS", "ConfigPreset", "Preset"]

MAX_ITEMS_PER_SPLIT = 100_000
"""Most items (charts, families, groups, pairs) one split may ask for; a split's rows are its
items times the rows per item. The paper-scale presets ask for at most 1,003. Also bounds
``shard_size`` and every integer inside ``params`` (they are counts too)."""
MAX_ITEMS_PER_RELEASE = 1_000_000
"""Most items over all configs and splits of one preset."""
MAX_CONFIGS = 64
"""Most configs (Hub subsets) in one preset."""
MAX_SPLITS = 16
"""Most splits in one config."""
MAX_SEED = 2**63 - 1
"""Largest seed: rows store it in an ``int64`` column."""
MAX_PRESET_BYTES = 1 << 20
"""Largest preset file read (1 MiB; the bundled ones are under 2 KiB)."""

_PER_SPLIT, _PER_RELEASE = "MAX_ITEMS_PER_SPLIT", "MAX_ITEMS_PER_RELEASE"  # named in errors

@dataclass(frozen=True)
class ConfigPreset:
    """One dataset config (Hub "subset"): its splits with item counts and builder params."""

    splits: dict[str, int]
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Preset:
    """A whole release recipe."""

    dataset: str
    preset: str
    seed: int
    configs: dict[str, ConfigPreset]
    shard_size: int = 8  # still read and checked so older presets load; the build hands out single items

    def __post_init__(self) -> None:
        # Presets are also made in code (``build_release(seed=...)`` replaces the seed), not
        # only by load_preset: the two numbers every shard uses are re-checked here.
        check_int(self.seed, "seed", 0, MAX_SEED, "MAX_SEED")
        check_int(self.shard_size, "shard_size", 1, MAX_ITEMS_PER_SPLIT, _PER_SPLIT)

    def to_json(self) -> str:
        """Canonical JSON (recorded in the dataset card)."""
        return json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))

    def params(self, config: str) -> dict[str, Any]:
        """Builder parameters of ``config``."""
        return self.configs[config].params
