"""Predictions in lm-eval's ``--log_samples`` format: write them (agents) and read them back.

lm-eval writes one ``samples_<task>_<date_id>.jsonl`` per task under
``<output_path>/<model_dir>/``; each line holds ``doc_id``, ``doc`` (the dataset row),
``target``, ``resps`` ``[[str]]``, ``filtered_resps`` ``[str]`` and the per-row metric
values. Reference agents write the same files, so ``chartprobe score`` cannot tell an
agent from a model. Release rows are read straight from the parquet files named in the
dataset card, images replaced by their header metadata: agents and the scorer need text and spec.

Other harnesses' prediction files are read too: :data:`SAMPLE_FORMATS` maps a file suffix to its
:class:`~chartprobe.eval_tasks.scoring.sample_types.SampleFormat` (VLMEvalKit's ``<model>_<task>.xlsx|tsv``,
:mod:`.vlmevalkit.predictions`), and :func:`sample_files`, :func:`iter_samples` and
:func:`sample_model` dispatch on it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson
from chartprobe.dataset_builders.core.atomic import atomic_write_text

from ..scoring.sample_types import PredictionsError, Sample, SampleFormat
from .vlmevalkit_samples import VLMEVALKIT

__all__ = [
    "SAMPLE_FORMATS",
    "PredictionsError",
    "Sample",
    "date_id",
    "image_meta",
    "iter_samples",
    "load_release_rows",
    "read_json",
    "read_release_card",
    "sample_files",
    "sample_model",
    "verify_release_data",
    "write_samples",
]


def read_json(path: str | Path) -> Any:
    """A JSON file's content; unreadable JSON is a PredictionsError naming the file."""
    import json

    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise PredictionsError(f"{path}: invalid JSON: {exc.msg} (line {exc.lineno} column {exc.colno})") from None
    except UnicodeDecodeError as exc:
        raise PredictionsError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except RecursionError:  # json's decoder recurses per nesting level
        raise PredictionsError(f"{path}: JSON nested too deeply") from None


def date_id() -> str:
    """lm-eval's timestamp suffix (``datetime.now().isoformat()`` with ':' -> '-')."""
    return datetime.now().isoformat().replace(":", "-")


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def write_samples(folder: str | Path, task: str, rows: Sequence[Mapping[str, Any]],
                  predictions: Sequence[str], stamp: str | None = None,
                  doc_ids: Sequence[int] | None = None) -> Path:
    """Write one lm-eval-style samples file for ``task`` into ``folder`` and return its path.

    ``doc_ids`` are the documents' positions in the task (lm-eval's ``doc_id``); default 0, 1, ...
    The file appears whole or not at all: a cut-off samples file would be scored as a partial run.
    """
    path = Path(folder) / f"samples_{task}_{stamp or date_id()}.jsonl"
    lines = []
    ids = range(len(rows)) if doc_ids is None else doc_ids
    for i, row, pred in zip(ids, rows, predictions, strict=True):
        # Image cells and their metadata are not part of what lm-eval logs as a document.
        doc = {k: v for k, v in row.items() if k not in ("image", "image_meta") and not _is_image_cell(v)}
        line = {"doc_id": i, "doc": doc, "target": str(row.get("answer", "")),
                "arguments": {}, "resps": [[pred]], "filtered_resps": [pred], "filter": "none",
                "metrics": [], "doc_hash": _hash(json.dumps(doc, sort_keys=True, default=str)),
                "prompt_hash": _hash(str(row.get("question", ""))),
                "target_hash": _hash(str(row.get("answer", "")))}
        lines.append(json.dumps(line, ensure_ascii=False, default=str) + "\n")
    return atomic_write_text(path, "".join(lines))


def _is_image_cell(value: Any) -> bool:
    return isinstance(value, Mapping) and set(value) == {"bytes", "path"}


