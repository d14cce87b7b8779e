"""Rescoring saved predictions (``chartprobe score``), one model at a time.

Saved predictions (lm-eval ``--log_samples`` files or agent predictions) are rescored with
the current scorer and the suite of each task, decoupled from generation; the gold comes from
the release (:class:`~chartprobe.eval_tasks.gold.ReleaseGold`), never from the samples.

Memory stays flat in the number of records: samples files are grouped by model (their
folder), each model is scored, summarised and, in :func:`write_scored`, written out before
the next one is read, so a run over hundreds of models holds one model's records (at most
one release's worth) plus the gold splits its tasks score. The results file is written
through :func:`~chartprobe.dataset_builders.core.atomic.atomic_open`: it appears whole or not
at all.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from .predictions import PredictionsError, iter_samples, sample_files
from .results import FORMAT, summarize_records, to_columns
from .suites import suite_for_task
from .task_index import task_index

__all__ = ["Rescorer", "score_samples", "write_scored"]


def _by_model(files: Iterable[Path]) -> dict[str, list[Path]]:
    """Samples files grouped by model (the folder lm-eval wrote them into), models sorted."""
    groups: dict[str, list[Path]] = defaultdict(list)
    for path in files:
        groups[path.parent.name].append(path)
    return dict(sorted(groups.items()))


class Rescorer:
    """Scores models one at a time against one :class:`ReleaseGold` (loaded once, split by split).

    A run that covers fewer documents than its task has is scored over the full task, the missing
    ones as wrong (an empty answer), unless ``allow_partial``: then over what it covers, and its task
    entry says ``partial``. Every task entry records its ``coverage``.
    """

    def __init__(self, releases: str | Path | None = None, allow_partial: bool = False) -> None:
        from .gold import ReleaseGold

        self.gold = ReleaseGold(releases)
        self.allow_partial = allow_partial
        self.index = task_index()
        self.skipped: dict[str, int] = defaultdict(int)  # samples of tasks no chartprobe suite scores
        self.read = 0
        self._suites: dict[str, Any] = {}

    def _suite(self, task: str) -> Any:
        if task not in self._suites:
            self._suites[task] = suite_for_task(task)
        return self._suites[task]

    def model(self, name: str, files: Iterable[Path]) -> dict[str, Any]:
        """One model's results entry: sources, lm-eval runs, per-task metrics, suite summaries, records."""
        from .provenance import read_lm_eval_run

        records: dict[str, list[dict[str, Any]]] = defaultdict(list)
        seen: dict[str, set[str]] = defaultdict(set)
        sources: list[str] = []
        runs: list[dict[str, Any]] = []  # lm-eval runs: model and generation arguments
        for path in files:
            for s in iter_samples(path, name):
                self.read += 1
                suite = self._suite(s.task)
                if suite is None:  # not a chartprobe task: counted, never fatal
                    self.skipped[s.task] += 1
                    continue
                task = self.index[s.task]
                doc = self.gold.document(task, s.doc, f"{path.name} line {s.doc_id + 1}")
                key = suite.doc_key(doc)
                if key in seen[s.task]:
                    continue
                seen[s.task].add(key)
                records[suite.name].append(_record(suite, doc, s.prediction, s.task, self.gold.position(task, doc)))
            sources.append(str(path))
            run = read_lm_eval_run(path)
            if run is not None and run not in runs:
                runs.append(run)
        coverage = self._complete(records, seen)
        summary = summarize_records(records)
        for task, entry in summary["tasks"].items():
            entry["coverage"] = coverage[task]
            entry["partial"] = self.allow_partial and entry["coverage"] < 1.0
        return {"sources": sources, "runs": runs, **summary,
                "records": {k: to_columns(v) for k, v in records.items()}}

    def _complete(self, records: dict[str, list[dict[str, Any]]], seen: Mapping[str, set[str]]) -> dict[str, float]:
        """Coverage per task; the documents a run missed added as wrong, or its records marked partial."""
        coverage = {}
        for task, ids in sorted(seen.items()):
            docs = self.gold.documents(self.index[task])
            coverage[task] = len(ids) / len(docs) if docs else 1.0
            suite = self._suite(task)
            if coverage[task] < 1.0 and self.allow_partial:  # every record says so, for `report`
                for rec in records[suite.name]:
                    if rec["task"] == task:
                        rec["partial"] = True
            elif not self.allow_partial:  # missing documents are wrong answers, not absent ones
                for position, (doc_id, doc) in enumerate(docs.items()):
                    if doc_id not in ids:
                        records[suite.name].append(_record(suite, doc, "", task, position, missing=True))
        return coverage

    def tail(self, files: list[Path]) -> dict[str, Any]:
        """The results document's fields known only once every model is scored."""
        from .provenance import software

        if not self.read:  # empty files would otherwise give a results file without a single model
            raise PredictionsError(f"no samples in {', '.join(map(str, files))}")
        return {"skipped_tasks": dict(self.skipped), "releases": self.gold.provenance, "gold": "release",
                "provenance": software()}


