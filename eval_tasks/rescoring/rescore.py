"""Rescoring saved predictions (``chartprobe score``), one model at a time.

Saved predictions (lm-eval ``--log_samples`` files or agent predictions) are rescored with
the current scorer and the suite of each task, decoupled from generation; the gold comes from
the release (:class:`~chartprobe.eval_tasks.rescoring.gold.ReleaseGold`), never from the samples.

Memory stays flat in the number of records: samples files are grouped by model (their
folder), each model is scored, summarised and, in :func:`write_scored`, written out before
the next one is read, so a run over hundreds of models holds one model's records (at most
one release's worth) plus the gold splits its tasks score. The results file is written
through :func:`~chartprobe.dataset_builders.core.atomic.atomic_open`: it appears whole or not
at all. ``num_proc`` scores models in worker processes (:mod:`.rescore_workers`), the file
byte-identical for any count.
"""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from .model_scorer import Rescorer, ScoreMemo, results_tail
from .predictions import sample_files, sample_model
from .results import FORMAT
from .workers import scored_models

__all__ = ["Rescorer", "ScoreMemo", "score_samples", "write_scored"]


def _by_model(files: Iterable[Path]) -> dict[str, list[Path]]:
    """Samples files grouped by model (the folder lm-eval wrote them into, the name VLMEvalKit gave
    them: :func:`~chartprobe.eval_tasks.rescoring.predictions.sample_model`), models sorted."""
    groups: dict[str, list[Path]] = defaultdict(list)
    for path in files:
        groups[sample_model(path)].append(path)
    return dict(sorted(groups.items()))


def score_samples(paths: Iterable[str | Path], *, releases: str | Path | None = None,
                  allow_partial: bool = False, num_proc: int = 1, judge: Any = None) -> dict[str, Any]:
    """Rescore every samples file under ``paths``; returns the results document (held in memory).

    Provenance: ``releases`` names each release scored (path, revision, preset, generator version,
    content hash), ``provenance`` the chartprobe and lm-eval versions that scored, and each model's
    ``runs`` the lm-eval runs (model, model and generation arguments) read from the results files
    next to its samples. For many models use :func:`write_scored`, which holds one at a time.
    ``judge`` (a :class:`~chartprobe.eval_tasks.answer_judge.client.Judge`) scores the suites whose paper
    uses an answer-equivalence judge (:data:`~chartprobe.eval_tasks.answer_judge.scoring_pass.JUDGED`).
    """
    files = sample_files(paths)
    models: dict[str, Any] = {}
    read, skipped, provenance = 0, Counter(), {}
    for done in scored_models(_by_model(files), releases=releases, allow_partial=allow_partial, num_proc=num_proc,
                              judge=judge):
        models[done.name] = done.entry
        read, provenance = read + done.read, {**provenance, **done.releases}
        skipped.update(done.skipped)
    return {"format": FORMAT, "models": models, **results_tail(files, read, skipped, provenance)}


def write_scored(paths: Iterable[str | Path], out: str | Path, *, releases: str | Path | None = None,
                 allow_partial: bool = False, progress: bool = True, num_proc: int = 1,
                 on_model: Callable[[str, dict[str, Any]], None] | None = None,
                 judge: Any = None) -> dict[str, int]:
    """:func:`score_samples` streamed to the results file ``out``, one model in memory at a time.

    ``on_model(model, tasks)`` is called with each model's per-task entries as soon as it is
    scored (the command prints them); nothing of a model is kept after it. Returns the skipped
    tasks. The file is the same JSON document :func:`score_samples` returns; it replaces ``out``
    only once every model is written (a failure leaves the old file). ``num_proc`` worker
    processes score models side by side (at most two models each in memory at a time).
    """
    from chartprobe.dataset_builders.core.atomic import atomic_open
    from tqdm.auto import tqdm

    files = sample_files(paths)
    for path in files:  # an unreadable file fails before the output folder is touched
        os.close(os.open(path, os.O_RDONLY))  # the OSError open() raises, without a file object
    groups = _by_model(files)
    read, skipped, provenance = 0, Counter(), {}
    with atomic_open(out) as fh:
        fh.write('{"format": ' + json.dumps(FORMAT) + ', "models": {')
        scored = scored_models(groups, releases=releases, allow_partial=allow_partial, num_proc=num_proc,
                               as_json=True, judge=judge)
        bar = tqdm(scored, total=len(groups), unit="model", desc="score", disable=not progress or None)
        for i, done in enumerate(bar):
            fh.write((", " if i else "") + json.dumps(done.name) + ": " + done.entry)
            if on_model is not None:
                on_model(done.name, done.tasks)
            read, provenance = read + done.read, {**provenance, **done.releases}
            skipped.update(done.skipped)
            del done  # the next model is taken only after this one left memory
        tail = results_tail(files, read, skipped, provenance)
        fh.write("}, " + json.dumps(tail, default=str)[1:])
    return tail["skipped_tasks"]
