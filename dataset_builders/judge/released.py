"""The released ChartJudgeBench data as ``chartprobe-judge`` rows (``chartprobe build judge --released DIR``).

ChartJudgeBench (arXiv:2609.24210) releases its data as the Hub dataset ``Lijian9/ChartJudgeBench``
(CC BY 4.0: ``DATA_LICENSE.md`` of the released code) and its evaluation code as github
CSU-JPG/ChartJudgeBench (Apache-2.0). That code reads the data with
``datasets.load_dataset("Lijian9/ChartJudgeBench", config, split="train")``: ``chartjudge_bench/data.py``
``load_chartjudge``, the configs ``CPA``, ``ChartEditing``, ``ChartReproduction`` of ``constants.py``
``TASK_SPECS``, ``cli.py``'s ``--split`` default ``train`` (all at commit
63ea2449c6d037f54526b55a855d6f2a19dbf247). The Hub repo is in ``push_to_hub`` layout, one folder per
config (its file tree lists ``ChartReproduction/train-00000-of-00001.parquet``), so a local copy made
with ``huggingface-cli download Lijian9/ChartJudgeBench --repo-type dataset --local-dir DIR`` reads::

    DIR/CPA/train-*.parquet
    DIR/ChartReproduction/train-*.parquet
    DIR/ChartEditing/train-*.parquet
    DIR/README.md                                      # optional: the released card (its `license` is recorded)
    DIR/.cache/huggingface/download/<file>.metadata    # optional: first line = the Hub commit of <file>

:func:`released_params` reads and maps every row once, before anything is built: a missing folder,
file or field, a malformed row, an unknown label or criterion, an unreadable image or a duplicate id
is one :class:`ReleasedError` line. It returns the params every config then carries (the folder and
the SHA-256 of its data files), so the card's recipe names the exact data; :func:`load_released`
re-reads the folder in build processes (cached) and refuses one that changed since. Rows map as
:mod:`.released_rows` says, images as :mod:`.released_images` says. The released split ``train`` is
our ``test`` (the split our tasks read). A preset's counts and CPA ``pairs`` do not apply: every
released row is imported, in released order.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..release.imported import (
    ReleasedFile,
    ReleasedLoader,
    declared_license,
    files_digest,
    files_revisions,
    hub_revision,
)
from .released_images import cell_bytes, embed, needs_conversion
from .released_rows import OPTIONAL_FIELDS, TASKS, ReleasedError, ReleasedTask

__all__ = ["OUR_SPLIT", "RELEASED", "RELEASED_SPLIT", "ReleasedError", "ReleasedFile", "ReleasedSet",
           "load_released", "read_released", "released_from_params", "released_params"]

RELEASED = {"name": "ChartJudgeBench", "dataset": "Lijian9/ChartJudgeBench",
            "dataset_url": "https://huggingface.co/datasets/Lijian9/ChartJudgeBench",
            "code": "https://github.com/CSU-JPG/ChartJudgeBench",
            "commit": "63ea2449c6d037f54526b55a855d6f2a19dbf247", "license": "cc-by-4.0"}
"""Where the data and the code that defines its fields come from (recorded in the release card)."""
RELEASED_SPLIT = "train"
OUR_SPLIT = "test"
MAX_FILE_BYTES = 2 << 30
"""Largest parquet file read (the released ChartReproduction file is 54.7 MB)."""


@dataclass(frozen=True, eq=False)
class ReleasedSet:
    """Every released row of the three tasks, mapped and checked; images still as released."""

    root: str
    files: tuple[ReleasedFile, ...]
    rows: Mapping[str, tuple[dict[str, Any], ...]]
    """Our config -> its rows in released order (image columns hold the released image bytes)."""
    converted: Mapping[str, int]
    """Our config -> image cells :func:`~.released_images.embed` converts to RGB PNG."""
    license: str | None
    """What ``README.md`` declares, if there is one."""

    @property
    def digest(self) -> str:
        """SHA-256 over every file read (path and content hash of each)."""
        return files_digest(self.files)

    @property
    def revisions(self) -> tuple[str, ...]:
        """The Hub commits the files were downloaded at (empty when none was recorded)."""
        return files_revisions(self.files)

    def keys(self, config: str, split: str) -> list[str]:
        """One item key per released row of ``config``; only our ``test`` split can be filled."""
        if split != OUR_SPLIT:
            raise ReleasedError(f"the released ChartJudgeBench data has one split, {RELEASED_SPLIT!r}, imported as "
                                f"{OUR_SPLIT!r}; the preset's split {split!r} cannot be filled from it")
        return [f"released-{i:06d}" for i in range(len(self.rows[config]))]

    def build_row(self, config: str, key: str) -> dict[str, Any]:
        """The row of ``key``, its images embedded (:func:`~.released_images.embed`)."""
        index = int(key.rsplit("-", 1)[1])
        row = dict(self.rows[config][index])
        for column in TASKS.get(config).images:
            where = f"{self.root}: {TASKS.get(config).released} row {index}, {column}"
            row[column] = {"bytes": embed(row[column], where), "path": None}
        return row


def _columns(names: set[str], task: ReleasedTask, where: str) -> dict[str, str]:
    """Role -> the released column that fills it (``data.py`` ``_first``: the first name present)."""
    out = {}
    for role, candidates in task.fields.items():
        found = next((c for c in candidates if c in names), None)
        if found is None:
            raise ReleasedError(f"{where}: no field {' / '.join(map(repr, candidates))} (the released "
                                f"{task.released} schema: chartjudge_bench/data.py)")
        out[role] = found
    for role, candidates in OPTIONAL_FIELDS.items():
        found = next((c for c in candidates if c in names), None)
        if found is not None:
            out[role] = found
    return out


def _read_table(path: Path) -> tuple[Any, str]:
    """(pyarrow table, sha256) of one parquet file, read from the bytes that were hashed."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if path.stat().st_size > MAX_FILE_BYTES:
        raise ReleasedError(f"{path}: larger than {MAX_FILE_BYTES} bytes")
    data = path.read_bytes()
    try:
        table = pq.read_table(pa.BufferReader(data))
    except pa.ArrowException as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ReleasedError(f"{path}: not a parquet file pyarrow can read ({reason})") from None
    return table, hashlib.sha256(data).hexdigest()


