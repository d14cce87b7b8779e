"""The dataset-card sections of a release drawing real tables (ChartBench's or vega_datasets'):
where its data tables came from.

:func:`tables_card` documents the table set a recipe names (source, licence, digest, the
format decision, what was verified and skipped); :func:`sources_section` counts the rows and
tables each config drew from it. A release without tables gets neither, so its card is as before.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .sources import load_pool
from .tables import CHARTBENCH
from .vega_tables import HOW, VEGA_ROOT

__all__ = ["sources_section", "tables_card"]

FORMAT = """Each table is read as comma-separated CSV (header: the x label, then one column per series,
i.e. the legend labels; one row per x value; a cell is a number, optionally with a trailing `%`),
the y label from the data_meta entry's `y_label` when present, else from ChartBench's
`chart_number` statement. Every table was cross-checked against ChartBench's own true statements
(`chart_number`, `number_compare`, `high_number`); a table they contradict is refused, never
drawn. Values are drawn exactly as the table gives them (horizontal bar tables as vertical
groups); presentation, legend, interventions and questions are sampled as for synthetic charts."""


def _recipe_tables(preset: Any) -> list[tuple[str, str]]:
    """Every distinct table set the recipe's configs name, in config order."""
    named = [(str(c.params["tables"]), str(c.params.get("tables_sha256") or ""))
             for c in preset.configs.values() if c.params.get("tables")]
    return list(dict.fromkeys(named))


def tables_card(preset: Any) -> str:
    """Markdown about each table set the recipe names ('' when it names none)."""
    return "\n".join(_vega_card(*named) if named[0] == VEGA_ROOT else _chartbench_card(*named)
                      for named in _recipe_tables(preset))


def _vega_card(root: str, sha256: str) -> str:
    """The vega_datasets tables (:mod:`.vega_tables`): files, digests and how values were made."""
    from ..core.real.tables import load_table

    pool = load_pool(root, sha256 or None)
    lines = ["## Data sources: vega_datasets tables", "",
             ("The chart side of the configs that name `tables: vega_datasets` charts real data: the offline "
              "copies bundled with `vega_datasets`, cut into multi-series tables drawn as they are (values "
              "rounded to whole numbers). Each row's `data_source` names its table and selection "
              "(`vega_datasets:<table>/<selection>`) and `tables_sha256` the table set. The tables keep their "
              "own terms; the licence column repeats what the upstream description states (blank: none)."), "",
             f"- table set sha256 (package version and every file): `{pool.digest}`",
             f"- drawable by kind: {pool.describe()}", "",
             "| table | sha256 | upstream | licence | values |", "|---|---|---|---|---|"]
    for name, how in HOW.items():
        src = load_table(name).source
        lines.append(f"| `{name}` | `{src.sha256[:16]}` | {src.url} | {src.licence} | {how} |")
    return "\n".join(lines) + "\n"


def _chartbench_card(root: str, sha256: str) -> str:
    """Markdown about a ChartBench table set."""
    pool = load_pool(root, sha256 or None)
    ts = pool.tables
    intro = (f"The chart side's data comes from [{CHARTBENCH['name']}]({CHARTBENCH['url']}) data tables "
             f"(LegendBench §4.1: adapted structured tables beside the synthetic generator): released layout of "
             f"commit `{CHARTBENCH['commit']}`, tables from {CHARTBENCH['data']}; licence "
             f"**{CHARTBENCH['license']}** (ChartBench's). Each row's `data_source` names its table "
             "(`chartbench:<data_path>`) and `tables_sha256` the table set.")
    counts = (f"- index entries: {ts.entries}; tables verified: {len(ts.tables)}; "
              f"drawable by kind: {pool.describe()}")
    lines = ["## Data sources: ChartBench tables", "", intro, "",
             f"- table set sha256 (every file read): `{ts.digest}`", counts,
             f"- ChartBench statements: {', '.join(f'{k} {v}' for k, v in ts.statements) or 'none'}",
             "- skipped (not drawn): " + ("; ".join(f"{reason} ({n})" for reason, n in pool.skipped) or "none"),
             "", FORMAT]
    return "\n".join(lines) + "\n"


def sources_section(built: dict[str, dict[str, Any]]) -> str:
    """Rows and distinct tables per config and split ('' when every row is synthetic)."""
    lines = ["## Composition by data source", "", "| config | rows from tables | tables used | synthetic rows |",
             "|---|---|---|---|"]
    any_table = False
    for config, splits in built.items():
        for split, ds in splits.items():
            sources = Counter(list(ds["data_source"])) if "data_source" in ds.column_names else Counter()
            tables = {s for s in sources if s != "synthetic"}
            any_table = any_table or bool(tables)
            lines.append(f"| {config}/{split} | {sum(sources[s] for s in tables)} | {len(tables)} | "
                         f"{sources.get('synthetic', 0)} |")
    return "\n".join(lines) + "\n" if any_table else ""
