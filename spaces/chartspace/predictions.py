"""A model's predictions, parsed safely from an upload or an allowlisted server folder.

Two formats, read with the parsers ``chartprobe score`` uses (``chartprobe.eval_tasks.rescoring.predictions``,
``chartprobe.eval_tasks.rescoring.results``):

- lm-eval ``--log_samples`` files ``samples_<task>_<date>.jsonl`` (models or reference
  agents); they are rescored here with the current scorer, and the extracted answer of
  every row is kept for display;
- ``chartprobe score`` output (``chartprobe-results/1`` JSON), whose stored records give the
  verdicts (and the normalized answer where the suite keeps one);
- lm-eval's ``results_<date>.json`` beside the samples (the table it printed), kept for the
  leaderboard (:mod:`chartspace.lmeval`).

A samples file of a task no chartprobe suite scores is skipped with a note in the run's
summary, not refused.

Uploads are size-limited, the files are schema-checked line by line before anything is
scored, and every problem raises :class:`PredictionsError` with one readable sentence.
A run becomes :class:`ModelRun`: release -> row id -> (item accuracy, answer shown), and
keeps its results document in memory: a load leaves nothing on disk (its files are staged
in a scratch folder the caller deletes), and the server folder is read without following
symlinks.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chartspace.errors import PredictionsError, read_json_file
from chartspace.lmeval import Metrics

__all__ = ["MAX_FILE_BYTES", "ModelRun", "PredictionSet", "PredictionsError", "allowed_entries",
           "load_allowed", "load_uploads"]

MAX_FILE_BYTES = 64 * 2**20
"""Largest accepted file (lm-eval writes one samples file per task: a full probes task is ~20 MB)."""
MAX_TOTAL_BYTES = 256 * 2**20
MAX_FILES = 200
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")
_SAMPLES = re.compile(r"^samples_.*\.jsonl$")
_LM_EVAL_RESULTS = re.compile(r"^results_.*\.json$")

Mark = tuple[float, str]


@dataclass
class ModelRun:
    """One model's verdicts per release row, and the results document its profile is drawn from."""

    name: str
    results: dict[str, Any] | None = field(repr=False)
    """The ``chartprobe-results/1`` document (None for a run known only from lm-eval's results file)."""
    marks: dict[str, dict[str, Mark]] = field(default_factory=dict)
    summary: str = ""
    lm_eval: Metrics = field(default_factory=dict, repr=False)
    """The table lm-eval printed for this run (its ``results_*.json``), when it came with one."""
    lm_eval_runs: list[dict[str, Any]] = field(default_factory=list, repr=False)
    """The run fields of those lm-eval results files (model, its and the generation arguments,
    lm-eval version, releases: :func:`chartprobe.eval_tasks.rescoring.provenance.lm_eval_run`)."""

    def task_metrics(self) -> dict[str, dict[str, float | None]]:
        """task -> metric -> value, as ``chartprobe score`` recomputed them from the samples."""
        if not self.results:
            return {}
        tasks = (self.results.get("models", {}).get(self.name) or {}).get("tasks") or {}
        return {t: dict(e.get("metrics") or {}) for t, e in tasks.items()}


@dataclass
class PredictionSet:
    """The models loaded in one browser session, in load order (a later load replaces a name)."""

    runs: dict[str, ModelRun] = field(default_factory=dict)

    def with_run(self, run: ModelRun) -> PredictionSet:
        """A new set with ``run`` added (replacing a run of the same name)."""
        runs = {k: v for k, v in self.runs.items() if k != run.name}
        runs[run.name] = run
        return PredictionSet(runs)

    def lookup(self, release: str, row_id: str) -> dict[str, tuple[float | None, str]]:
        """model -> (item accuracy or None when the model has no prediction, answer text)."""
        out: dict[str, tuple[float | None, str]] = {}
        for name, run in self.runs.items():
            hit = run.marks.get(release, {}).get(str(row_id))
            out[name] = hit if hit is not None else (None, "no prediction")
        return out


def safe_model_name(name: str, default: str = "model") -> str:
    """A folder-safe model name (letters, digits, ``._-``; at most 64 characters)."""
    cleaned = _SAFE_NAME.sub("-", name or "").strip("-.")[:64]
    return cleaned or default


def _check_size(paths: Iterable[Path]) -> list[Path]:
    paths = list(paths)
    if not paths:
        raise PredictionsError("no file given")
    if len(paths) > MAX_FILES:
        raise PredictionsError(f"{len(paths)} files: at most {MAX_FILES} at once")
    total = 0
    for p in paths:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise PredictionsError(f"{p.name} is {size / 2**20:.1f} MB; the limit is {MAX_FILE_BYTES // 2**20} MB")
        total += size
    if total > MAX_TOTAL_BYTES:
        raise PredictionsError(f"{total / 2**20:.0f} MB in all; the limit is {MAX_TOTAL_BYTES // 2**20} MB")
    return paths