def score_samples(paths: Iterable[str | Path], *, releases: str | Path | None = None,
                  allow_partial: bool = False) -> dict[str, Any]:
    """Rescore every samples file under ``paths``; returns the results document (held in memory).

    Provenance: ``releases`` names each release scored (path, revision, preset, generator version,
    content hash), ``provenance`` the chartprobe and lm-eval versions that scored, and each model's
    ``runs`` the lm-eval runs (model, model and generation arguments) read from the results files
    next to its samples. For many models use :func:`write_scored`, which holds one at a time.
    """
    files = sample_files(paths)
    scorer = Rescorer(releases, allow_partial)
    models = {name: scorer.model(name, group) for name, group in _by_model(files).items()}
    return {"format": FORMAT, "models": models, **scorer.tail(files)}


def write_scored(paths: Iterable[str | Path], out: str | Path, *, releases: str | Path | None = None,
                 allow_partial: bool = False, progress: bool = True,
                 on_model: Callable[[str, dict[str, Any]], None] | None = None) -> dict[str, int]:
    """:func:`score_samples` streamed to the results file ``out``, one model in memory at a time.

    ``on_model(model, tasks)`` is called with each model's per-task entries as soon as it is
    scored (the command prints them); nothing of a model is kept after it. Returns the skipped
    tasks. The file is the same JSON document :func:`score_samples` returns; it replaces ``out``
    only once every model is written (a failure leaves the old file).
    """
    from chartprobe.dataset_builders.core.atomic import atomic_open
    from tqdm.auto import tqdm

    files = sample_files(paths)
    for path in files:  # an unreadable file fails before the output folder is touched
        path.open("rb").close()
    groups = _by_model(files)
    scorer = Rescorer(releases, allow_partial)
    with atomic_open(out) as fh:
        fh.write('{"format": ' + json.dumps(FORMAT) + ', "models": {')
        bar = tqdm(groups.items(), total=len(groups), unit="model", desc="score", disable=not progress or None)
        for i, (name, group) in enumerate(bar):
            entry = scorer.model(name, group)
            fh.write((", " if i else "") + json.dumps(name) + ": " + json.dumps(entry, default=str))
            if on_model is not None:
                on_model(name, entry["tasks"])
            del entry  # the next model is read only after this one left memory
        tail = scorer.tail(files)
        fh.write("}, " + json.dumps(tail, default=str)[1:])
    return tail["skipped_tasks"]


def _record(suite: Any, doc: Mapping[str, Any], prediction: str, task: str, doc_id: int,
            missing: bool = False) -> dict[str, Any]:
    """A scored record; ``doc_id`` is the document's position in its task (lm-eval's doc_id)."""
    rec = suite.score(doc, prediction)
    rec.update(task=task, doc_id=doc_id, row_id=doc.get("id"))
    if missing:
        rec["missing"] = True
    return rec
