"""What a VLMEvalKit row of a chartprobe task holds: the lm-eval task's own document, prompt and images.

Nothing is re-derived: the documents are what the task's ``custom_dataset`` returns (same rows,
same order, CPA's two orders per pair; :func:`chartprobe.eval_tasks.harness.lmms.hooks.load_docs`, the
loader lmms-eval's tasks share), ``question`` is the task's ``doc_to_text`` rendered by lm-eval's
own Jinja renderer over that document, with no ``<image>`` placeholder
(``chartprobe_image_token=""``, as for API models: VLMEvalKit sends the images as message parts,
before the text), the images are the task's ``doc_to_image`` columns, in order, as the release's
PNG bytes, and ``answer`` is ``doc_to_target``.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ...rescoring.vlmevalkit_layout import (
    TASK_COLUMN,
    doc_column,
    encode_images,
    image_paths,
)

__all__ = ["XLSX_MAX_CELL", "ExportError", "ExportTask", "export_tasks"]

XLSX_MAX_CELL = 32_767
"""The longest text an Excel cell holds; VLMEvalKit's default ``.xlsx`` predictions must hold every cell."""


class ExportError(ValueError):
    """A release, config or split that cannot be exported (one ``chartprobe: error:`` line)."""


def _left_out(field: str) -> bool:
    """Document fields not written: chart specs (JSON the row's id finds in the release, and the
    largest cells), ``image_token`` (empty here) and ``prompt`` (it is the ``question`` column)."""
    return field in ("spec", "image_token", "prompt") or field.endswith("_spec") or field.startswith("spec_")


@dataclass(frozen=True)
class ExportTask:
    """One chartprobe task as VLMEvalKit sees it: its documents' prompt, images and gold."""

    task: str
    """The lm-eval task name; also the VLMEvalKit dataset name (the TSV's file name)."""
    config: Mapping[str, Any]
    """Its lm-eval YAML, ``include:`` chain merged."""

    @property
    def images(self) -> list[str]:
        """The document's image columns, in the order the model is shown them."""
        return list(self.config["doc_to_image"])

    def documents(self, split: str):
        """The task's documents (a ``datasets.Dataset``), images as their encoded bytes (never decoded)."""
        import datasets

        from ..lmms.hooks import load_docs

        docs = load_docs(self.task, split).with_format(None)  # the stored bytes, not lazy_images' charts
        for column in self.images:
            docs = docs.cast_column(column, datasets.Image(decode=False))
        return docs

    def fields(self, docs: Any) -> list[str]:
        """The document fields a row carries besides ``answer`` (its own column): the flat ones (users
        filter on them), specs and images left out."""
        import datasets

        return [name for name, feature in docs.features.items() if isinstance(feature, datasets.Value)
                and name not in self.images and name != "answer" and not _left_out(name)]

    def header(self, docs: Any) -> list[str]:
        """The TSV's columns: VLMEvalKit's, then chartprobe's (:mod:`.layout`)."""
        return ["index", "image", "image_path", "question", "answer", TASK_COLUMN,
                *map(doc_column, self.fields(docs))]

    def rows(self, docs: Any) -> Iterator[dict[str, str]]:
        """The TSV rows of ``docs``: ``index`` is the document's position (lm-eval's ``doc_id``)."""
        from lm_eval.utils import apply_template

        fields = self.fields(docs)
        text, target = self.config["doc_to_text"], self.config.get("doc_to_target", "answer")
        for index, doc in enumerate(docs):
            pngs = [_png(doc[column]) for column in self.images]
            row = {"index": str(index), "image": encode_images(pngs), "image_path": image_paths(index, pngs),
                   # a column name is that column, else Jinja: lm-eval's own reading of both fields
                   "question": str(doc[text]) if text in doc else apply_template(text, doc),
                   "answer": str(doc[target]) if target in doc else apply_template(target, doc),
                   TASK_COLUMN: self.task}
            row.update((doc_column(f), _text(doc[f])) for f in fields)
            yield _checked(self.task, index, row)


def _png(cell: Mapping[str, Any]) -> bytes:
    """An image cell's bytes as PNG: the release's own bytes (PNG already), else re-encoded."""
    data = cell.get("bytes") or b""
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return data
    from PIL import Image

    out = io.BytesIO()
    Image.open(io.BytesIO(data)).convert("RGB").save(out, format="PNG")
    return out.getvalue()


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _checked(task: str, index: int, row: dict[str, str]) -> dict[str, str]:
    for column, value in row.items():
        if column not in ("image", "image_path") and len(value) > XLSX_MAX_CELL:
            raise ExportError(f"{task} document {index}: {column} has {len(value)} characters, more than an "
                              f"Excel cell holds ({XLSX_MAX_CELL}): VLMEvalKit could not write its predictions")
    return row


def export_tasks(dataset: str, config: str, split: str) -> list[ExportTask]:
    """The tasks a VLMEvalKit export of ``dataset``/``config``/``split`` holds: the chartprobe-protocol
    (rescored) tasks reading it with one greedy answer per document (``*_vote`` tasks sample K
    answers per document, which VLMEvalKit does not)."""
    from ...suites._task_index import task_index
    from ..lmms.hooks import lm_eval_config

    out = []
    for data in task_index().values():
        if data.release == dataset and data.config == config and data.split == split and data.rescored:
            yaml = lm_eval_config(data.task)
            if int(yaml.get("repeats", 1)) == 1:
                if yaml.get("description"):
                    raise ExportError(f"task {data.task} sends a system turn (description), which the VLMEvalKit "
                                      "export does not carry")
                out.append(ExportTask(data.task, yaml))
    return out
