"""The dataset card's section on real tables: which files the ``real_*`` configs were built
from, pinned by digest, with each table's upstream address and stated licence."""

from __future__ import annotations

import json
from collections.abc import Iterable

__all__ = ["tables_card"]


def tables_card(sources: Iterable[str]) -> str:
    """Markdown: one line per table behind the rows' ``source`` JSON (deduplicated, by name)."""
    tables: dict[str, dict] = {}
    for text in sources:
        table = json.loads(text)["table"]
        tables.setdefault(table["name"], table)
    lines = ["## Real tables", "",
             ("Rows of the `real_*` configs chart real data: the offline copies bundled with "
             "`vega_datasets` (never downloaded at build time). Each row's `source` column records "
             "the table, the file's sha256, and for every category the source rows and the "
             "aggregation its integer value came from (`round(agg(rows[measure]) * scale)`). The "
             "tables keep their own terms; the licence column repeats what the upstream description "
             "states (blank: it states none)."), "",
             "| table | package | sha256 | upstream | licence |", "|---|---|---|---|---|"]
    for name in sorted(tables):
        t = tables[name]
        lines.append(f"| `{name}` | {t['package']} {t['version']} | `{t['sha256'][:16]}` | {t['url']} | "
                     f"{t['licence'] or ''} |")
    return "\n".join(lines + [""])
