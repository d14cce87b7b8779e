"""VLMEvalKit's file conventions, as its source defines them (nothing here imports VLMEvalKit).

Read at open-compass/VLMEvalKit@:data:`VLMEVALKIT_COMMIT`:

- ``vlmeval/dataset/image_base.py`` (``ImageBaseDataset``): a dataset is one TSV,
  ``$LMUData/<dataset>.tsv``, with columns ``index`` (unique integer), ``image`` (base64; a row
  with several images holds a list of base64 strings written as a list literal, which
  ``toliststr`` evaluates back), optional ``image_path`` (the file names ``dump_image`` decodes
  the images to under ``$LMUData/images/<dataset>/``, one per image), ``question`` and
  ``answer``; any other column is kept as is. ``build_prompt`` sends the images, then
  ``question``; ``evaluate(eval_file, **judge_kwargs)`` scores a prediction file.
- ``vlmeval/inference.py`` (``infer_data_job``) and ``vlmeval/smp/file.py``
  (``get_pred_file_path``, ``dump``): the prediction file is the dataset table without
  ``image`` plus a ``prediction`` column, written to
  ``<work_dir>/<model>/<eval_id>/<model>_<dataset>.xlsx`` (``.tsv`` with ``PRED_FORMAT=tsv``;
  tab-separated, every field quoted) and linked into ``<work_dir>/<model>/`` by ``run.py``.

chartprobe names each exported dataset after its chartprobe task, so a prediction file's name
``<model>_<task>.xlsx`` says both the model and the task.
"""

from __future__ import annotations

import ast
import base64
import hashlib
import json
import re

__all__ = ["CHARTPROBE_COLUMNS", "PREDICTION_NAME", "RESERVED", "TASK_COLUMN", "VLMEVALKIT_COMMIT",
           "decode_images", "doc_column", "encode_images", "field_of", "image_paths"]

VLMEVALKIT_COMMIT = "e8e78f05f3080fe28154f2130321f17951c3be94"
"""The VLMEvalKit commit whose formats this package follows (2026-08-18, "Fix Physics and CharXiv
dataset metadata (#1629)")."""

RESERVED = ("index", "image", "image_path", "question", "answer", "prediction", "hint", "category",
            "l2-category", "split", "thinking", "extra_records")
"""Columns VLMEvalKit gives a meaning of its own (the TSV fields, what inference adds, what its
generic code reads); a chartprobe document field of one of these names is written as ``doc_<name>``."""

TASK_COLUMN = "chartprobe_task"
"""The chartprobe task a row is a document of (the file name says it too; both must agree)."""

CHARTPROBE_COLUMNS = (TASK_COLUMN,)
"""Columns chartprobe adds beyond the document's own fields."""

PREDICTION_NAME = re.compile(r"^(?P<model>.+)_(?P<task>chartprobe_\w+)(?P<date>)\.(?:xlsx|tsv)$")
"""A VLMEvalKit prediction file of a chartprobe task: ``<model>_<task>.xlsx`` (or ``.tsv``). Task
names hold no ``_chartprobe_``, so the last one splits the model from the task; the name has
no date (the group is empty)."""


def doc_column(field: str) -> str:
    """The TSV column of a chartprobe document field (``doc_<name>`` where VLMEvalKit reserves the name)."""
    return f"doc_{field}" if field in RESERVED else field


def field_of(column: str) -> str | None:
    """The document field a prediction-file column holds, or None for VLMEvalKit's own columns."""
    if column in RESERVED or column in CHARTPROBE_COLUMNS:
        return None
    name = column.removeprefix("doc_")
    return name if column.startswith("doc_") and name in RESERVED else column


def encode_images(pngs: list[bytes]) -> str:
    """The ``image`` cell: one base64 string, or several as a list literal (``toliststr`` reads it)."""
    texts = [base64.b64encode(png).decode("ascii") for png in pngs]
    return texts[0] if len(texts) == 1 else json.dumps(texts)


def decode_images(cell: str) -> list[bytes]:
    """The images of an ``image`` cell (VLMEvalKit's ``toliststr``, without its ``eval``)."""
    texts = ast.literal_eval(cell) if cell.startswith("[") and cell.endswith("]") else [cell]
    return [base64.b64decode(t) for t in texts]


def image_paths(index: int, pngs: list[bytes]) -> str:
    """The ``image_path`` cell: file names holding each image's hash.

    ``dump_image`` skips an image whose file already exists, so a plain ``<index>.png`` would
    show a model the images of an older export of the same task; a content hash in the name
    never collides.
    """
    names = [f"{index}_{i}_{hashlib.sha256(png).hexdigest()[:16]}.png" for i, png in enumerate(pngs)]
    return names[0] if len(names) == 1 else json.dumps(names)
