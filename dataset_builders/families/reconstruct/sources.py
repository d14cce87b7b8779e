"""Chart-QA sources for ``chartprobe reconstruct``: any Hub dataset or local folder/parquet with an
image, a question and an answer per row, with the paper's three testbeds as presets.

A preset names the Hub dataset, split, columns, row filter and licence exactly as the paper's
released config reads them (github compling-wat/Chartographer @ 1f02025c,
``examples/datasets.example.json``; A.1 for the licences). ``--columns image=...,question=...,answer=...``
maps any other source. Local sources: a folder with ``metadata.jsonl`` (``file_name`` + fields, the
``imagefolder`` convention), or parquet files (one or a folder). Every row keeps its provenance
(source, split, row index) and licence.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .manifest import source_key

__all__ = ["SOURCE_PRESETS", "SourceError", "SourcePreset", "SourceRow", "load_source", "parse_columns",
           "source_preset"]


class SourceError(ValueError):
    """A source cannot be read or mapped (one line: which source, row and column)."""


@dataclass(frozen=True)
class SourcePreset:
    """Where a chart-QA benchmark lives and how its rows map to image / question / answer."""

    key: str
    name: str
    dataset: str
    split: str
    columns: Mapping[str, str]
    license: str
    rights: str
    keep: Callable[[Mapping[str, Any]], bool] | None = None
    """Rows the paper's config keeps (ChartQA: human-written questions only)."""


SOURCE_PRESETS: dict[str, SourcePreset] = {}


def source_preset(preset: SourcePreset) -> SourcePreset:
    """Register a preset under its key (``--source KEY``)."""
    if preset.key in SOURCE_PRESETS:
        raise ValueError(f"source preset {preset.key!r} registered twice")
    SOURCE_PRESETS[preset.key] = preset
    return preset


source_preset(SourcePreset("chartqa", "ChartQA", "HuggingFaceM4/ChartQA", "val",
                           {"image": "image", "question": "query", "answer": "label"}, "gpl-3.0", "GPL-3.0",
                           keep=lambda row: row.get("human_or_machine", 0) == 0))
source_preset(SourcePreset("charxiv", "CharXiv", "princeton-nlp/CharXiv", "validation",
                           {"image": "image", "question": "reasoning_q", "answer": "reasoning_a"}, "cc-by-sa-4.0",
                           "CC BY-SA 4.0 for non-chart data; chart copyrights stay with the source papers"))
source_preset(SourcePreset("chartmuseum", "ChartMuseum", "lytang/ChartMuseum", "dev",
                           {"image": "image", "question": "question", "answer": "answer"}, "cc-by-sa-4.0",
                           "CC BY-SA 4.0; chart copyrights stay with the original sources"))

ROLES = ("image", "question", "answer")


@dataclass(frozen=True)
class SourceRow:
    """One source chart-QA example: the image as PNG bytes (as stored when it already was PNG)."""

    index: int
    image: bytes
    question: str
    answer: str
    license: str
    chart_id: str
    extra: dict[str, Any] = field(default_factory=dict)


def parse_columns(text: str, roles: tuple[str, ...] = ROLES) -> dict[str, str]:
    """``image=img,question=q,answer=a`` -> the mapping (each of ``roles`` once, all named)."""
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        role, sep, column = part.partition("=")
        if not sep or role.strip() not in roles or not column.strip():
            raise SourceError(f"--columns: {part!r} is not ROLE=COLUMN with ROLE one of {', '.join(roles)}")
        if role.strip() in out:
            raise SourceError(f"--columns: {role.strip()!r} given twice")
        out[role.strip()] = column.strip()
    missing = [r for r in roles if r not in out]
    if missing:
        raise SourceError(f"--columns: no column for {', '.join(missing)} (give "
                          f"{','.join(r + '=...' for r in roles)})")
    return out


def _png(value: Any, where: str, folder: Path | None) -> bytes:
    """The image as PNG bytes: PNG files and bytes kept as they are, anything else converted (RGB)."""
    from PIL import Image

    if isinstance(value, dict):
        value = value.get("bytes") or value.get("path")
    if isinstance(value, str):
        path = (folder / value) if folder is not None and not Path(value).is_absolute() else Path(value)
        if folder is not None and folder.resolve() not in path.resolve().parents:
            raise SourceError(f"{where}: image {value!r} is outside the source folder")
        if not path.is_file():
            raise SourceError(f"{where}: image {value!r} not found")
        value = path.read_bytes()
    if isinstance(value, bytes):
        if value.startswith(b"\x89PNG\r\n\x1a\n"):
            return value
        try:
            value = Image.open(io.BytesIO(value))
        except Exception as exc:  # PIL raises many kinds for a bad file  # noqa: BLE001
            raise SourceError(f"{where}: image is not decodable ({type(exc).__name__})") from None
    if not hasattr(value, "convert"):
        raise SourceError(f"{where}: image column holds {type(value).__name__}, not an image")
    buf = io.BytesIO()
    value.convert("RGB").save(buf, format="PNG")
    return buf.getvalue()


