"""Models scored in order, in this process or in ``--num-proc`` worker processes.

Each model is scored on its own against the release gold, so models can go to N processes,
each with its own :class:`~chartprobe.eval_tasks.rescoring.model_scorer.Rescorer` (the gold read once
per process). They come back in model order and a model's entry does not depend on which
process scored it, so the results file is byte-identical for any N. At most two models per
worker are in flight, so memory stays flat in the number of models as it does with one
process; the first failing model (in model order) fails the run with its own message.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .model_scorer import Rescorer

__all__ = ["Scored", "scored_models"]

IN_FLIGHT_PER_WORKER = 2  # enough to keep a worker busy while the parent writes, never the whole run

_WORKER: Rescorer | None = None  # one per worker process, set by its initializer


@dataclass(frozen=True)
class Scored:
    """One model's results entry and what its scoring adds to the run's closing fields."""

    name: str
    tasks: dict[str, Any]
    """The entry's per-task metrics (what ``score`` prints)."""
    entry: dict[str, Any] | str
    """The results entry; as JSON text when asked for (serialized where it was scored, off the
    process that writes the file)."""
    read: int
    """Sample lines read for this model."""
    skipped: dict[str, int]
    """Samples of tasks no chartprobe suite scores, by task."""
    releases: dict[str, Any]
    """Provenance of the releases whose gold the scorer has read so far."""


def score_one(scorer: Rescorer, name: str, files: list[Path], as_json: bool = False) -> Scored:
    """Score model ``name`` (its samples ``files``) with ``scorer``; counts are this model's only."""
    read, skipped = scorer.read, dict(scorer.skipped)
    entry = scorer.model(name, files)
    added = {task: n - skipped.get(task, 0) for task, n in scorer.skipped.items() if n != skipped.get(task, 0)}
    return Scored(name, entry["tasks"], json.dumps(entry, default=str, check_circular=False) if as_json else entry,
                  scorer.read - read, added, dict(scorer.gold.provenance))


def _init(releases: str | Path | None, allow_partial: bool, judge: Any = None) -> None:
    global _WORKER
    _WORKER = Rescorer(releases, allow_partial, judge)  # the judge pickles as its settings: own client


def _score(name: str, files: list[Path], as_json: bool) -> Scored:
    assert _WORKER is not None, "worker used before its initializer ran"
    return score_one(_WORKER, name, files, as_json)


def scored_models(groups: Mapping[str, list[Path]], *, releases: str | Path | None = None,
                  allow_partial: bool = False, num_proc: int = 1, as_json: bool = False,
                  judge: Any = None) -> Iterator[Scored]:
    """Each model of ``groups`` (model -> samples files) scored, in the order of ``groups``;
    ``as_json``: each entry as JSON text (what a results file holds); ``judge``: the LLM judge of
    ``chartprobe score --judge`` (:class:`~chartprobe.eval_tasks.answer_judge.client.Judge`), or None."""
    if num_proc < 1:
        raise ValueError(f"--num-proc must be >= 1, got {num_proc}")
    if num_proc == 1 or len(groups) <= 1:
        scorer = Rescorer(releases, allow_partial, judge)
        for name, files in groups.items():
            yield score_one(scorer, name, files, as_json)
        return
    from concurrent.futures import ProcessPoolExecutor

    workers = min(num_proc, len(groups))
    pool = ProcessPoolExecutor(workers, initializer=_init, initargs=(releases, allow_partial, judge))
    try:
        items = iter(groups.items())
        pending: deque = deque()
        for name, files in items:  # a bounded window: submitted as results are taken, in order
            pending.append(pool.submit(_score, name, files, as_json))
            if len(pending) >= workers * IN_FLIGHT_PER_WORKER:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:  # a failure (or a consumer that stops early) cancels what is still queued
        pool.shutdown(wait=True, cancel_futures=True)
