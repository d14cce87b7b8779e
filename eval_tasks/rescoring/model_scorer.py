"""Scoring one model's saved predictions against the release gold (the unit ``chartprobe score`` streams).

:class:`Rescorer` reads a model's samples files, looks each document up in the release
(:class:`~chartprobe.eval_tasks.rescoring.gold.ReleaseGold`, never the samples' own gold), scores it with
the task's suite and returns the model's results entry; :class:`ScoreMemo` spares re-scoring a
response already scored on the same document. :mod:`.rescore` streams models through it, in
this process or in workers (:mod:`.rescore_workers`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..suites import suite_for_task
from ..suites._task_index import task_index
from .predictions import _SAMPLES_NAME, PredictionsError, iter_samples
from .results import summarize_records, to_columns

__all__ = ["Rescorer", "ScoreMemo", "results_tail"]

_UNSEEN = object()  # a task this model's loop has not met yet


class Rescorer:
    """Scores models one at a time against one :class:`ReleaseGold` (loaded once, split by split).

    A run that covers fewer documents than its task has is scored over the full task, the missing
    ones as wrong (an empty answer), unless ``allow_partial``: then over what it covers, and its task
    entry says ``partial``. Every task entry records its ``coverage`` and its ``scorer``; with a
    ``judge``, the suites :data:`~chartprobe.eval_tasks.answer_judge.scoring_pass.JUDGED` lists are scored by it.
    """

    def __init__(self, releases: str | Path | None = None, allow_partial: bool = False,
                 judge: Any = None) -> None:
        from ..answer_judge.scoring_pass import JudgePass
        from .gold import ReleaseGold

        self.gold = ReleaseGold(releases)
        self.allow_partial = allow_partial
        self.judge = judge
        self._pass = JudgePass(judge)  # one per model (:meth:`model`), counting that model's requests
        self.index = task_index()
        self.skipped: dict[str, int] = defaultdict(int)  # samples of tasks no chartprobe suite scores
        self.read = 0
        self._suites: dict[str, Any] = {}
        self._memo = ScoreMemo()

    def _suite(self, task: str) -> Any:
        if task not in self._suites:
            self._suites[task] = suite_for_task(task)
        return self._suites[task]

    def model(self, name: str, files: Iterable[Path]) -> dict[str, Any]:
        """One model's results entry: sources, lm-eval runs, per-task metrics, suite summaries, the
        scorer of each suite's numbers, records."""
        from ..answer_judge.scoring_pass import JudgePass, lm_eval_judge
        from .provenance import read_lm_eval_run

        self._pass = judged = JudgePass(self.judge)
        lm_eval_scorers: dict[str, str] = {}  # task -> the judge its lm-eval run scored with

        records: dict[str, list[dict[str, Any]]] = defaultdict(list)
        seen: dict[str, dict[str, tuple[Any, ...]]] = defaultdict(dict)  # task -> doc key -> (path, doc_id, answer)
        sources: list[str] = []
        runs: list[dict[str, Any]] = []  # lm-eval runs: model and generation arguments
        lm_eval_tasks: dict[str, dict[str, float]] = {}  # tasks only lm-eval's table scores
        run_keys: set[tuple[Path, str]] = set()
        # Per task, looked up once: (suite, task data, its seen keys, its suite's records, judged?).
        tasks: dict[str, tuple[Any, Any, dict[str, tuple[Any, ...]], list[dict[str, Any]], bool] | None] = {}
        lookup, memo_score = self.gold.lookup, self._memo.score  # bound once: called per record
        for path in files:
            for s in iter_samples(path, name):
                self.read += 1
                state = tasks.get(s.task, _UNSEEN)
                if state is _UNSEEN:
                    suite = self._suite(s.task)
                    state = tasks[s.task] = None if suite is None else (
                        suite, self.index[s.task], seen[s.task], records[suite.name], judged.wants(suite))
                if state is None:  # not a chartprobe task: counted, never fatal
                    self.skipped[s.task] += 1
                    continue
                suite, task, seen_keys, out, wants_judge = state
                try:
                    key, doc, position = lookup(task, s.doc)
                except PredictionsError as exc:  # the location is built only for the message
                    raise PredictionsError(f"{_line(path, s.doc_id)}: {exc}") from None
                answer = (s.prediction, s.responses)
                if key in seen_keys:  # an identical repeat is deduplicated; a different answer is refused
                    first_path, first_doc_id, first = seen_keys[key]
                    if first != answer:
                        raise PredictionsError(
                            f"{_line(path, s.doc_id)}: doc {key!r} of task {s.task} has two different answers "
                            f"({first[0]!r} at {_line(first_path, first_doc_id)}, {s.prediction!r} here): which "
                            "one was scored would be arbitrary; keep one line per document")
                    continue
                seen_keys[key] = (path, s.doc_id, answer)  # the location is formatted only for a message
                if wants_judge:  # scored once the judge has answered the whole model
                    out.append(_placed({}, s.task, position, doc))
                    judged.add(out[-1], suite, s.task, doc, s.responses or (s.prediction,), bool(s.responses))
                elif s.responses:  # a repeated run: the vote over every response it kept
                    out.append(_placed(suite.score_votes(doc, s.responses), s.task, position, doc))
                else:
                    out.append(memo_score(suite, s.task, key, doc, s.prediction, position))
            sources.append(str(path))
            file_task = _SAMPLES_NAME.match(path.name)["task"]  # a file holds one task
            state = tasks.get(file_task)
            logged = lm_eval_judge(path, state[0].name) if state else None
            if logged:  # said on the task entry, so `score` without --judge can tell the user
                lm_eval_scorers[file_task] = logged
            run_key = (path.parent, path.stem.rpartition("_")[2])  # one lm-eval run: its folder and date
            if run_key not in run_keys:  # read once per run, not once per task file (a glob each)
                run_keys.add(run_key)
                run = read_lm_eval_run(path)
                if run is not None and run not in runs:
                    runs.append(run)
                lm_eval_tasks.update(_lm_eval_only(path))
        coverage = self._complete(records, seen)
        judged.run()
        summary = summarize_records(records, coverage)
        for task, entry in summary["tasks"].items():
            entry["coverage"] = coverage[task]
            entry["partial"] = self.allow_partial and entry["coverage"] < 1.0
            entry["scorer"] = judged.scorer(entry["suite"], task)
            if task in lm_eval_scorers:
                entry["lm_eval_scorer"] = lm_eval_scorers[task]
        return {"sources": sources, "runs": runs, "lm_eval_tasks": lm_eval_tasks, **summary,
                "scorers": {name: judged.scorer(name) for name in sorted(records)},
                "records": {k: to_columns(v) for k, v in records.items()}}

    def _complete(self, records: dict[str, list[dict[str, Any]]],
                  seen: Mapping[str, Mapping[str, Any]]) -> dict[str, float]:
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
                        records[suite.name].append(self._missing(suite, doc, task, position))
        return coverage

    def _missing(self, suite: Any, doc: Mapping[str, Any], task: str, position: int) -> dict[str, Any]:
        """The record of a document the run did not answer: an empty answer, judged like the rest
        when its suite is (the judge is never asked about nothing: wrong, verdict ``empty``)."""
        if not self._pass.wants(suite):
            return _record(suite, doc, "", task, position, missing=True)
        rec = _placed({"missing": True}, task, position, doc)
        self._pass.add(rec, suite, task, doc, ("",))
        return rec