def sample_files(paths: Iterable[str | Path]) -> list[Path]:
    """Prediction files named by ``paths`` (files or folders searched recursively), of any
    :data:`SAMPLE_FORMATS` format.

    When a folder holds several runs of one task for one model, only the newest file is
    kept (lm-eval's own "latest" rule), so re-running a model never double counts it.
    """
    latest: dict[tuple[Path, str], tuple[str, Path]] = {}
    for p in map(Path, paths):
        groups = _samples_under(p) if p.is_dir() else [(p.parent, [p.name])]
        if p.is_dir() and not groups:
            raise FileNotFoundError(f"no samples_<task>_<date>.jsonl files (nor VLMEvalKit "
                                    f"<model>_<task>.xlsx|.tsv files) under {p}")
        for parent, names in groups:
            folder = parent.resolve()  # once per folder, not per file: thousands of files at scale
            for name in names:
                m = _SAMPLES_NAME.match(name)
                if m is None:
                    raise PredictionsError(f"{parent / name} is not named {_expected(name)}")
                key = _run_key(folder, parent / name, m)
                if key not in latest or latest[key][0] < m["date"]:
                    latest[key] = (m["date"], parent / name)
    return sorted((f for _, f in latest.values()), key=_path_order)


def _run_key(folder: Path, path: Path, m: re.Match[str]) -> tuple[Path, str]:
    """What one kept file stands for: a task of the model of a folder, the newest date winning
    (lm-eval: one model per folder); for names without a date (VLMEvalKit), the file itself, so
    the link ``run.py`` makes in ``<work_dir>/<model>/`` and its target are read once."""
    if m["date"]:
        return folder, m["task"]
    return Path(os.path.realpath(path)), ""


def _expected(name: str) -> str:
    """How a predictions file must be named, for the message refusing ``name``."""
    fmt = SAMPLE_FORMATS.get(os.path.splitext(name)[1])
    if fmt is not None:
        return f"{fmt.expected} ({fmt.name})"
    return " nor ".join(dict.fromkeys(f"{f.expected} ({f.name})" for f in SAMPLE_FORMATS.values()))


def _path_order(path: Path) -> tuple[str, ...]:
    """Path's own sort order (its parts), without Path's slower comparisons."""
    return path.parts


def _samples_under(folder: Path) -> list[tuple[Path, list[str]]]:
    """(folder, predictions file names) for every folder under ``folder`` that has some, in
    ``sorted(folder.rglob(...))`` order; os.walk is ~5x faster on 10k+ files."""
    found = []
    for root, _, names in os.walk(folder, onerror=_unreadable_folder):  # symlinks not followed, as rglob
        picked = sorted(n for n in names if _picked(n))
        if picked:
            found.append((Path(root), picked))
    return sorted(found, key=lambda group: _path_order(group[0]))


def _unreadable_folder(exc: OSError) -> None:
    """os.walk skips a folder it cannot list; an unreadable samples folder must say so (its path:
    Permission denied), not "no samples files"."""
    raise exc


def _picked(name: str) -> bool:
    """Whether a folder scan takes file ``name`` (:attr:`SampleFormat.picks` of its suffix's format)."""
    fmt = SAMPLE_FORMATS.get(os.path.splitext(name)[1])
    return fmt is not None and bool(fmt.picks(name))


def _response(line: Mapping[str, Any]) -> str:
    """The text lm-eval handed to ``process_results``: the filtered response, else the raw one."""
    filtered = line.get("filtered_resps")
    if type(filtered) is list and filtered and type(filtered[0]) is str:  # what lm-eval writes: the fast path
        return filtered[0]
    raw = line.get("resps")
    for key, value in (("filtered_resps", filtered), ("resps", raw)):
        if value is not None and not isinstance(value, list):  # e.g. a dict: value[0] is KeyError 0
            raise PredictionsError(f"{key} must be a list of responses, got {type(value).__name__}")
    resp = filtered[0] if filtered else (raw or [[""]])[0]
    while isinstance(resp, list):  # raw resps are nested one level deeper
        resp = resp[0] if resp else ""
    return "" if resp is None else str(resp)


def _responses(line: Mapping[str, Any]) -> tuple[str, ...]:
    """All responses lm-eval handed to ``process_results`` when it kept several (``[[r1, ..., rK]]``),
    else ``()``. A run that sampled K times but kept only the first (lm-eval's default
    ``take_first``) was scored on that one, and so is it here."""
    filtered = line.get("filtered_resps")
    if type(filtered) is list and filtered and type(filtered[0]) is list and len(filtered[0]) > 1:
        return tuple("" if r is None else str(r) for r in filtered[0])
    return ()


def _loads(data: bytes) -> Any:
    """One JSON line: orjson (~3x faster on a 2 KB sample line, UTF-8 checked on the way), else
    the standard library.

    json takes what orjson refuses and Python's JSON writers emit (``NaN`` metric values from
    ``json.dumps``, integers past 64 bits, lone surrogates), and a line neither parses fails
    with json's message (line and column), the one the CLI has always printed; a line that is
    not UTF-8 raises UnicodeDecodeError.
    """
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(data.decode("utf-8"))