def _text(value: Any, where: str, role: str) -> str:
    if isinstance(value, list) and len(value) == 1:  # ChartQA's label is a one-item list
        value = value[0]
    if isinstance(value, (list, dict)):
        value = json.dumps(value, ensure_ascii=False)
    text = "" if value is None else str(value).strip()
    if not text:
        raise SourceError(f"{where}: empty {role}")
    return text


def _local_rows(path: Path, split: str | None) -> tuple[Any, Path | None]:
    """The rows (a list of dicts, or a ``datasets.Dataset``) and the folder images are relative to."""
    if path.is_dir() and (path / "metadata.jsonl").is_file():
        lines = (path / "metadata.jsonl").read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()], path
    import datasets

    files = [str(path)] if path.is_file() else sorted(str(p) for p in path.rglob("*.parquet"))
    if not files or not all(f.endswith(".parquet") for f in files):
        raise SourceError(f"{path}: not a source (a folder with metadata.jsonl, or parquet files)")
    return datasets.load_dataset("parquet", data_files=files, split="train"), path if path.is_dir() else None


def _pick(rows: Any, image_column: str, keep: Callable[[Mapping[str, Any]], bool] | None, limit: int | None,
          sample: int | None, seed: int) -> Iterator[tuple[int, Mapping[str, Any]]]:
    """(source index, row) for the rows the run reads: the first ``limit`` kept rows, or ``sample`` kept
    rows drawn at random with ``seed`` (``random.Random(seed).sample`` over the kept indices, read in
    source order), or every kept row."""
    if sample is None:
        taken = 0
        for index, row in enumerate(rows):
            if limit is not None and taken >= limit:
                return
            if keep is None or keep(row):
                taken += 1
                yield index, row
        return
    import random

    light = rows  # a Hub or parquet dataset is scanned without decoding its images
    if hasattr(rows, "remove_columns") and image_column in getattr(rows, "column_names", ()):
        light = rows.remove_columns([image_column])
    kept = [i for i, row in enumerate(light) if keep is None or keep(row)]
    for index in sorted(random.Random(seed).sample(kept, min(sample, len(kept)))):
        yield index, rows[index]


def load_source(source: str, *, split: str | None = None, columns: Mapping[str, str] | None = None,
                license: str | None = None, limit: int | None = None, sample: int | None = None,
                seed: int = 0) -> tuple[dict[str, Any], list[SourceRow]]:
    """(the source's declaration, its rows) for a preset key, a Hub dataset id or a local path.

    The declaration is what the manifest records as the source benchmark: key, name, hub (where
    it was read), license and rights. Rows a preset's filter drops keep their original indices.
    ``limit``: the first N kept rows; ``sample``: N kept rows drawn at random with ``seed`` (the
    same N, seed and source give the same rows), in source order.
    """
    if limit is not None and sample is not None:
        raise SourceError("--limit and --sample: give one (the first N rows, or N rows at random)")
    preset = SOURCE_PRESETS.get(source)
    path = Path(source).expanduser()
    if preset is not None:
        dataset, split = preset.dataset, split or preset.split
        cols, terms, rights, name = dict(columns or preset.columns), license or preset.license, preset.rights, preset.name
    else:
        local_meta = path.is_dir() and (path / "metadata.jsonl").is_file()  # imagefolder: images in file_name
        default = {"image": "file_name" if local_meta else "image", "question": "question", "answer": "answer"}
        dataset, cols = source, dict(columns or default)
        terms = license or "unknown"
        rights = f"as the source states ({terms})" if license else "not declared (pass --license)"
        name = path.name if path.exists() else source
    if path.exists() and preset is None:
        rows, folder = _local_rows(path, split)
        where_split = split or "local"
    else:
        import datasets

        try:
            rows = datasets.load_dataset(dataset, split=split or "test")
        except Exception as exc:  # the Hub and loaders raise many kinds  # noqa: BLE001
            raise SourceError(f"--source {source}: cannot load {dataset!r} split {split or 'test'!r} "
                              f"({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''})") from None
        folder, where_split = None, split or "test"
    key = preset.key if preset else source_key(name)
    out: list[SourceRow] = []
    keep = preset.keep if preset is not None else None
    for index, row in _pick(rows, cols["image"], keep, limit, sample, seed):
        where = f"{source} row {index}"
        missing = [c for c in cols.values() if c not in row]
        if missing:
            raise SourceError(f"{where}: no column {missing[0]!r} (columns: {', '.join(map(str, row))}; map them "
                              "with --columns image=...,question=...,answer=...)")
        chart_id = str(row.get("chart_id") or f"{key}{index:06d}")
        out.append(SourceRow(index, _png(row[cols["image"]], where, folder), _text(row[cols["question"]], where,
                                                                                   "question"),
                             _text(row[cols["answer"]], where, "answer"), str(row.get("license") or terms), chart_id))
    if not out:
        raise SourceError(f"--source {source}: no rows")
    declared = {"key": key, "name": name, "hub": f"{dataset} (split {where_split})" if preset or not path.exists()
                else f"local {path.name} ({'metadata.jsonl' if folder else 'parquet'})",
                "license": terms, "rights": rights, "split": where_split}
    if sample is not None:
        declared["sample"] = {"n": sample, "seed": seed}
    return declared, out
