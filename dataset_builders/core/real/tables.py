"""Real tables: the offline copies bundled with ``vega_datasets``, and user CSV files.

Only the files shipped inside the installed ``vega_datasets`` package are read (its
``local_data`` loader); ``vega_datasets.data.<name>()`` downloads and is never called, so
building a chart from a real table works on a machine without network access.

Every table carries a :class:`TableSource`: which file, which package version, the file's
sha256 and where it came from upstream. The bytes that are hashed are the bytes that are
parsed, so the digest pins exactly the data a chart's values were computed from.

pandas and vega_datasets are imported inside the functions: importing the core (every
builder process does) must not pay for either.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["ROW", "Table", "TableSource", "load_csv", "load_table", "table_names"]

ROW = "_row"
"""Column added to every loaded frame: the 0-based position of the row in the source file
(CSV: data rows after the header; JSON: items of the top-level array). Provenance cites it."""


@dataclass(frozen=True)
class TableSource:
    """Where a table came from: enough to re-read exactly the same bytes."""

    name: str
    """Dataset name (``vega_datasets`` name, or the CSV file's stem)."""
    package: str
    """``vega_datasets`` for bundled tables, ``user-csv`` for a file the user passed."""
    version: str
    """The ``vega_datasets`` version (empty for a user CSV)."""
    sha256: str
    """Digest of the source file's bytes."""
    path: str
    """The local file that was read."""
    url: str = ""
    """Upstream address (vega-datasets on a CDN, pinned to the tag the package bundles)."""
    description: str = ""
    references: tuple[str, ...] = ()
    licence: str = ""
    """Licence as stated in the upstream description; empty when it states none
    (``vega_datasets`` has no licence field, so nothing better is available offline)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (references as a list)."""
        return {"name": self.name, "package": self.package, "version": self.version,
                "sha256": self.sha256, "path": self.path, "url": self.url,
                "description": self.description, "references": list(self.references),
                "licence": self.licence}


@dataclass(frozen=True, eq=False)
class Table:
    """A parsed table and its source. ``frame`` has a :data:`ROW` column; treat it as read-only
    (tables are cached and shared between charts)."""

    source: TableSource
    frame: Any
    """pandas DataFrame, one row per source record, columns as parsed."""


def table_names() -> tuple[str, ...]:
    """Names of the tables bundled with the installed vega_datasets."""
    from vega_datasets import local_data

    return tuple(local_data.list_datasets())


def _licence(description: str) -> str:
    """The licence the upstream description states, if any (the only offline record of it)."""
    text = description.lower()
    if "public domain" in text:
        return "public domain"
    if "bsd license" in text:
        return "BSD"
    return ""


def _parse(raw: bytes, fmt: str) -> Any:
    """Bytes -> DataFrame without type guessing beyond what CSV needs.

    JSON goes through ``json`` rather than ``pandas.read_json``, which would turn date-like
    columns into timestamps behind our back (values must be what the file says).
    """
    import pandas as pd

    if fmt == "json":
        records = json.loads(raw.decode("utf-8"))
        if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
            raise ValueError("table: a JSON table must be an array of objects")
        frame = pd.DataFrame.from_records(records)
    elif fmt == "csv":
        frame = pd.read_csv(io.BytesIO(raw))
    else:
        raise ValueError(f"table: unsupported format {fmt!r} (csv or json)")
    frame[ROW] = range(len(frame))
    return frame


@functools.lru_cache(maxsize=32)
def load_table(name: str) -> Table:
    """A bundled vega_datasets table by name (cached: every chart of a build re-reads it).

    Raises ValueError naming the table when it is not bundled (never downloads).
    """
    import vega_datasets
    from vega_datasets import local_data

    if name not in local_data.list_datasets():
        raise ValueError(f"table: {name!r} is not bundled with vega_datasets "
                         f"{vega_datasets.__version__}; choose from {', '.join(table_names())}")
    ds = getattr(local_data, name.replace("-", "_"))
    path = Path(ds.filepath)
    raw = path.read_bytes()
    description = ds.description or ""
    source = TableSource(
        name=name, package="vega_datasets", version=vega_datasets.__version__,
        sha256=hashlib.sha256(raw).hexdigest(), path=str(path), url=ds.url,
        description=description, references=tuple(ds.references or ()),
        licence=_licence(description))
    return Table(source, _parse(raw, ds.format))


def load_csv(path: str | Path) -> Table:
    """Any CSV file as a table (header row required); its provenance is the file's digest."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"csv: cannot read {path}: {exc.strerror or exc}") from None
    try:
        frame = _parse(raw, "csv")
    except ValueError as exc:  # pandas' parser, empty-file and decoding errors are all ValueErrors
        raise ValueError(f"csv: cannot parse {path}: {exc}") from None
    source = TableSource(name=path.stem, package="user-csv", version="",
                         sha256=hashlib.sha256(raw).hexdigest(), path=str(path))
    return Table(source, frame)