def _sample(path: Path, task: str, model: str, n: int, data: bytes) -> Sample:
    """One line of a samples file as a :class:`Sample`; a malformed line is a PredictionsError."""
    try:
        line = _loads(data)
    except json.JSONDecodeError as exc:
        raise PredictionsError(f"{path} line {n + 1}: invalid JSON: {exc.msg} (column {exc.colno})") from None
    except RecursionError:  # json's decoder recurses per nesting level
        raise PredictionsError(f"{path} line {n + 1}: JSON nested too deeply") from None
    if type(line) is not dict or type(line.get("doc")) is not dict:  # the common case costs two checks
        _refuse_line(path, n, line)
    doc_id = line.get("doc_id", n)
    if type(doc_id) is not int or doc_id < 0:
        raise PredictionsError(f"{path} line {n + 1}: doc_id must be a non-negative integer, got {doc_id!r}")
    try:
        response = _response(line)
    except PredictionsError as exc:
        raise PredictionsError(f"{path} line {n + 1}: {exc}") from None
    return Sample(model, task, doc_id, line["doc"], response, _responses(line))  # a fresh dict: no copy


def _refuse_line(path: Path, n: int, line: Any) -> None:
    """Raise the PredictionsError for a line that is not an object with a ``doc`` object."""
    if not isinstance(line, dict):
        raise PredictionsError(f"{path} line {n + 1}: expected a JSON object (an lm-eval sample), got "
                               f"{type(line).__name__}")
    raise PredictionsError(f"{path} line {n + 1}: 'doc' must be the dataset row as an object, got "
                           f"{type(line.get('doc')).__name__}")


_READ_BUFFER = 1 << 16
"""Bytes buffered per samples file: lines run ~2 KB, and iterating them through the 8 KB default
buffer costs 1.7 us a line, 0.9 us through this one (``chartprobe score`` reads millions)."""


def _lm_eval_samples(path: Path, task: str, model: str) -> Iterator[Sample]:
    """The samples of one lm-eval ``--log_samples`` file."""
    with open(path, "rb", buffering=_READ_BUFFER) as fh:  # bytes: orjson checks UTF-8 itself, faster than a decoder
        n = 0
        try:
            for n, data in enumerate(fh):
                if not data.isspace():  # blank lines are skipped; isspace scans without copying the line
                    yield _sample(path, task, model, n, data)
        except UnicodeDecodeError as exc:
            raise PredictionsError(f"{path}: not UTF-8 text near line {n + 1} ({exc.reason})") from None


LM_EVAL = SampleFormat(
    name="lm-eval --log_samples",
    pattern=re.compile(r"^samples_(?P<task>.+)_(?P<date>\d{4}-\d{2}-\d{2}T[0-9\-.]+)\.jsonl$"),
    picks=re.compile(r"^samples_.*\.jsonl$").match,
    read=_lm_eval_samples,
    expected="samples_<task>_<date_id>.jsonl")

SAMPLE_FORMATS: dict[str, SampleFormat] = {".jsonl": LM_EVAL, ".xlsx": VLMEVALKIT, ".tsv": VLMEVALKIT}
"""File suffix -> the format of the predictions files with that suffix (one new harness: one entry)."""


class _SampleNames:
    """``_SAMPLES_NAME.match(name)``: the name's match by its suffix's format (None if none).

    Stands where lm-eval's file-name pattern stood, so code that reads a file's task (and
    date) from its name serves every format: each pattern has the ``task`` and ``date`` groups.
    """

    def match(self, name: str) -> re.Match[str] | None:
        fmt = SAMPLE_FORMATS.get(os.path.splitext(name)[1])
        return None if fmt is None else fmt.pattern.match(name)


_SAMPLES_NAME = _SampleNames()


def _format(path: Path) -> tuple[SampleFormat, re.Match[str]]:
    fmt = SAMPLE_FORMATS.get(path.suffix)
    m = None if fmt is None else fmt.pattern.match(path.name)
    if m is None:
        raise PredictionsError(f"{path} is not named {_expected(path.name)}")
    return fmt, m