def _read_task(root: Path, task: ReleasedTask, files: list[ReleasedFile], seen: dict[str, str]):
    """The mapped rows of one released task and how many of their images get converted."""
    paths = sorted(root.glob(f"{task.released}/{RELEASED_SPLIT}-*.parquet"))
    if not paths:
        raise ReleasedError(f"{root}: no {task.released}/{RELEASED_SPLIT}-*.parquet (the released {task.released} "
                            f"config, e.g. {task.released}/{RELEASED_SPLIT}-00000-of-00001.parquet)")
    rows: list[dict[str, Any]] = []
    converted = 0
    for path in paths:
        rel = path.relative_to(root).as_posix()
        table, digest = _read_table(path)
        columns = _columns(set(table.column_names), task, str(path))
        for i, raw in enumerate(table.select(sorted(set(columns.values()))).to_pylist()):
            where = f"{path}: row {i}"
            row = task.build({role: raw[col] for role, col in columns.items()}, where)
            for column in task.images:
                cell_where = f"{where}, field {columns[column]!r}"
                row[column] = cell_bytes(row[column], root, cell_where)
                converted += needs_conversion(row[column], cell_where)
            if row["id"] in seen:
                raise ReleasedError(f"{where}: duplicate id {row['data_source'].split(':', 1)[1]!r} "
                                    f"(also at {seen[row['id']]})")
            seen[row["id"]] = where
            rows.append(row)
        files.append(ReleasedFile(rel, digest, table.num_rows, hub_revision(root, rel)))
    if not rows:
        raise ReleasedError(f"{root}: {task.released}/{RELEASED_SPLIT}-*.parquet hold no rows")
    return tuple(rows), converted


def read_released(root: str | Path) -> ReleasedSet:
    """Read, map and check every released row under ``root``; ReleasedError (one line) if anything fails."""
    root = Path(root).expanduser()
    if not root.is_dir():
        raise ReleasedError(f"--released {root}: no such folder (a local copy of the Hub dataset "
                            f"{RELEASED['dataset']}: huggingface-cli download {RELEASED['dataset']} "
                            "--repo-type dataset --local-dir DIR)")
    files: list[ReleasedFile] = []
    rows, converted = {}, {}
    for config, task in TASKS.items():
        rows[config], converted[config] = _read_task(root, task, files, {})
    return ReleasedSet(str(root.resolve()), tuple(files), rows, converted, declared_license(root))


LOADER: ReleasedLoader[ReleasedSet] = ReleasedLoader(read_released, ReleasedError)
"""Reads a released folder once per process (:class:`~..release.imported.ReleasedLoader`)."""


def load_released(root: str | Path, sha256: str | None = None) -> ReleasedSet:
    """The released set under ``root`` (read once per process); refused if it is not ``sha256``."""
    return LOADER.load(root, sha256)


def released_params(root: str | Path) -> dict[str, str]:
    """Read and check ``root`` now (fresh); the params naming it for every config."""
    return LOADER.params(root)


def released_from_params(params: Mapping[str, Any]) -> ReleasedSet | None:
    """The released set a config's params name (``released``/``released_sha256``), or None (synthetic)."""
    return LOADER.from_params(params)
