"""Categorical columns as ``ClassLabel`` on the Hub, as text in chartprobe.

A column with a closed vocabulary (a probe's ``template_id`` and ``skill``, a CPA pair's
``criterion`` and ``dimension``) is stored as a ``datasets.ClassLabel``: the Hub's viewer shows its
value counts and ``train_test_split(stratify_by_column=...)`` works on it. The builders still
yield names (``ClassLabel`` encodes them while writing and refuses a name outside the
vocabulary), and everything chartprobe reads back — lm-eval documents, ``chartprobe score``,
the agents, training data, the Space, a builder's own checks — sees names again through
:func:`as_text` (a ``Dataset``) or :func:`decode_batch` (a pyarrow batch), so prompts, scores and
tables never depend on the label encoding.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["as_text", "class_label", "decode_batch", "label_names"]


def class_label(names: Iterable[str]) -> Any:
    """A ``ClassLabel`` over ``names`` in sorted order (so the encoding follows the vocabulary alone,
    not registration order)."""
    from datasets import ClassLabel

    return ClassLabel(names=sorted(set(names)))


def _decoded(column: Any, names: list[str]) -> Any:
    import pyarrow as pa
    import pyarrow.compute as pc

    vocab = pa.array(names, pa.string())
    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    return pa.chunked_array([pc.take(vocab, chunk) for chunk in chunks], pa.string())


def as_text(ds: Any) -> Any:
    """``ds`` with every ``ClassLabel`` column as its names (a string column); ``ds`` itself when it has none.

    Arrow-level: the other columns (images included) are not copied, and the fingerprint follows
    the input's, so ``datasets``' caches of later ``filter``/``select`` calls stay valid.
    """
    from datasets import ClassLabel, Dataset, Value

    labels = {c: f for c, f in ds.features.items() if isinstance(f, ClassLabel)}
    if not labels:
        return ds
    from datasets.table import ConcatenationTable, InMemoryTable

    table, info = ds.data, ds.info.copy()
    if isinstance(table, ConcatenationTable):  # a freshly built split: it cannot set a column itself
        table = InMemoryTable(table.table)  # same buffers, no copy
    for column, feature in labels.items():
        table = table.set_column(table.column_names.index(column), column,
                                 _decoded(table.column(column), feature.names))
        info.features[column] = Value("string")
    fingerprint = hashlib.sha256(f"{ds._fingerprint}/as_text".encode()).hexdigest()[:16]
    return Dataset(table, info=info, split=ds.split, indices_table=ds._indices, fingerprint=fingerprint)


def label_names(schema: Any) -> dict[str, list[str]]:
    """Column -> names of the ``ClassLabel`` columns a parquet file's ``datasets`` metadata declares."""
    raw = (schema.metadata or {}).get(b"huggingface")
    if not raw:
        return {}
    features: Mapping[str, Any] = json.loads(raw).get("info", {}).get("features", {})
    return {c: list(f["names"]) for c, f in features.items()
            if isinstance(f, dict) and f.get("_type") == "ClassLabel"}


def decode_batch(batch: Any, names: Mapping[str, list[str]]) -> Any:
    """A pyarrow ``RecordBatch``/``Table`` with the ``ClassLabel`` columns ``names`` lists as text."""
    import pyarrow as pa

    for column, vocab in names.items():
        if column in batch.schema.names:
            i = batch.schema.get_field_index(column)
            decoded = _decoded(batch.column(i), vocab)
            if isinstance(batch, pa.RecordBatch):
                decoded = decoded.combine_chunks()
            batch = batch.set_column(i, column, decoded)
    return batch