def sample_model(path: str | Path) -> str:
    """The model whose predictions file ``path`` is: named in the file name (VLMEvalKit), else its folder."""
    path = path if isinstance(path, Path) else Path(path)  # once per file of a run: Path(Path) costs ~6 us
    fmt = SAMPLE_FORMATS.get(path.suffix)
    if fmt is not None and "model" not in fmt.pattern.groupindex:  # lm-eval: the folder, no name to parse
        return path.parent.name
    fmt, m = _format(path)
    return fmt.model(path, m)


def iter_samples(path: str | Path, model: str | None = None) -> Iterator[Sample]:
    """The samples of one predictions file; the model is :func:`sample_model`'s unless given."""
    path = Path(path)
    fmt, m = _format(path)
    return fmt.read(path, m["task"], model or fmt.model(path, m))


def image_meta(value: Any) -> dict[str, Any] | None:
    """Width, height, byte size and format of an encoded image cell (``{"bytes", "path"}``).

    Read from the file header (PNG IHDR, JPEG SOF), never decoded: the metadata agent needs
    only what any file browser shows, and reading sizes must stay cheap on full releases.
    """
    data = value.get("bytes") if isinstance(value, Mapping) else None
    if not data:
        return None
    width = height = 0
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        fmt = "png"
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    elif data[:2] == b"\xff\xd8":
        fmt = "jpeg"
        width, height = _jpeg_size(data)
    else:
        fmt = "other"
    return {"width": width, "height": height, "bytes": len(data), "format": fmt}


