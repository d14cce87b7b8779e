"""One worker pool per build, fed item by item, writing each split to an Arrow file as it arrives.

``Dataset.from_generator`` started a pool per split (15 for probes) and gave each worker a
fixed contiguous block of shards, so a build on 2 cores topped out at about 1.5x and paid
for a process start per split. Here one pool serves every config and split of a build: its
workers are forked once, after matplotlib, the fonts and the builders are loaded in the
parent (so they start warm), and they take one *item* at a time (``imap``, chunk size 1),
so a slow chart never leaves the other worker idle behind a fixed block. A process that has
already drawn with Vega cannot fork (:mod:`..core.vega.runtime`): its workers come from a fork
server instead, a fresh process that imports the builders once and then forks every later
pool's workers warm (spawned workers imported everything anew in every build: 0.88x the CPU
with the fork server on small builds, ``benchmarks/pool_start.py``).

Results come back in submission order, so the rows, their order and the content hash never
depend on the number of processes. The parent encodes each row with the split's features
into an Arrow file in the work folder (memory-mapped afterwards: peak memory does not grow
with the release). Ctrl-C: workers ignore SIGINT (``commands._workers_ignore_ctrl_c``) and
the parent terminates the pool on any exit.
"""

from __future__ import annotations

import contextlib
import multiprocessing
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .dataset import DATASETS
from .preset import ConfigPreset, Preset

__all__ = ["ItemFailed", "SplitJob", "build_splits", "item_pool", "preset_from_json", "preset_to_json",
           "total_items", "warm"]


@dataclass(frozen=True)
class SplitJob:
    """One config/split to generate, with the item keys it is made of (in release order)."""

    config: str
    split: str
    keys: tuple[str, ...]


class ItemFailed(RuntimeError):
    """A builder raised while building one item; the message names the split, the item and the error."""


_WORKER: dict[str, Any] = {}
"""Per worker process: the dataset builder and the parsed preset, made once by the pool's
initializer and reused for every item."""


def preset_to_json(preset: Preset) -> str:
    """``preset`` as JSON in its own order (``Preset.to_json`` sorts: a card's canonical form),
    so configs and splits come back in preset order: how workers and shard manifests carry it."""
    import json
    from dataclasses import asdict

    return json.dumps(asdict(preset))


def preset_from_json(text: str) -> Preset:
    """The :class:`Preset` :func:`preset_to_json` (or ``Preset.to_json``) wrote."""
    import json

    raw = json.loads(text)
    raw["configs"] = {k: ConfigPreset(**v) for k, v in raw["configs"].items()}
    return Preset(**raw)


def _setup(dataset: str, preset_json: str) -> None:
    """A worker's initializer: make its builder and preset."""
    _WORKER.update(builder=DATASETS.get(dataset)(), preset=preset_from_json(preset_json))


def _rows(builder: Any, preset: Preset, task: tuple[str, str, str]) -> list[dict]:
    config, split, key = task
    try:
        return list(builder.build_item(preset, config, split, key))
    except Exception as exc:  # noqa: BLE001 - any builder error: named here, where the item is known
        raise ItemFailed(f"{config}/{split} item {key!r}: {type(exc).__name__}: {exc}") from None


def _build_item(task: tuple[str, str, str]) -> list[dict]:
    """Every row of one item, in a worker (top level, so the pool can pickle it)."""
    return _rows(_WORKER["builder"], _WORKER["preset"], task)


def warm() -> None:
    """Load what every render needs before forking, so each worker starts warm and shares it."""
    from matplotlib import font_manager  # renders draw on FigureCanvasAgg: no backend switch needed

    from ..core import render  # noqa: F401  (the renderer and the chart kinds it registers)

    font_manager.findfont(font_manager.FontProperties())  # builds/loads the font cache once


def _start_method() -> str:
    """``fork`` (warm workers) unless this platform lacks it or this process has started Vega's
    runtime, whose threads a forked worker would not have (it would wait on them for ever); then
    ``forkserver`` (a clean process, started once, forks the workers), else ``spawn``."""
    from ..core.vega.runtime import start_method

    return start_method()


def _context(method: str, dataset: str) -> Any:
    """The multiprocessing context of ``method``; a fork server is told to import the pool and the
    dataset's builder when it starts (once per process: later pools fork from it already warm)."""
    ctx = multiprocessing.get_context(method)
    if method == "forkserver":
        ctx.set_forkserver_preload([__name__, DATASETS.get(dataset).__module__, "matplotlib.backends.backend_agg"])
    return ctx


@contextlib.contextmanager
def item_pool(dataset: str, preset: Preset, num_proc: int) -> Iterator[Any]:
    """A ``map``-like callable over item tasks: in process for 1, else one warm forked pool.

    The pool is terminated on every exit (an error or Ctrl-C included), so no worker outlives
    the build.
    """
    preset_json = preset_to_json(preset)
    if num_proc <= 1:  # local state, not _WORKER: builds in two threads of one process stay apart
        builder, recipe = DATASETS.get(dataset)(), preset_from_json(preset_json)
        yield lambda tasks: (_rows(builder, recipe, task) for task in tasks)
        return
    warm()
    ctx = _context(_start_method(), dataset)
    # forkserver and spawn start without this process's state: the initializer rebuilds it there.
    pool = ctx.Pool(num_proc, initializer=_setup, initargs=(dataset, preset_json))
    try:
        yield lambda tasks: pool.imap(_build_item, tasks, chunksize=1)
    finally:
        pool.terminate()
        pool.join()


def build_splits(run: Any, jobs: list[SplitJob], features_of: Any, cache_dir: Path,
                 progress: Any = None) -> dict[tuple[str, str], Any]:
    """Generate every job through ``run`` (from :func:`item_pool`) as one stream of items.

    Returns ``(config, split) -> datasets.Dataset`` memory-mapped from its Arrow file. All
    items of all jobs are queued at once, so the pool never waits at a split boundary.
    ``progress`` (a tqdm bar or None) advances by one per item.
    """
    from datasets import Dataset
    from datasets.arrow_writer import ArrowWriter

    cache_dir.mkdir(parents=True, exist_ok=True)
    tasks = ((job.config, job.split, key) for job in jobs for key in job.keys)
    results = iter(run(tasks))
    out: dict[tuple[str, str], Any] = {}
    for job in jobs:
        features = features_of(job.config)
        if not job.keys:
            # every column, empty (a shard whose key range misses a small split): datasets
            # refuses a column-less table against the features
            out[job.config, job.split] = Dataset.from_dict({name: [] for name in features}, features=features,
                                                           split=job.split)
            continue
        path = cache_dir / f"{job.config}-{job.split}.arrow"  # unique within a build
        with ArrowWriter(features=features, path=str(path)) as writer:
            for _ in job.keys:
                for row in next(results):
                    writer.write(row)
                if progress is not None:
                    progress.update(1)
            writer.finalize()
        out[job.config, job.split] = Dataset.from_file(str(path), split=job.split)
    return out


def total_items(jobs: Iterable[SplitJob]) -> int:
    """How many items ``jobs`` hold (the progress bar's total)."""
    return sum(len(job.keys) for job in jobs)
