"""Integrity where a release is read: its data is the data its card's content hash names.

``score``, ``validate``, ``profile`` and ``train`` take their gold from a release folder and
record the card's content hash as the release they ran on. A folder whose parquet files were
edited after the build (the hash left stale), whose card carries a placeholder hash (64 zeros),
or which holds a stray or duplicated shard would be scored and recorded under a hash it does not
have. :func:`check_release_integrity` refuses all of those in one line, before any gold is
trusted, by recomputing the hash with the function the build used (``digest.content_hash``
over ``verify._open_splits``, exactly what ``push`` checks).

Hashing a release costs a full read of its rows, so a verified digest is cached, keyed by the
folder and the (size, mtime, ctime, inode) of every parquet file: a second ``score`` over the
same release re-hashes nothing, and any rewrite of a shard forces a recompute (a write changes
ctime, which unlike mtime cannot be set back by ``touch``). The cache lives in memory for the process and in
``$CHARTPROBE_INTEGRITY_CACHE`` (default ``~/.cache/chartprobe/integrity``), never in the
release folder (which ``push`` keeps to an allow-list).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

from .verify import _SHARD, VerifyError, _open_splits

__all__ = ["CACHE_ENV", "IntegrityError", "check_release_integrity", "default_cache_dir", "recompute_content_hash"]

CACHE_ENV = "CHARTPROBE_INTEGRITY_CACHE"
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_MEMORY: dict[str, str] = {}  # cache key -> verified content hash (this process)


class IntegrityError(ValueError):
    """The release folder's data is not what its card names; the message is one line."""


def default_cache_dir() -> Path:
    """``$CHARTPROBE_INTEGRITY_CACHE``, else ``~/.cache/chartprobe/integrity``."""
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "chartprobe" / "integrity").expanduser()


def _parquet_files(folder: Path) -> list[str]:
    """Every ``*.parquet`` under the folder (relative POSIX paths, sorted); symlinks not followed."""
    out = []
    for top, _dirs, files in os.walk(folder, followlinks=False):
        out += [(Path(top) / f).relative_to(folder).as_posix() for f in files if f.endswith(".parquet")]
    return sorted(out)


def _check_shards(folder: Path, meta: dict[str, Any], files: list[str]) -> None:
    """Every parquet file is a shard of a split the card declares: no stray or renamed copy."""
    declared = {(info.get("config_name"), s.get("name")) for info in meta.get("dataset_info") or []
                for s in info.get("splits") or []}
    if not declared:
        raise IntegrityError(f"{folder}/README.md: the card declares no splits (dataset_info); rebuild the release")
    for rel in files:
        m = _SHARD.match(rel)
        if m is None or (m["config"], m["split"]) not in declared:
            raise IntegrityError(f"{folder}: {rel} is not a shard of a split the card declares (a stray or "
                                 "copied parquet file); remove it or rebuild the release")


def _cache_key(folder: Path, want: str, files: list[str]) -> str:
    h = hashlib.sha256(f"{folder.resolve()}\n{want}\n".encode())
    for rel in files:
        st = (folder / rel).stat()
        h.update(f"{rel}\t{st.st_size}\t{st.st_mtime_ns}\t{st.st_ctime_ns}\t{st.st_ino}\t{st.st_dev}\n".encode())
    return h.hexdigest()


def _cached(key: str, cache_dir: Path) -> str | None:
    if key in _MEMORY:
        return _MEMORY[key]
    try:
        doc = json.loads((cache_dir / f"{key}.json").read_text())
    except (OSError, ValueError):
        return None
    return doc.get("content_hash") if isinstance(doc, dict) else None


def _remember(key: str, digest: str, cache_dir: Path) -> None:
    """Cache a verified digest; a cache that cannot be written only costs a recompute next time."""
    _MEMORY[key] = digest
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        tmp = cache_dir / f".{key}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps({"content_hash": digest}))
        os.replace(tmp, cache_dir / f"{key}.json")
    except OSError:
        pass


def recompute_content_hash(folder: str | os.PathLike, meta: dict[str, Any]) -> str:
    """The content hash of the folder's shards as the build computes it (no cache, no comparison);
    the shard set and row counts are checked against the card first."""
    from .digest import content_hash

    folder = Path(folder)
    files = _parquet_files(folder)
    _check_shards(folder, meta, files)
    try:
        return content_hash(_open_splits(folder, meta, files))
    except VerifyError as exc:  # incomplete shard set, row count vs card, unreadable shard
        raise IntegrityError(str(exc)) from None


def check_release_integrity(folder: str | os.PathLike, meta: dict[str, Any], *,
                            cache_dir: str | os.PathLike | None = None) -> str:
    """Verify a local release folder against its card header ``meta``; return its content hash.

    Refused (:class:`IntegrityError`, one line naming the folder): a card without a 64-hex
    content hash or with 64 zeros; a parquet file that is not a shard of a declared split; a
    split whose shards are incomplete or whose row count differs from the card's
    ``num_examples``; an unreadable shard; a recomputed hash that differs from the card's (both
    named). A digest verified once is cached (see the module docstring).
    """
    folder = Path(folder)
    block = meta.get("chartprobe") if isinstance(meta, dict) else None
    raw = block.get("content_hash") if isinstance(block, dict) else None
    want = "" if raw is None else str(raw)
    if want and not want.strip("0"):  # YAML reads an unquoted 000...0 as the integer 0
        raise IntegrityError(f"{folder}/README.md: content hash is zeros ({want[:16]}), a placeholder, not the "
                             "hash of its data; rebuild the release")
    if not _HEX64.match(want):
        raise IntegrityError(f"{folder}/README.md: content hash {want or 'missing'!r} is not a 64-hex SHA-256; "
                             "the card does not name its data: rebuild the release")
    files = _parquet_files(folder)
    _check_shards(folder, meta, files)
    cache = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    key = _cache_key(folder, want, files)
    if _cached(key, cache) == want:
        return want
    got = recompute_content_hash(folder, meta)
    if got != want:
        raise IntegrityError(f"{folder}: its parquet files hash to {got}, the card says {want}: the data "
                             "changed after the build; rebuild the release")
    _remember(key, got, cache)
    return got
