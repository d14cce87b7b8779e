"""ChartBench's data tables, read as chartprobe-legend's second data source (LegendBench §4.1).

LegendBench "adapts structured data tables from ChartBench" beside its synthetic generator.
``chartprobe build legend --tables DIR`` reads them from a folder laid out as ChartBench
releases its dataset (github IDEA-FinAI/ChartBench at commit
53e41b857619f4041fcd86cb31d8d029638d8a70, MIT licence; the tables themselves ship in the Hub
archive SincereX/ChartBench ``data/test.zip``)::

    DIR/QA/<QA_type>/<chart_type>/<image_type>/meta.json   # the index, e.g. QA/Acc+/line/line_multi/meta.json
    DIR/data/<folder>/<source>/<n>.txt                      # a table, named by an entry's data_path
    DIR/data/<folder>/meta.json                             # optional: an entry's data_meta

An index is a JSON object keyed by table file name (``"0.txt"``); each value names
``chart_type``, ``image_type``, ``data_path`` and ``data_meta`` (paths relative to DIR) and
ChartBench's ``QA`` statements (``chart_number``, ``number_compare``, ``high_number``, each with
a true ``Qr`` and a false ``Qw``).

**Format decision.** The table files' exact bytes could not be read (they ship only inside the
Hub archive), so a table is read as comma-separated CSV: a header row holding the x-axis label
(``Years``) then one column per series (the legend labels), and one row per x value; a cell is a
number, optionally with a trailing ``%``. The y label (the metric) is the data_meta entry's
``y_label`` when the reader finds one (``meta[<file name>]``, ``meta[<data_path>]`` or the
top level), else the metric ChartBench's ``chart_number`` statement names. Because that reading
is an assumption, every table is cross-checked against ChartBench's own true statements
(``statements``): a table they contradict, or one none of them can be read against, is refused
with one :class:`TablesError` line naming the file. No table is ever accepted unchecked.

Only image types whose marks chartprobe-legend draws are read (:data:`IMAGE_KINDS`, a registry
from ChartBench image type to legend chart kind); the others are counted, by reason, in
:attr:`TableSet.skipped`. Several index entries may name one table (``area`` and ``area_stack``
share ``data/area``): it is read once and checked against every entry's statements.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .statements import check_statements
from .table_types import ChartTable, TablesError, TableSet

__all__ = ["CHARTBENCH", "IMAGE_KINDS", "ChartTable", "TableSet", "TablesError", "read_tables"]

CHARTBENCH = {"name": "ChartBench", "url": "https://github.com/IDEA-FinAI/ChartBench",
              "commit": "53e41b857619f4041fcd86cb31d8d029638d8a70", "license": "MIT",
              "data": "https://huggingface.co/datasets/SincereX/ChartBench (data/test.zip)"}
"""Where the tables come from (recorded in the release card)."""

IMAGE_KINDS: dict[str, str] = {
    "line_multi": "line", "line_multi_wi_anno": "line",
    "vertical_multi": "grouped_bar", "horizontal_multi": "grouped_bar",  # drawn as vertical groups
    "area": "area", "area_stack": "area",
    "radar_multi": "radar", "radar_multi_fill": "radar",
    "pie": "pie", "ring": "pie", "ring_wi_anno": "pie",
}
"""ChartBench image type -> the legend chart kind its table is drawn as. Single-series, stacked-bar,
percent, error-bar, 3-D, box, scatter, node-link and combination charts are not legend kinds
chartprobe draws (or have no series legend) and are skipped."""

INDEX_GLOB = "QA/*/*/*/meta.json"
MAX_TABLE_BYTES = 1 << 20
"""Largest table or index file read (ChartBench's are a few hundred bytes)."""


@dataclass
class _Reader:
    root: Path
    files: dict[str, bytes] = field(default_factory=dict)

    def read(self, rel: str, what: str, *, required: bool = True) -> bytes | None:
        path = (self.root / rel).resolve()
        if self.root.resolve() not in path.parents:
            raise TablesError(f"{self.root}: {what} {rel!r} points outside the table folder")
        if not path.is_file():
            if required:
                raise TablesError(f"{self.root / rel}: {what} named by the index is missing")
            return None
        if path.stat().st_size > MAX_TABLE_BYTES:
            raise TablesError(f"{self.root / rel}: larger than {MAX_TABLE_BYTES} bytes")
        data = path.read_bytes()
        self.files[rel] = data
        return data

    def digest(self) -> str:
        h = hashlib.sha256()
        for rel in sorted(self.files):
            h.update(f"{rel}\n{hashlib.sha256(self.files[rel]).hexdigest()}\n".encode())
        return h.hexdigest()


def _text(data: bytes, where: Path) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TablesError(f"{where}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def _number(cell: str, where: str) -> float:
    text = cell.strip().removesuffix("%").strip()
    try:
        value = float(text)
    except ValueError:
        raise TablesError(f"{where}: {cell.strip()!r} is not a number") from None
    if not math.isfinite(value):
        raise TablesError(f"{where}: {cell.strip()!r} is not a finite number")
    return value


def parse_table(text: str, where: Path) -> tuple[str, tuple[str, ...], tuple[str, ...], tuple[tuple[float, ...], ...]]:
    """(x label, x values, series, values per series) of a CSV table; TablesError naming the cell."""
    rows = [[c.strip() for c in r] for r in csv.reader(io.StringIO(text)) if any(c.strip() for c in r)]
    if len(rows) < 2:
        raise TablesError(f"{where}: expected a header row and at least one data row")
    header = rows[0]
    if len(header) < 2:
        hint = " (tab-separated? tables are read as comma-separated CSV)" if "\t" in header[0] else ""
        raise TablesError(f"{where}: the header needs an x label and at least one series column{hint}")
    for k, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise TablesError(f"{where}: row {k} has {len(row)} cells, the header has {len(header)}")
    x_values = tuple(r[0] for r in rows[1:])
    series = tuple(header[1:])
    for what, names in (("x value", x_values), ("series name", series)):
        dup = sorted({n for n in names if names.count(n) > 1} | ({""} & set(names)))
        if dup:
            raise TablesError(f"{where}: {'empty' if dup == [''] else 'duplicate'} {what} {dup[0]!r}")
    values = tuple(tuple(_number(r[i + 1], f"{where}: row {k + 2}, column {series[i]!r}")
                         for k, r in enumerate(rows[1:])) for i in range(len(series)))
    return header[0], x_values, series, values


def _y_label(reader: _Reader, entry: dict[str, Any], name: str, data_path: str) -> str | None:
    rel = str(entry.get("data_meta") or "").removeprefix("./")
    data = reader.read(rel, "data_meta", required=False) if rel else None
    if data is None:
        return None
    try:
        meta = json.loads(_text(data, reader.root / rel))
    except json.JSONDecodeError as exc:
        raise TablesError(f"{reader.root / rel}: invalid JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(meta, dict):
        return None
    for node in (meta.get(name), meta.get(data_path), meta.get(f"./{data_path}"), meta):
        if isinstance(node, dict) and isinstance(node.get("y_label"), str) and node["y_label"].strip():
            return node["y_label"].strip()
    return None


def _entries(reader: _Reader) -> list[tuple[str, str, dict[str, Any]]]:
    """(index file, table key, entry) of every index entry, in path order."""
    indexes = sorted(p.relative_to(reader.root).as_posix() for p in reader.root.glob(INDEX_GLOB))
    if not indexes:
        raise TablesError(f"{reader.root}: no ChartBench index found (expected {INDEX_GLOB}, "
                          "e.g. QA/Acc+/line/line_multi/meta.json)")
    out = []
    for rel in indexes:
        try:
            doc = json.loads(_text(reader.read(rel, "index") or b"", reader.root / rel))
        except json.JSONDecodeError as exc:
            raise TablesError(f"{reader.root / rel}: invalid JSON ({exc.msg}, line {exc.lineno})") from None
        if not isinstance(doc, dict):
            raise TablesError(f"{reader.root / rel}: expected a JSON object keyed by table file name")
        for key in sorted(doc, key=_natural):
            entry = doc[key]
            missing = [f for f in ("image_type", "data_path", "QA") if not isinstance(entry, dict) or f not in entry]
            if missing:
                raise TablesError(f"{reader.root / rel}: entry {key!r} lacks {missing[0]!r}")
            out.append((rel, key, entry))
    return out


def _natural(key: str) -> tuple:
    stem = key.split(".", 1)[0]
    return (0, int(stem), key) if stem.isdigit() else (1, 0, key)


def read_tables(root: str | Path) -> TableSet:
    """Read, cross-check and register every drawable table under ``root``; TablesError if any fails."""
    root = Path(root).expanduser()
    if not root.is_dir():
        raise TablesError(f"--tables {root}: no such folder (a ChartBench dataset root holding QA/ and data/)")
    reader = _Reader(root)
    skipped: dict[str, int] = {}
    outcomes: dict[str, int] = {}
    tables: dict[str, ChartTable] = {}
    entries = _entries(reader)
    for index, key, entry in entries:
        image_type = str(entry["image_type"])
        kind = IMAGE_KINDS.get(image_type)
        if kind is None:
            reason = f"image type {image_type}: not a legend kind chartprobe draws"
            skipped[reason] = skipped.get(reason, 0) + 1
            continue
        data_path = str(entry["data_path"]).removeprefix("./")
        table = tables.get(data_path)
        if table is None:
            where = root / data_path
            x_label, xs, series, values = parse_table(_text(reader.read(data_path, "table") or b"", where), where)
            table = ChartTable(data_path, image_type, kind, x_label, "", xs, series, values)
        elif table.kind != kind:  # one table, two kinds: drawn as the first only
            reason = f"image type {image_type}: its table is already drawn as {table.kind}"
            skipped[reason] = skipped.get(reason, 0) + 1
        metric = check_statements(table, entry["QA"], f"{root / data_path} (index {index}, entry {key})", outcomes)
        if not table.y_label:
            y = _y_label(reader, entry, key, data_path) or metric
            if not y:
                raise TablesError(f"{root / data_path}: no y label (no data_meta y_label, no chart_number metric)")
            table = ChartTable(**{**table.__dict__, "y_label": y})
        tables[data_path] = table
    ordered = tuple(tables[p] for p in sorted(tables))
    return TableSet(str(root.resolve()), ordered, len(entries), tuple(sorted(skipped.items())),
                    tuple(sorted(outcomes.items())), reader.digest())
