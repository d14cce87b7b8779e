"""The content hash of a release: over decoded rows, in config/split/key order.

Kept apart from ``hub.py`` so that shards (``shards.py``), merges and ``verify.py`` hash rows
exactly as a build does without importing the build.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .labels import decode_batch
from .stream import record_batches

__all__ = ["content_hash"]


def content_hash(release: dict[str, dict[str, Any]]) -> str:
    """SHA-256 over every row of every config/split, in order, images as their own hashes.

    It hashes content, not files, so parquet encoder details never change it, and it hashes
    ``ClassLabel`` columns as their names, so the label encoding does not either. Rows are
    streamed from each split's Arrow file (``stream.py``), so memory does not grow with them.
    """
    from datasets import ClassLabel

    h = hashlib.sha256()
    for config in sorted(release):
        for split in sorted(release[config]):
            ds = release[config][split]
            features = getattr(ds, "features", None) or {}  # verify's reader decodes its own labels
            names = {c: f.names for c, f in features.items() if isinstance(f, ClassLabel)}
            h.update(f"{config}/{split}/{len(ds)}\n".encode())
            for batch in record_batches(ds):
                for row in (decode_batch(batch, names) if names else batch).to_pylist():
                    h.update(_row_digest(row))
    return h.hexdigest()


def _row_digest(row: dict[str, Any]) -> bytes:
    def plain(v):
        if isinstance(v, dict) and "bytes" in v:  # an Image cell: hash its bytes
            return hashlib.sha256(v["bytes"] or b"").hexdigest()
        if isinstance(v, list):
            return [plain(x) for x in v]
        if isinstance(v, bytes):
            return hashlib.sha256(v).hexdigest()
        return v

    text = json.dumps({k: plain(v) for k, v in row.items()}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).digest()