def _line(path: Path, doc_id: int) -> str:
    """Where a sample is, for a message: its file and line (lm-eval's doc_id + 1)."""
    return f"{path.name} line {doc_id + 1}"


def _lm_eval_only(samples: Path) -> dict[str, dict[str, float]]:
    """lm-eval's table for the run's tasks chartprobe does not rescore (:mod:`.lm_eval_tables`)."""
    from .lm_eval_tables import lm_eval_only
    from .predictions import read_json
    from .provenance import lm_eval_results_for

    path = lm_eval_results_for(samples)
    try:
        doc = read_json(path) if path is not None else None
    except PredictionsError:  # an unreadable results file is already reported by the run's provenance
        return {}
    return lm_eval_only(doc) if isinstance(doc, dict) else {}


def results_tail(files: list[Path], read: int, skipped: Mapping[str, int],
                 releases: Mapping[str, Any]) -> dict[str, Any]:
    """The results document's closing fields: skipped tasks, the releases scored, who scored."""
    from .provenance import software

    if not read:  # empty files would otherwise give a results file without a single model
        raise PredictionsError(f"no samples in {', '.join(map(str, files))}")
    return {"skipped_tasks": dict(skipped), "releases": dict(releases), "gold": "release",
            "provenance": software()}


class ScoreMemo:
    """``suite.score(doc, prediction)`` remembered per (task, document, prediction), bounded.

    Scoring is a pure function of the gold document and the response text, and many models
    give the same short answer to the same question ("12", "Yes", the gold in a sentence), so a
    repeat costs a dict lookup instead of extraction, parsing and matching (~100 us). Bounded
    to ``size`` entries (cleared when full) of responses up to ``max_chars`` long (a long
    chain of thought is scored afresh: it rarely repeats, and a memo of them would hold
    megabytes), so memory stays flat in the number of records; whether a record came from
    here never changes it: each caller gets its own copy.
    """

    def __init__(self, size: int = 32_768, max_chars: int = 512) -> None:
        self.size = size
        self.max_chars = max_chars
        self._seen: dict[tuple[str, str, str], dict[str, Any]] = {}
        self.hits = self.misses = 0

    def score(self, suite: Any, task: str, key: str, doc: Mapping[str, Any], prediction: str,
              position: int) -> dict[str, Any]:
        """A fresh scored record of ``prediction`` on ``doc``, the document ``key`` of ``task`` at
        ``position`` (both fixed by the gold, so the stamped record is what is remembered)."""
        if len(prediction) > self.max_chars:
            self.misses += 1
            return _placed(suite.score(doc, prediction), task, position, doc)
        memo_key = (task, key, prediction)
        rec = self._seen.get(memo_key)
        if rec is None:
            self.misses += 1
            if len(self._seen) >= self.size:
                self._seen.clear()
            rec = self._seen[memo_key] = _placed(suite.score(doc, prediction), task, position, doc)
        else:
            self.hits += 1
        return dict(rec)


def _placed(rec: dict[str, Any], task: str, doc_id: int, doc: Mapping[str, Any]) -> dict[str, Any]:
    """``rec`` stamped with its task, position (lm-eval's doc_id) and the release row's id."""
    rec.update(task=task, doc_id=doc_id, row_id=doc.get("id"))
    return rec


def _record(suite: Any, doc: Mapping[str, Any], prediction: str, task: str, doc_id: int,
            missing: bool = False) -> dict[str, Any]:
    """A scored record; ``doc_id`` is the document's position in its task (lm-eval's doc_id)."""
    rec = _placed(suite.score(doc, prediction), task, doc_id, doc)
    if missing:
        rec["missing"] = True
    return rec