def _stage(paths: list[Path], folder: Path) -> list[Path]:
    """Put files into ``folder`` (the model's name is its folder name, as lm-eval lays it out):
    hard links where the file system allows (an upload then takes no second copy's room)."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    staged = []
    for p in paths:
        target = folder / Path(p).name
        try:
            os.link(p, target)
        except OSError:  # another file system (the server folder), or links not allowed
            shutil.copyfile(p, target)
        staged.append(target)
    return staged


def _runs_from_results(doc: Mapping[str, Any], answers: Mapping[tuple, str], where: str) -> list[ModelRun]:
    """One ModelRun per model of a ``chartprobe-results/1`` document."""
    from chartprobe.eval_tasks.rescoring.results import from_columns
    from chartprobe.eval_tasks.suites import SUITES, suite_for_release

    models = doc.get("models")
    if not isinstance(models, dict) or not models:
        raise PredictionsError(f"{where}: no models in this results file")
    runs = []
    for model, entry in models.items():
        marks: dict[str, dict[str, Mark]] = {}
        n = 0
        for suite_name, cols in (entry.get("records") or {}).items():
            if suite_name not in SUITES:  # a released protocol's suite (judge_paper): the Space marks ours
                continue
            try:
                suite = suite_for_release(suite_name)
                for rec in from_columns(cols):
                    answer = answers.get((model, rec.get("task"), str(rec["row_id"])))
                    marks.setdefault(suite_name, {})[str(rec["row_id"])] = (
                        float(suite.accuracy(rec)), answer if answer is not None else _stored_answer(rec))
                    n += 1
            except Exception as exc:  # any malformed record: one readable line, never a traceback
                raise PredictionsError(f"{where}: model {model!r}, suite {suite_name!r}: "
                                       f"unreadable records ({type(exc).__name__}: {exc})") from exc
        suites = ", ".join(f"{s} ({len(m)})" for s, m in marks.items()) or "nothing scored"
        runs.append(ModelRun(model, {**doc, "models": {model: entry}}, marks, f"{n} scored rows: {suites}"))
    return runs


def _stored_answer(rec: Mapping[str, Any]) -> str:
    """The answer a results record keeps: normalized text, or the parsed choice/verdict."""
    for key in ("normalized", "choices", "verdicts"):
        value = rec.get(key)
        if isinstance(value, list):
            value = "/".join("?" if v is None else str(v) for v in value)
        if value not in (None, ""):
            return str(value)
    return "(score only)"


def _load_samples(files: list[Path], model: str, workdir: Path, lm_eval: Metrics | None = None,
                  lm_eval_runs: Iterable[dict[str, Any]] = ()) -> ModelRun:
    """One model's run from its samples files; files of tasks no chartprobe suite scores are
    skipped (named in the run's summary), never an error, unless nothing else is left."""
    from chartprobe.eval_tasks.rescoring.predictions import iter_samples, sample_files
    from chartprobe.eval_tasks.rescoring.rescore import score_samples
    from chartprobe.eval_tasks.scoring.typed import extract_answer
    from chartprobe.eval_tasks.suites import suite_for_task
    from chartprobe.eval_tasks.suites._task_index import task_index

    from chartspace.samples import check_samples_file

    checks = {f: check_samples_file(f) for f in files}
    ours = [f for f, c in checks.items() if c.is_chartprobe]
    index = task_index()
    # *_paper tasks are ours but scored by lm-eval's table only (released rules): named apart
    paper = sorted({c.task for c in checks.values() if not c.is_chartprobe and c.task in index})
    skipped = sorted({c.task for c in checks.values() if not c.is_chartprobe and c.task not in index})
    if not ours:
        raise PredictionsError(f"no chartprobe task in these files (tasks found: {', '.join(paper + skipped)})")
    if sum(checks[f].samples for f in ours) == 0:
        raise PredictionsError("these files hold no samples")
    staged = _stage(ours, workdir / model)
    try:
        # Keyed by the suite's document key (= the record's row id), never by doc_id: a record's
        # doc_id is the document's position in the release's task order, which a run need not follow.
        suites = {checks[f].task: suite_for_task(checks[f].task) for f in ours}
        answers = {(model, s.task, suites[s.task].doc_key(s.doc)): extract_answer(s.prediction)
                   for f in sample_files(staged) for s in iter_samples(f)}
        # Gold from the releases the app serves (CHARTPROBE_DATA, set by --data; else the Hub); an
        # upload may be a --limit run, so it is scored over what it covers and marked partial.
        doc = score_samples(staged, allow_partial=True)
    except Exception as exc:  # a doc without the fields its task's scorer reads
        raise PredictionsError(f"these samples cannot be scored as chartprobe rows "
                               f"({type(exc).__name__}: {exc})") from exc
    run = _runs_from_results(doc, answers, "samples")[0]
    run.lm_eval = dict(lm_eval or {})
    run.lm_eval_runs = list(lm_eval_runs)
    if skipped:
        run.summary += f"; skipped {len(skipped)} non-chartprobe task(s): {', '.join(skipped)}"
    if paper:
        run.summary += f"; released-protocol task(s), scored in lm-eval's table only: {', '.join(paper)}"
    return run


def _split_json(paths: list[Path]) -> tuple[list[ModelRun], list[Path]]:
    """(runs of the ``chartprobe score`` results files, the lm-eval results files) among ``paths``."""
    from chartprobe.eval_tasks.rescoring.results import FORMAT

    from chartspace.lmeval import is_lm_eval_results

    runs, lm_eval = [], []
    for path in paths:
        doc = read_json_file(path)
        if isinstance(doc, dict) and doc.get("format") == FORMAT:
            runs += _runs_from_results(doc, {}, path.name)
        elif is_lm_eval_results(doc):
            lm_eval.append(path)
        else:
            raise PredictionsError(f"{path.name}: neither a `chartprobe score` results file (format {FORMAT}) "
                                   "nor an lm-eval results_<date>.json")
    return runs, lm_eval


def load_uploads(paths: Iterable[str | Path], model: str, workdir: Path) -> list[ModelRun]:
    """Runs from uploaded files: samples ``.jsonl`` files (one model, with its lm-eval
    ``results_*.json`` when given) or ``chartprobe score`` results ``.json`` files.
    ``workdir`` is scratch for staging; the caller deletes it, and the uploads, afterwards."""
    from chartspace.lmeval import read_lm_eval_results

    files = _check_size(Path(p) for p in paths)
    samples = [f for f in files if f.suffix == ".jsonl"]
    results = [f for f in files if f.suffix == ".json"]
    other = [f.name for f in files if f not in samples and f not in results]
    if other:
        raise PredictionsError(f"unsupported file(s): {', '.join(other)} (expected .jsonl samples or .json results)")
    from chartprobe.eval_tasks.rescoring.provenance import lm_eval_run

    runs, lm_eval_files = _split_json(results)
    name = safe_model_name(model, "uploaded-model")
    table = read_lm_eval_results(lm_eval_files)
    # what the run was (model and generation arguments, lm-eval version, releases), for provenance
    lm_runs = [lm_eval_run(read_json_file(f), f.name) for f in sorted(lm_eval_files, key=lambda f: f.name)]
    if samples:
        runs.append(_load_samples(samples, name, workdir / "samples", table, lm_runs))
    elif table:  # lm-eval's table alone: a leaderboard entry without item verdicts
        runs.append(ModelRun(name, None, {}, f"lm-eval results only: {len(table)} task(s)", table, lm_runs))
    return runs


def allowed_entries(root: Path | None) -> list[str]:
    """What the server folder offers: model folders holding samples files, and results ``.json``
    files, as paths relative to ``root`` (the only values the page can choose from)."""
    if root is None or not root.is_dir():
        return []
    files = list(_plain_files(root))
    dirs = {p.parent.relative_to(root).as_posix() for p in files if _SAMPLES.match(p.name)}
    jsons = {p.relative_to(root).as_posix() for p in files if p.suffix == ".json" and _is_results(p)}
    return sorted(dirs) + sorted(jsons)


def _plain_files(folder: Path) -> Iterable[Path]:
    """Regular files under ``folder``; symlinks (to files or folders) are neither listed nor
    followed, so a link placed in the server folder cannot point the page anywhere else."""
    for top, dirs, files in os.walk(folder, followlinks=False):
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(top, d))]
        for name in files:
            path = Path(top) / name
            if not path.is_symlink() and path.is_file():
                yield path


