"""Where ``chartprobe score`` takes the gold from: the release, never the samples file.

A samples file carries each document as the model saw it, gold included, and anyone can edit it.
:class:`ReleaseGold` rebuilds every task's documents from the release rows the task reads
(``TaskData.selects`` + the suite's ``documents``, exactly what the lm-eval task and the agents
use) and keys them by the suite's ``doc_key`` (the row ``id``; a CPA document's pair and order). Scoring looks each sample up there: a forged gold
is ignored, a document the release does not have (or has with another question) is refused as
"made on another release", and the documents a run did not cover are known, so a partial run
can be scored over the full split (missing = wrong) or labelled partial.

Releases come from a folder of release folders (``--releases DIR``, else ``CHARTPROBE_DATA``),
or from the Hub repos at their pinned revisions when neither is set.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..suites import suite_for_release
from ..suites._task_index import TaskData
from .data import ENV_VAR, release_folder_name, resolve_release
from .doc_order import order_documents
from .predictions import PredictionsError, load_release_rows, read_release_card
from .provenance import release_provenance

__all__ = ["ReleaseGold"]

Row = Mapping[str, Any]


class ReleaseGold:
    """The documents of every chartprobe task, built from release rows and cached per release."""

    def __init__(self, root: str | Path | None = None) -> None:
        root = root if root is not None else os.environ.get(ENV_VAR)
        self.root = Path(root).expanduser() if root else None
        self._rows: dict[str, dict[tuple[str, str], list[dict[str, Any]]]] = {}  # release or release/config/split
        self._docs: dict[str, dict[str, Row]] = {}
        self._positions: dict[str, dict[str, int]] = {}
        self._suites: dict[str, Any] = {}
        self._cards: dict[str, dict[str, Any]] = {}  # release -> its card header
        self.provenance: dict[str, dict[str, Any]] = {}
        """Release name -> :class:`~chartprobe.eval_tasks.rescoring.provenance.ReleaseProvenance` as JSON (recorded in results)."""

    def _split_rows(self, release: str, config: str, split: str) -> list[dict[str, Any]] | None:
        """The rows of one config/split (None if the release has none), read once, only when a task needs them."""
        if self.root is None:  # the Hub: datasets loads and caches whole configs
            if release not in self._rows:
                self._rows[release] = self._load_hub(release)
            return self._rows[release].get((config, split))
        key = f"{release}\x00{config}\x00{split}"
        if key not in self._rows:
            folder = self.root / release_folder_name(release)
            if not (folder / "README.md").is_file():
                raise PredictionsError(f"the gold comes from the release, but {folder} is not a release folder "
                                       f"(pass --releases DIR holding chartprobe-{release}/, or set {ENV_VAR})")
            if release not in self.provenance:
                self.provenance[release] = release_provenance(release, {"path": str(folder)}).to_json()
            if release not in self._cards:  # one card read per release, not per split
                self._cards[release] = read_release_card(folder)
            # Only the split a task scores: a test-split run never reads the (larger) train split.
            self._rows[key] = load_release_rows(folder, only={(config, split)}, meta=self._cards[release])
        return self._rows[key].get((config, split))

    def _load_hub(self, release: str) -> dict[tuple[str, str], list[dict[str, Any]]]:
        import datasets
        from chartprobe.dataset_builders.release.labels import as_text

        where = resolve_release(release)
        out: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for config in datasets.get_dataset_config_names(where["path"], revision=where.get("revision")):
            for split, ds in datasets.load_dataset(name=config, **where).items():
                ds = as_text(ds)  # ClassLabel columns as their names
                images = [c for c in ds.column_names if c.startswith("image")]
                out[(config, split)] = ds.remove_columns(images).to_list()
        self.provenance[release] = release_provenance(release, where).to_json()
        return out

    def _suite(self, release: str) -> Any:
        if release not in self._suites:
            self._suites[release] = suite_for_release(release)
        return self._suites[release]

    def documents(self, task: TaskData) -> dict[str, Row]:
        """Document key (the suite's ``doc_key``) -> document of ``task``, in task order (:mod:`.doc_order`)."""
        if task.task not in self._docs:
            rows = self._split_rows(task.release, task.config, task.split)
            if rows is None:
                raise PredictionsError(f"release {task.release} has no {task.config}/{task.split} "
                                       f"(task {task.task})")
            picked = [r for r in rows if task.selects(task.config, task.split, r)]
            suite = self._suite(task.release)
            docs = order_documents(suite, suite.documents(task.config, picked))  # lm-eval's order
            self._docs[task.task] = {suite.doc_key(d): d for d in docs}
            self._positions[task.task] = {key: i for i, key in enumerate(self._docs[task.task])}
        return self._docs[task.task]

    def position(self, task: TaskData, doc: Row) -> int:
        """The document's position in its task: lm-eval's ``doc_id`` for a full run."""
        self.documents(task)
        return self._positions[task.task][self._suite(task.release).doc_key(doc)]

    def document(self, task: TaskData, sample_doc: Row, where: str) -> Row:
        """The release's document for a sample's doc; refuses a doc from another release."""
        return self.lookup(task, sample_doc, where)[1]

    def lookup(self, task: TaskData, sample_doc: Row, where: str = "") -> tuple[str, Row, int]:
        """(key, document, position) of a sample's doc in the release (see :meth:`document`).

        One key computation and three dict lookups: the scorer calls this once per record, and
        names the line itself when it fails (``where`` empty: the message has no location).
        """
        docs = self._docs.get(task.task)
        key = self._suite(task.release).doc_key(sample_doc)
        doc = (self.documents(task) if docs is None else docs).get(key)
        same = doc is not None and ("question" not in sample_doc or doc.get("question") == sample_doc["question"])
        logged = sample_doc.get("release_hash")  # the loader stamps every document (data.load_release)
        if same and not logged:  # no hash logged to hold against the release's: nothing more to check
            return key, doc, self._positions[task.task][key]
        where = f"{where}: " if where else ""
        digest = (self.provenance.get(task.release) or {}).get("content_hash") or "?"
        if not same:
            raise PredictionsError(f"{where}doc {key!r} of task {task.task} is not in release "
                                   f"{task.release} (content hash {str(digest)[:12]}): the samples were made on "
                                   "another release")
        if logged and digest != "?" and logged != digest:
            raise PredictionsError(f"{where}the samples were made on release {task.release} with content hash "
                                   f"{str(logged)[:12]}, the gold release has {str(digest)[:12]}: score them "
                                   "against the release they were made on (--releases)")
        return key, doc, self._positions[task.task][key]
