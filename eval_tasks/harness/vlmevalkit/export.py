"""``chartprobe export vlmevalkit``: a release config as VLMEvalKit datasets, plus their dataset class.

One TSV per chartprobe task of the config (:func:`~.documents.export_tasks`), named
``<task>.tsv`` so VLMEvalKit's dataset name *is* the task name and its prediction file
``<model>_<task>.xlsx`` tells ``chartprobe score`` the task. Rows are what the lm-eval task shows
the model (:mod:`.documents`): ``index``, ``image`` (base64 PNG; judge pairs as a list of two,
VLMEvalKit's multi-image form), ``image_path``, ``question``, ``answer``, ``chartprobe_task``
and the document's flat fields. Beside them, ``chartprobe_vlmevalkit.py``
(:mod:`.dataset_class`) scores VLMEvalKit's predictions with chartprobe's scorer.

Every file is staged in a hidden temp file in ``out`` and renamed into place only once all of
them are written: a failure (bad input found late, a full disk, Ctrl-C) leaves no file, half or
whole, of this export, and the files of an earlier export untouched.
"""

from __future__ import annotations

import contextlib
import csv
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .documents import ExportError, ExportTask, export_tasks

__all__ = ["ExportError", "Exported", "export_vlmevalkit"]


@dataclass(frozen=True)
class Exported:
    """What an export wrote."""

    dataset: str
    """The release's dataset (``probes``, ``judge``...)."""
    tsvs: dict[str, Path] = field(default_factory=dict)
    """Task (= VLMEvalKit dataset name) -> its TSV."""
    rows: dict[str, int] = field(default_factory=dict)
    """Task -> documents written."""
    empty: tuple[str, ...] = ()
    """Tasks with no document in this release (no TSV: VLMEvalKit cannot load an empty one)."""
    class_file: Path | None = None
    """The dataset class file (``chartprobe_vlmevalkit.py``)."""


class _Staging:
    """Files written to hidden temp files in one folder, renamed into place together on success."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.staged: list[tuple[Path, Path]] = []

    @contextlib.contextmanager
    def text(self, name: str) -> Iterator[object]:
        """A text sink (``write(str)``) for file ``name``, staged until :meth:`commit`."""
        from chartprobe.dataset_builders.core.atomic import _staged, _TextSink

        target = self.folder / name
        with _staged(target) as (tmp, fh):  # fsynced on a clean exit, removed on failure
            self.staged.append((tmp, target))
            yield _TextSink(fh, "utf-8")

    def commit(self) -> None:
        for tmp, target in self.staged:
            os.replace(tmp, target)
        self.staged.clear()

    def discard(self) -> None:
        for tmp, _ in self.staged:
            tmp.unlink(missing_ok=True)
        self.staged.clear()


def _write_tsv(sink: object, header: list[str], rows: Iterable[dict[str, str]]) -> int:
    """VLMEvalKit's TSV form (``dump_tsv``: tab-separated, every field quoted); the number of rows."""
    writer = csv.DictWriter(sink, header, delimiter="\t", quoting=csv.QUOTE_ALL, lineterminator="\n")
    writer.writeheader()
    n = 0
    for n, row in enumerate(rows, 1):
        writer.writerow(row)
    return n


@contextlib.contextmanager
def _datasets_quiet() -> Iterator[None]:
    """No ``datasets`` progress bars while the loaders reshape documents: the export shows its own."""
    import datasets

    was = datasets.is_progress_bar_enabled()
    datasets.disable_progress_bars()
    try:
        yield
    finally:
        if was:
            datasets.enable_progress_bars()


def _check_config(release: Path, config: str, split: str) -> str:
    """The release's dataset, once ``config``/``split`` are known to be in its card."""
    from ...rescoring.predictions import read_release_card

    meta = read_release_card(release)
    splits = {c["config_name"]: [e["split"] for e in c["data_files"]] for c in meta["configs"]}
    if config not in splits:
        raise ExportError(f"{release}: no config {config!r} (the release has: {', '.join(sorted(splits))})")
    if split not in splits[config]:
        raise ExportError(f"{release}: config {config!r} has no split {split!r} (it has: "
                          f"{', '.join(splits[config])})")
    return meta["chartprobe"]["dataset"]


def _tasks(release: Path, config: str, split: str) -> tuple[str, list[ExportTask]]:
    dataset = _check_config(release, config, split)
    tasks = export_tasks(dataset, config, split)
    if not tasks:
        raise ExportError(f"no chartprobe task scores {dataset} config {config!r} split {split!r} with one "
                          "answer per document: nothing VLMEvalKit could be scored on")
    return dataset, tasks


def export_vlmevalkit(release: str | os.PathLike, config: str, out: str | os.PathLike, *, split: str = "test",
                      progress: bool = True) -> Exported:
    """Write the VLMEvalKit TSVs of ``release``'s ``config``/``split`` and the dataset class into ``out``."""
    from tqdm.auto import tqdm

    from .dataset_class import (
        CLASS_FILE,
        dataset_class_source,
        exported_releases,
    )
    from .releases import using_release

    release, out = Path(release), Path(out)
    dataset, tasks = _tasks(release, config, split)
    tsvs, rows, empty = {}, {}, []
    out.mkdir(parents=True, exist_ok=True)
    staging = _Staging(out)
    try:
        with using_release(release), _datasets_quiet():
            for task in tasks:
                docs = task.documents(split)
                if not len(docs):
                    empty.append(task.task)
                    continue
                bar = tqdm(task.rows(docs), total=len(docs), unit="row", desc=task.task, disable=not progress or None)
                with staging.text(f"{task.task}.tsv") as sink:
                    rows[task.task] = _write_tsv(sink, task.header(docs), bar)
                tsvs[task.task] = out / f"{task.task}.tsv"
        with staging.text(CLASS_FILE) as sink:
            sink.write(dataset_class_source({**exported_releases(out / CLASS_FILE), dataset: release}))
        staging.commit()
    except BaseException:
        staging.discard()
        raise
    return Exported(dataset, tsvs, rows, tuple(empty), out / CLASS_FILE)
