"""Put the original charts a Chartographer release leaves out back where ``--released`` looks for them.

The released card says the upstream charts are not included ("recover these original images using
the ``source_row_index`` field paired with upstream dataset identifiers"). The released exporter
(compling-wat/Chartographer @ 1f02025c, ``export_chart_question_families.py``) numbers rows by
their position in ``load_examples(dataset, split)``, which applies the config's row filter first
(``src/common/datasets.py``: ``ds.filter(keep_row)``): ChartQA's ``source_row_index`` counts only
the human-written rows (``human_or_machine == 0``) of ``val``, not every row.

:func:`restore_originals` reads every released ``original`` row whose image is not in the folder,
takes row ``source_row_index`` of the kept rows of its source split (a preset's Hub dataset from
the local cache, or any local copy: a folder with ``metadata.jsonl``, or parquet files), checks
that the source row's question is the released row's question, and writes the image as PNG to
``DIR/originals/<source_dataset_split>/<source_row_index>.png`` (:func:`.released_images.restore_path`).
Any missing source, out-of-range index or question mismatch stops it before a file is written.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .reconstruct.sources import SOURCE_PRESETS, SourceError, SourcePreset, _local_rows, _png, _text
from .released import _records, _row_files
from .released_images import RESTORE_DIR, RESTORE_SUFFIXES
from .released_rows import ReleasedFamiliesError, member_of

__all__ = ["Restored", "parse_sources", "restore_originals"]


@dataclass
class Restored:
    """What a restore did: files written per source split, originals already present, where."""

    written: dict[str, int] = field(default_factory=dict)
    present: int = 0
    folder: str = ""


def parse_sources(items: list[str] | None) -> dict[str, str]:
    """``SPLIT=SOURCE`` items -> {split: source} (one line naming the bad item otherwise)."""
    out: dict[str, str] = {}
    for item in items or []:
        split, sep, source = item.partition("=")
        if not sep or not split.strip() or not source.strip():
            raise SourceError(f"--source {item!r}: expected SPLIT=SOURCE, e.g. chartqa_val=./chartqa-val/")
        out[split.strip()] = source.strip()
    return out


def _preset(split: str) -> tuple[SourcePreset | None, str | None]:
    """The preset a released split names (``chartqa_val``: ChartQA, split ``val``), if any."""
    for key, preset in SOURCE_PRESETS.items():
        if split == key or split.startswith(key + "_"):
            return preset, split[len(key) + 1:] or preset.split
    return None, None


def _missing_originals(root: Path) -> Iterator[tuple[Any, Path]]:
    """(member, row file) of every released original whose image is not in the folder nor restored yet."""
    for path in _row_files(root):
        for where, raw in _records(path)[0]:
            member, image = member_of(raw, where)
            if member.role != "original":
                continue
            if image and ((path.parent / image).is_file() or (root / image).is_file()):
                continue
            yield member, path


def _already(root: Path, split: str, index: int) -> bool:
    base = root / RESTORE_DIR / split / str(index)
    return any(base.with_suffix(s).is_file() for s in RESTORE_SUFFIXES)


def _kept(split: str, source: str | None, columns: Mapping[str, str] | None) -> tuple[Any, list[int], dict, Path | None]:
    """(rows, raw indices of the kept rows in order, column map, image folder) of one source split."""
    preset, preset_split = _preset(split)
    where = source or (preset.dataset if preset else None)
    if where is None:
        raise SourceError(f"released split {split!r}: no source (give --source {split}=HUB_ID_OR_PATH)")
    cols = dict(columns or (preset.columns if preset else {"image": "image", "question": "question"}))
    path = Path(where).expanduser()
    if path.exists():
        rows, folder = _local_rows(path, None)
    else:
        import datasets

        try:  # the Hub's copy in the local cache: nothing is downloaded when it is there
            rows, folder = datasets.load_dataset(where, split=preset_split or "test"), None
        except Exception as exc:  # the Hub and loaders raise many kinds  # noqa: BLE001
            raise SourceError(f"released split {split!r}: cannot load {where!r} ({type(exc).__name__}: "
                              f"{str(exc).splitlines()[0] if str(exc) else ''}); give --source {split}=PATH "
                              "to a local copy") from None
    light = rows.remove_columns([cols["image"]]) if hasattr(rows, "remove_columns") else rows
    keep = preset.keep if preset else None
    kept = [i for i, row in enumerate(light) if keep is None or keep(row)]
    return rows, kept, cols, folder


def restore_originals(root: str | Path, sources: Mapping[str, str] | None = None, *,
                      columns: Mapping[str, str] | None = None, progress: bool = False) -> Restored:
    """Restore every missing released original under ``root`` (see the module docstring)."""
    from tqdm.auto import tqdm

    root = Path(root).expanduser()
    if not root.is_dir():
        raise ReleasedFamiliesError(f"{root}: no such folder (the released Chartographer export)")
    todo: dict[str, list[Any]] = {}
    report = Restored(folder=str(root / RESTORE_DIR))
    for member, _ in _missing_originals(root):
        if member.source_row_index is None:
            raise ReleasedFamiliesError(f"{member.where}: the original has no image and no source_row_index")
        if _already(root, member.source_split, member.source_row_index):
            report.present += 1
        else:
            todo.setdefault(member.source_split, []).append(member)
    images: dict[tuple[str, int], bytes] = {}
    for split, members in todo.items():
        rows, kept, cols, folder = _kept(split, (sources or {}).get(split), columns)
        for m in tqdm(members, desc=f"originals {split}", unit="chart", disable=not progress):
            if m.source_row_index >= len(kept):
                raise SourceError(f"{m.where}: source_row_index {m.source_row_index} but {split} has "
                                  f"{len(kept)} rows (after the source's row filter)")
            row, where = rows[kept[m.source_row_index]], f"{split} row {m.source_row_index}"
            missing = [c for c in (cols["image"], cols["question"]) if c not in row]
            if missing:
                raise SourceError(f"{where}: no column {missing[0]!r} (map it with --columns image=...,question=...)")
            question = _text(row[cols["question"]], where, "question")
            if question != m.question.strip():
                raise SourceError(f"{m.where}: the source row {m.source_row_index} of {split} asks {question[:80]!r}, "
                                  f"the released original {m.question.strip()[:80]!r}: not the same row, nothing "
                                  "written")
            images[(split, m.source_row_index)] = _png(row[cols["image"]], where, folder)
    _write(root, images, report)
    return report


def _write(root: Path, images: Mapping[tuple[str, int], bytes], report: Restored) -> None:
    """Write every image into a temporary folder beside ``originals/``, then move each into place."""
    if not images:
        return
    with tempfile.TemporaryDirectory(prefix=".originals-", dir=root) as tmp:
        for (split, index), data in images.items():
            (Path(tmp) / split).mkdir(exist_ok=True)
            (Path(tmp) / split / f"{index}.png").write_bytes(data)
        for (split, index) in images:
            target = root / RESTORE_DIR / split
            target.mkdir(parents=True, exist_ok=True)
            os.replace(Path(tmp) / split / f"{index}.png", target / f"{index}.png")
            report.written[split] = report.written.get(split, 0) + 1
