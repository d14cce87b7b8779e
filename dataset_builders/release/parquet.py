"""Writing a split as parquet with each distinct image stored once.

Every question about a chart is its own row, and each row carries the chart's PNG: in the
probes release 85% of the image bytes were copies. ``datasets`` writes image columns PLAIN
and uncompressed (for content-defined chunking on the Hub), so every copy went to disk.
Here the image column is *dictionary encoded*: a row group stores each distinct PNG once in
its dictionary page and the rows point at it. The rows of one chart are adjacent, so they
share a row group. Parquet readers decode the dictionary transparently:
``load_dataset(...)[i]["image"]`` and every task read exactly the same values, with the same
``Image`` feature (the schema and its ``huggingface`` metadata are ``datasets``' own).

The content hash runs over decoded rows (``digest.content_hash``), so it does not change with
this encoding.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from .stream import record_batches

__all__ = ["DICTIONARY_PAGE_LIMIT", "MAX_SHARD_BYTES", "ROW_GROUP_BYTES", "write_split"]

MAX_SHARD_BYTES = 500 * 1024 * 1024
"""Parquet files are split so that none holds more than this much (decoded) Arrow data."""

ROW_GROUP_BYTES = 64 * 1024 * 1024
"""Target decoded size of a row group: small enough for streaming readers, large enough that
a chart's rows rarely straddle two groups (a straddling chart costs one extra copy)."""

DICTIONARY_PAGE_LIMIT = 1024 * 1024 * 1024
"""Above a row group's distinct image bytes: past the limit parquet falls back to PLAIN for
the rest of the column chunk, which would store copies again (pyarrow's default is 1 MiB)."""


def _column_options(features: Any, schema: Any) -> dict[str, Any]:
    """Per-leaf options: image bytes dictionary-encoded and uncompressed (PNG is already
    compressed), every other column dictionary-encoded and snappy-compressed."""
    from datasets.arrow_writer import get_parquet_column_options

    options = get_parquet_column_options(features, schema)  # datasets' own leaf paths
    compression = dict(options["compression"])
    return {"compression": compression, "use_dictionary": list(compression)}


def write_split(ds: Any, folder: Path, config: str, split: str) -> list[str]:
    """Write ``ds`` as ``<config>/<split>-XXXXX-of-NNNNN.parquet`` under ``folder``; return the
    relative paths (one file per :data:`MAX_SHARD_BYTES` of data).

    The rows are streamed from the split's Arrow file (``stream.py``) and written one row
    group at a time, so memory stays flat however large the split is.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    from .card import content_bytes

    schema = ds.features.arrow_schema  # with datasets' metadata: the features load_dataset reads
    size = content_bytes(ds)  # reads offsets, not image bytes
    n_files = max(1, math.ceil(size / MAX_SHARD_BYTES))
    per_group = max(1, math.floor(len(ds) * ROW_GROUP_BYTES / max(size, 1)))
    bounds = [round(i * len(ds) / n_files) for i in range(n_files + 1)]
    (folder / config).mkdir(parents=True, exist_ok=True)
    names = [f"{config}/{split}-{i:05d}-of-{n_files:05d}.parquet" for i in range(n_files)]
    rows = record_batches(ds)
    carry = None
    for i, rel in enumerate(names):
        with pq.ParquetWriter(str(folder / rel), schema, dictionary_pagesize_limit=DICTIONARY_PAGE_LIMIT,
                              **_column_options(ds.features, schema)) as writer:
            need = bounds[i + 1] - bounds[i]
            if not need:
                writer.write_table(pa.Table.from_batches([], schema=schema))
            group: list[Any] = []
            filled = 0
            while need:  # one row group at a time: at most per_group rows are held
                batch = carry if carry is not None else next(rows)
                take = min(len(batch), need, per_group - filled)
                carry = batch.slice(take) if take < len(batch) else None
                group.append(batch.slice(0, take))
                filled, need = filled + take, need - take
                if filled == per_group or not need:
                    writer.write_table(pa.Table.from_batches(group).cast(schema))
                    group, filled = [], 0
    return names