def _is_results(path: Path) -> bool:
    """Whether a .json file announces the results format near its start (reports, validity
    tables and lm-eval's own results files do not)."""
    from chartprobe.eval_tasks.rescoring.results import FORMAT

    try:
        with path.open("rb") as fh:
            return FORMAT.encode() in fh.read(4096)
    except OSError:
        return False


def load_allowed(root: Path | None, choice: str, workdir: Path) -> list[ModelRun]:
    """Runs from one :func:`allowed_entries` choice; anything not on that list is refused."""
    if choice not in allowed_entries(root):
        raise PredictionsError(f"{choice!r} is not one of the server's prediction files")
    path = root / choice
    if path.is_dir():
        from chartspace.lmeval import is_lm_eval_results, merge_metrics, metrics_of

        plain = sorted(p for p in path.iterdir() if not p.is_symlink() and p.is_file())
        files = _check_size(p for p in plain if _SAMPLES.match(p.name))
        # lm-eval's results_<date>.json beside the samples: the table it printed, for the leaderboard
        docs = [read_json_file(p) for p in plain
                if _LM_EVAL_RESULTS.match(p.name) and p.stat().st_size <= MAX_FILE_BYTES]
        table = merge_metrics(metrics_of(d) for d in docs if is_lm_eval_results(d))
        model = safe_model_name(path.name if choice != "." else root.name)
        return [_load_samples(files, model, workdir / "server", table)]
    runs, lm_eval = _split_json(_check_size([path]))
    if lm_eval:
        raise PredictionsError(f"{choice}: an lm-eval results file; load its model folder instead")
    return runs
