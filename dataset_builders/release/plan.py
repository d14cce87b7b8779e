"""The order a build makes its splits in: generated ones first, in one stream, then derived ones.

A config that the builder derives from another (:meth:`DatasetBuilder.derived_from`) must
wait for its source; every other split is independent. So a build queues all the independent
splits' items to the pool at once (no pool waits at a split boundary), then derives the rest;
a split whose derivation is refused (it asks for items its source lacks) is generated after
all, still on the same pool. ``--shard i/N`` builds only the independent splits, each
restricted to its ``i``-th key range; ``chartprobe merge`` derives the rest over the whole.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .pool import SplitJob, build_splits, total_items
from .recipe import Preset

__all__ = ["complete", "datasets_bars_off", "generate", "key_range", "split_steps"]


def split_steps(builder: Any, recipe: Preset) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """``(generated, derived)`` config/split steps, each in preset order."""
    generated, derived = [], []
    for config, cp in recipe.configs.items():
        for split in cp.splits:
            source = builder.derived_from(config)
            has_source = source in recipe.configs and split in recipe.configs[source].splits
            (derived if has_source and source != config else generated).append((config, split))
    return generated, derived


def key_range(keys: list[str], shard: tuple[int, int] | None) -> list[str]:
    """The ``i``-th of ``n`` contiguous, near-equal ranges of ``keys`` (all of them for None)."""
    if shard is None:
        return keys
    i, n = shard
    return keys[len(keys) * i // n: len(keys) * (i + 1) // n]


def _progress(total: int, builder: Any, show: bool) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=f"building {builder.repo_name}", unit="item", disable=not show)


def generate(builder: Any, recipe: Preset, steps: list[tuple[str, str]], run: Any, cache_dir: Path, *,
             shard: tuple[int, int] | None = None, progress: bool = False) -> dict[str, dict[str, Any]]:
    """Generate ``steps`` through ``run`` (``pool.item_pool``); ``config -> split -> Dataset``."""
    jobs = [SplitJob(c, s, tuple(key_range(builder.item_keys(recipe, c, s), shard))) for c, s in steps]
    with _progress(total_items(jobs), builder, progress) as bar:
        made = build_splits(run, jobs, builder.features, cache_dir, progress=bar)
    built: dict[str, dict[str, Any]] = {}
    for (config, split), ds in made.items():
        built.setdefault(config, {})[split] = ds
    return built


def complete(builder: Any, recipe: Preset, built: dict[str, dict[str, Any]], later: list[tuple[str, str]],
             run: Any, cache_dir: Path, *, progress: bool = False) -> dict[str, dict[str, Any]]:
    """``built`` plus the ``later`` (derived) steps, in preset order.

    Each is derived from what is built; one the builder cannot derive is generated.
    """
    missing = []
    for config, split in later:
        ds = builder.derive(recipe, config, split, built)
        if ds is None:
            missing.append((config, split))
        else:
            built.setdefault(config, {})[split] = ds
    if missing:
        for config, splits in generate(builder, recipe, missing, run, cache_dir, progress=progress).items():
            built.setdefault(config, {}).update(splits)
    return {c: {s: built[c][s] for s in cp.splits} for c, cp in recipe.configs.items()}


@contextlib.contextmanager
def datasets_bars_off() -> Iterator[None]:
    """``datasets``' own bars (per parquet file, per ``select``) off for the block: the build's
    item bar is the one that says how far it is; restored after."""
    from datasets.utils.logging import disable_progress_bar, enable_progress_bar, is_progress_bar_enabled

    was_enabled = is_progress_bar_enabled()
    disable_progress_bar()
    try:
        yield
    finally:
        if was_enabled:
            enable_progress_bar()