def _jpeg_size(data: bytes) -> tuple[int, int]:
    """(width, height) from the first SOF marker of a JPEG stream (0, 0 if none)."""
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        length = int.from_bytes(data[i + 2:i + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
        i += 2 + length
    return 0, 0


def _is_image(field: Any) -> bool:
    import pyarrow as pa

    return pa.types.is_struct(field.type) and {f.name for f in field.type} == {"bytes", "path"}


def read_release_card(release: str | Path) -> dict[str, Any]:
    """The YAML header of a release's dataset card, checked; a PredictionsError names what is wrong."""
    import yaml
    from chartprobe.dataset_builders.release.card import read_card_metadata

    release = Path(release)
    if not (release / "README.md").is_file():
        raise PredictionsError(f"{release} is not a release folder (no README.md dataset card)")
    try:
        meta = read_card_metadata(release)
    except UnicodeDecodeError as exc:
        raise PredictionsError(f"{release}/README.md: not UTF-8 text ({exc.reason})") from None
    except (ValueError, yaml.YAMLError) as exc:  # no header, no closing '---', bad YAML
        reason = " ".join(str(exc).split()) or "no YAML header"
        raise PredictionsError(f"{release}/README.md: unreadable card header: {reason}") from None
    configs = meta.get("configs") if isinstance(meta, dict) else None
    chartprobe = meta.get("chartprobe") if isinstance(meta, dict) else None
    if not isinstance(chartprobe, dict) or not isinstance(chartprobe.get("dataset"), str):
        raise PredictionsError(f"{release}/README.md: no chartprobe.dataset in the card header; rebuild the release")
    if not isinstance(configs, list) or not all(
            isinstance(c, dict) and isinstance(c.get("config_name"), str) and isinstance(c.get("data_files"), list)
            and all(isinstance(e, dict) and {"split", "path"} <= set(e) for e in c["data_files"]) for c in configs):
        raise PredictionsError(f"{release}/README.md: 'configs' must list config_name + data_files "
                               "(split, path) entries")
    return meta


def verify_release_data(release: str | Path, meta: Mapping[str, Any]) -> str:
    """The release's content hash, recomputed (or read from the keyed digest cache) and checked
    equal to the card's; a tampered, placeholder-hashed or stray-shard release is a PredictionsError."""
    from chartprobe.dataset_builders.release.integrity import IntegrityError, check_release_integrity

    try:
        return check_release_integrity(Path(release), dict(meta))
    except IntegrityError as exc:
        raise PredictionsError(str(exc)) from None


def _card_columns(meta: Mapping[str, Any]) -> dict[str, set[str]]:
    """config -> the column names the card's ``dataset_info`` promises (empty when it has none)."""
    info = meta.get("dataset_info") or []
    return {i["config_name"]: {f.get("name") for f in i.get("features") or [] if isinstance(f, dict)}
            for i in (info if isinstance(info, list) else []) if isinstance(i, dict) and "config_name" in i}


PixelHook = Callable[[Mapping[str, Any], str, Any], Any]
"""``(text row, image column, image cell) -> value or None``: what ``chartprobe validate`` keeps of
an image's pixels (``dataset_builders/core/image_statistics.py``), stored as ``image_meta[column]["pixels"]``."""


def _read_parquet(f: Path, expected: set[str], pixels: PixelHook | None = None) -> list[dict[str, Any]]:
    """Rows of one parquet file, image columns replaced by their header metadata.

    Read a few hundred rows at a time: converting a whole image column to Python bytes at once
    held every image of a full release in memory (~0.9 GB for the full probes gold).
    """
    import pyarrow as pa
    import pyarrow.parquet as pq
    from chartprobe.dataset_builders.release.labels import decode_batch, label_names

    try:
        parquet = pq.ParquetFile(f)
        schema = parquet.schema_arrow
        if expected and set(schema.names) != expected:
            raise PredictionsError(f"{f}: columns {sorted(schema.names)} do not match the card's "
                                   f"features {sorted(expected)}")
        images = [fl.name for fl in schema if _is_image(fl)]
        labels = label_names(schema)  # ClassLabel columns are read as their names
        texts: list[dict[str, Any]] = []
        for batch in parquet.iter_batches(batch_size=256):
            batch = decode_batch(batch, labels)
            rows = batch.drop_columns(images).to_pylist() if images else batch.to_pylist()
            cells = {c: batch.column(c).to_pylist() for c in images}
            for i, row in enumerate(rows):
                if images:
                    row["image_meta"] = {c: image_meta(cells[c][i]) for c in images}
                    if pixels is not None:
                        _add_pixels(row, cells, i, pixels)
            texts += rows
    except (pa.ArrowException, OSError) as exc:
        raise PredictionsError(f"{f}: not a readable parquet file: {_first_line(str(exc))}") from None
    return texts


def _add_pixels(row: dict[str, Any], cells: Mapping[str, list[Any]], i: int, pixels: PixelHook) -> None:
    for c, meta in row["image_meta"].items():
        value = pixels(row, c, cells[c][i]) if meta is not None else None
        if value is not None:
            row["image_meta"][c] = {**meta, "pixels": value}


def _first_line(text: str) -> str:
    return next((line for line in text.splitlines() if line.strip()), "")


def load_release_rows(release: str | Path, only: Container[tuple[str, str]] | None = None,
                      meta: Mapping[str, Any] | None = None,
                      pixels: PixelHook | None = None) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """(config, split) -> rows of a release folder, in release order, images left out.

    ``only`` names the (config, split) pairs to read (default: all of them; the scorer reads
    just the splits its tasks score). ``meta`` is the card header if the caller has read it
    (:func:`read_release_card`; parsing its YAML costs ~0.1 s, once per split otherwise).

    Each image column is replaced by its header metadata in ``row["image_meta"][column]``
    (see :func:`image_meta`): agents and the scorer need text, spec and, for the metadata
    agent, what an image's size and format would tell, never the pixels. ``pixels`` (validate
    only) adds what it returns for an image cell as ``image_meta[column]["pixels"]``: the
    image-statistics agent's numbers, computed while the bytes are in memory. A card or parquet
    file that is not what ``chartprobe build`` writes is a :class:`PredictionsError`.
    """
    release = Path(release)
    meta = read_release_card(release) if meta is None else meta
    verify_release_data(release, meta)  # the gold is trusted only once its hash is the card's
    columns = _card_columns(meta)
    out: dict[tuple[str, str], list[dict[str, Any]]] = {}
    try:
        for cfg in meta["configs"]:
            for entry in cfg["data_files"]:
                if only is not None and (cfg["config_name"], entry["split"]) not in only:
                    continue
                files = sorted(release.glob(entry["path"]))
                if not files:
                    raise PredictionsError(f"{release}: no files match {entry['path']} "
                                           f"({cfg['config_name']}/{entry['split']} in the card)")
                rows: list[dict[str, Any]] = []
                for f in files:
                    rows += _read_parquet(f, columns.get(cfg["config_name"], set()), pixels)
                out[(cfg["config_name"], entry["split"])] = rows
        if hasattr(pixels, "finish"):  # a pooled reader's statistics, computed while the rows were read
            pixels.finish(r for rows in out.values() for r in rows)
    finally:
        if hasattr(pixels, "close"):
            pixels.close()
    return out
