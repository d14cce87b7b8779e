"""What ``push`` checks before anything leaves the machine: the folder is the build's, intact.

A release folder may be pushed only as a build wrote it: the allow-list is ``README.md``,
``<config>/<split>-NNNNN-of-NNNNN.parquet`` for the configs and splits the card declares,
and the files the card links to (a builder's ``card_files``, e.g. ``images/...``). Anything
else (a stray ``.env``, an editor backup, a symlink) is refused, naming the file, so a
secret lying in the folder can never be uploaded. Every parquet file must be readable and
the content hash recomputed from them (``digest.content_hash``, the function the build used)
must equal the card's, so a truncated or edited shard is refused too.

Every problem raises :class:`VerifyError` with one line; ``push`` re-raises it as ``PushError``.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["VerifyError", "allowed_files", "verify_release"]

_SHARD = re.compile(r"^(?P<config>[^/]+)/(?P<split>[^/]+)-(?P<i>\d{5})-of-(?P<n>\d{5})\.parquet$")
_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)")
"""Markdown link and image targets: ``[text](target)`` / ``![alt](target)``."""


class VerifyError(ValueError):
    """The release folder is not exactly what a build writes, or its data does not match its card."""


def _declared_splits(meta: dict[str, Any]) -> set[tuple[str, str]]:
    """(config, split) pairs the card's ``dataset_info`` declares."""
    return {(info["config_name"], split["name"]) for info in meta.get("dataset_info") or []
            for split in info.get("splits") or []}


def _card_links(card_text: str) -> set[str]:
    """Relative file paths the card body links to (URLs, anchors and ``..`` paths left out)."""
    out = set()
    for target in _LINK.findall(card_text):
        target = target.split("#", 1)[0].split("?", 1)[0]
        if not target or ":" in target or target.startswith("/"):
            continue
        norm = posixpath.normpath(target)
        if not norm.startswith(".."):
            out.add(norm)
    return out


def _walk(folder: Path) -> Iterator[str]:
    """Every entry under ``folder`` as a relative POSIX path; symlinks are refused, not followed
    (``upload_folder`` would follow one and upload whatever it points at)."""
    for top, dirs, files in os.walk(folder, followlinks=False):
        for name in sorted(dirs + files):
            path = Path(top) / name
            rel = path.relative_to(folder).as_posix()
            if path.is_symlink():
                raise VerifyError(f"{folder}: {rel} is a symlink; a build writes none (remove it before pushing)")
            if name in files:
                yield rel


def allowed_files(folder: Path, meta: dict[str, Any], card_text: str) -> list[str]:
    """The release's files, sorted; raises on the first file a build does not write."""
    declared = _declared_splits(meta)
    links = _card_links(card_text)
    files, stray = [], []
    for rel in _walk(folder):
        shard = _SHARD.match(rel)
        ok = rel == "README.md" or rel in links or (
            shard is not None and (shard["config"], shard["split"]) in declared)
        (files if ok else stray).append(rel)
    if stray:
        more = f" (and {len(stray) - 1} more)" if len(stray) > 1 else ""
        raise VerifyError(f"{folder}: {stray[0]}{more} is not a file a build writes (README.md, "
                          "<config>/<split>-NNNNN-of-NNNNN.parquet, files the card links to); "
                          "remove it before pushing")
    return sorted(files)


@dataclass
class _ParquetSplit:
    """A split read back from its shards, shaped like what ``content_hash`` reads from a
    ``datasets.Dataset`` (``len()`` and ``.data.to_batches()``), streamed batch by batch."""

    folder: Path
    shards: list[str]
    num_rows: int

    @property
    def data(self) -> _ParquetSplit:
        return self

    def __len__(self) -> int:
        return self.num_rows

    def to_batches(self) -> Iterator[Any]:
        import pyarrow.parquet as pq

        from .labels import decode_batch, label_names

        for rel in self.shards:
            try:
                parquet = pq.ParquetFile(self.folder / rel)
                names = label_names(parquet.schema_arrow)  # hashed as names, as the build hashed them
                for batch in parquet.iter_batches(batch_size=256):
                    yield decode_batch(batch, names)
            except (OSError, ValueError) as exc:  # ArrowInvalid is a ValueError
                raise VerifyError(_unreadable(self.folder, rel, exc)) from None


def _unreadable(folder: Path, rel: str, exc: BaseException) -> str:
    if isinstance(exc, PermissionError):  # pyarrow's own text is long and cut short: say it plainly
        return f"{folder}: {rel}: Permission denied (give this user read access to the release)"
    first = (str(exc).splitlines() or [""])[0][:160]
    return f"{folder}: {rel} is not a readable parquet file ({type(exc).__name__}: {first}); rebuild the release"


def _open_splits(folder: Path, meta: dict[str, Any], files: list[str]) -> dict[str, dict[str, _ParquetSplit]]:
    """Every declared split from its complete shard set, row counts checked against the card."""
    import pyarrow.parquet as pq

    shards: dict[tuple[str, str], list[tuple[int, int, str]]] = {}
    for rel in files:
        if m := _SHARD.match(rel):
            shards.setdefault((m["config"], m["split"]), []).append((int(m["i"]), int(m["n"]), rel))
    expected = {(info["config_name"], s["name"]): s.get("num_examples")
                for info in meta.get("dataset_info") or [] for s in info.get("splits") or []}
    release: dict[str, dict[str, _ParquetSplit]] = {}
    for (config, split), want_rows in sorted(expected.items()):
        found = sorted(shards.get((config, split), []))
        n = found[0][1] if found else 0
        if not found or [(i, k) for i, k, _ in found] != [(i, n) for i in range(n)]:
            raise VerifyError(f"{folder}: {config}/{split} has shards {[r for *_, r in found] or 'none'}; "
                              f"expected {config}/{split}-00000-of-NNNNN.parquet through NNNNN-1; rebuild the release")
        rels = [rel for *_, rel in found]
        rows = 0
        for rel in rels:
            try:
                rows += pq.ParquetFile(folder / rel).metadata.num_rows
            except (OSError, ValueError) as exc:
                raise VerifyError(_unreadable(folder, rel, exc)) from None
        if want_rows is not None and rows != want_rows:
            raise VerifyError(f"{folder}: {config}/{split} holds {rows} rows, the card says {want_rows}; "
                              "rebuild the release")
        release.setdefault(config, {})[split] = _ParquetSplit(folder, rels, rows)
    return release


def verify_release(folder: Path, meta: dict[str, Any], card_text: str) -> list[str]:
    """Check a release folder before upload; return its (allow-listed) files."""
    from .digest import content_hash

    files = allowed_files(folder, meta, card_text)
    want = str((meta.get("chartprobe") or {}).get("content_hash") or "")
    got = content_hash(_open_splits(folder, meta, files))
    if got != want:
        raise VerifyError(f"{folder}: the content hash of its parquet files is {got[:12]}, the card says "
                          f"{want[:12]}: the data changed after the build; rebuild the release")
    return files
