"""A model's predictions, parsed safely from an upload or an allowlisted server folder.

Two formats, read with the parsers ``chartprobe score`` uses (``chartprobe.eval_tasks.predictions``,
``chartprobe.eval_tasks.results``):

- lm-eval ``--log_samples`` files ``samples_<task>_<date>.jsonl`` (models or reference
  agents); they are rescored here with the current scorer, and the extracted answer of
  every row is kept for display;
- ``chartprobe score`` output (``chartprobe-results/1`` JSON), whose stored records give the
  verdicts (and the normalized answer where the suite keeps one).

Uploads are size-limited, the files are schema-checked line by line before anything is
scored, and every problem raises :class:`PredictionsError` with one readable sentence.
A run becomes :class:`ModelRun`: release -> row id -> (item accuracy, answer shown), and
keeps its results document in memory: a load leaves nothing on disk (its files are staged
in a scratch folder the caller deletes), and the server folder is read without following
symlinks.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["MAX_FILE_BYTES", "ModelRun", "PredictionSet", "PredictionsError", "allowed_entries",
           "load_allowed", "load_uploads"]

MAX_FILE_BYTES = 64 * 2**20
"""Largest accepted file (lm-eval writes one samples file per task: a full probes task is ~20 MB)."""
MAX_TOTAL_BYTES = 256 * 2**20
MAX_FILES = 200
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")
_SAMPLES = re.compile(r"^samples_.*\.jsonl$")

Mark = tuple[float, str]


class PredictionsError(ValueError):
    """A predictions file the Space cannot use; the message is shown in the page."""


@dataclass
class ModelRun:
    """One model's verdicts per release row, and the results document its profile is drawn from."""

    name: str
    results: dict[str, Any] = field(repr=False)
    marks: dict[str, dict[str, Mark]] = field(default_factory=dict)
    summary: str = ""


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


def check_samples_file(path: Path) -> int:
    """Schema-check an lm-eval samples file; returns its number of samples (an empty file is
    allowed: a task with no rows in a small release)."""
    n = 0
    with path.open(encoding="utf-8", errors="strict") as fh:
        try:
            for lineno, text in enumerate(fh, 1):
                if not text.strip():
                    continue
                try:
                    line = json.loads(text)
                except ValueError:
                    raise PredictionsError(f"{path.name} line {lineno}: not a JSON object") from None
                where = f"{path.name} line {lineno}"
                if not isinstance(line, dict) or not isinstance(line.get("doc"), dict):
                    raise PredictionsError(f"{where}: no 'doc' object (lm-eval --log_samples lines have one)")
                if "id" not in line["doc"]:
                    raise PredictionsError(f"{where}: the doc has no 'id' (not a chartprobe task's row)")
                resps = line.get("filtered_resps", line.get("resps"))
                if not isinstance(resps, list):
                    raise PredictionsError(f"{where}: no 'filtered_resps' / 'resps' list")
                n += 1
        except UnicodeDecodeError:
            raise PredictionsError(f"{path.name} is not UTF-8 text") from None
    return n


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
    from chartprobe.eval_tasks.results import from_columns
    from chartprobe.eval_tasks.suites import suite_for_release

    models = doc.get("models")
    if not isinstance(models, dict) or not models:
        raise PredictionsError(f"{where}: no models in this results file")
    runs = []
    for model, entry in models.items():
        marks: dict[str, dict[str, Mark]] = {}
        n = 0
        for suite_name, cols in (entry.get("records") or {}).items():
            try:
                suite = suite_for_release(suite_name)
                for rec in from_columns(cols):
                    answer = answers.get((model, rec.get("task"), rec.get("doc_id")))
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


def _load_samples(files: list[Path], model: str, workdir: Path) -> ModelRun:
    from chartprobe.eval_tasks.predictions import PredictionsError as HarnessError
    from chartprobe.eval_tasks.predictions import iter_samples, sample_files
    from chartprobe.eval_tasks.results import score_samples
    from chartprobe.eval_tasks.scoring import extract_answer

    n = 0
    for f in files:
        try:
            sample_files([f])
        except HarnessError as exc:
            raise PredictionsError(f"{f.name}: the name must be samples_<task>_<date>.jsonl, as lm-eval "
                                   "--log_samples writes it") from exc
        n += check_samples_file(f)
    if n == 0:
        raise PredictionsError("these files hold no samples")
    staged = _stage(files, workdir / model)
    try:
        answers = {(model, s.task, s.doc_id): extract_answer(s.prediction)
                   for f in sample_files(staged) for s in iter_samples(f)}
        # Gold from the releases the app serves (CHARTPROBE_DATA, set by --data; else the Hub); an
        # upload may be a --limit run, so it is scored over what it covers and marked partial.
        doc = score_samples(staged, allow_partial=True)
    except Exception as exc:  # a doc without the fields its task's scorer reads
        raise PredictionsError(f"these samples cannot be scored as chartprobe rows "
                               f"({type(exc).__name__}: {exc})") from exc
    if not doc["models"]:
        tasks = ", ".join(sorted(doc.get("skipped_tasks", {}))) or "none"
        raise PredictionsError(f"no chartprobe task in these files (tasks found: {tasks})")
    return _runs_from_results(doc, answers, "samples")[0]


def _load_results_file(path: Path) -> list[ModelRun]:
    from chartprobe.eval_tasks.results import FORMAT

    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise PredictionsError(f"{path.name}: not valid JSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise PredictionsError(f"{path.name}: not a `chartprobe score` results file (format {FORMAT})")
    return _runs_from_results(doc, {}, path.name)


def load_uploads(paths: Iterable[str | Path], model: str, workdir: Path) -> list[ModelRun]:
    """Runs from uploaded files: samples ``.jsonl`` files (one model) or results ``.json`` files.
    ``workdir`` is scratch for staging; the caller deletes it, and the uploads, afterwards."""
    files = _check_size(Path(p) for p in paths)
    samples = [f for f in files if f.suffix == ".jsonl"]
    results = [f for f in files if f.suffix == ".json"]
    other = [f.name for f in files if f not in samples and f not in results]
    if other:
        raise PredictionsError(f"unsupported file(s): {', '.join(other)} (expected .jsonl samples or .json results)")
    runs = [run for f in results for run in _load_results_file(f)]
    if samples:
        runs.append(_load_samples(samples, safe_model_name(model, "uploaded-model"), workdir / "samples"))
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
    from chartprobe.eval_tasks.results import FORMAT

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
        files = _check_size(sorted(p for p in path.glob("samples_*.jsonl") if not p.is_symlink() and p.is_file()))
        model = safe_model_name(path.name if choice != "." else root.name)
        return [_load_samples(files, model, workdir / "server")]
    return _load_results_file(_check_size([path])[0])
