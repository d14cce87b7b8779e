"""LegendBench over real data: the legend ``real`` config draws vega_datasets' tables
(``tables: vega_datasets``); 30 rows' chart data recomputed by hand from the files, their golds
re-derived by the templates' programs, and the card naming every file."""

from __future__ import annotations

import csv
import hashlib
import json
from collections import Counter, defaultdict

import pytest

pytest.importorskip("vega_datasets")

from chartprobe.dataset_builders.core.real.tables import load_table
from chartprobe.dataset_builders.legend.program import answer_row
from chartprobe.dataset_builders.legend.sources import load_pool
from chartprobe.dataset_builders.legend.vega_tables import HOW, VEGA_ROOT
from chartprobe.dataset_builders.release.labels import as_text

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@pytest.fixture(scope="module")
def real_rows(release_root):
    from datasets import load_dataset

    return list(as_text(load_dataset(str(release_root / "chartprobe-legend"), "real", split="test")))


def _records(name: str) -> list[dict]:
    """A table's file read by hand (csv / json, no pandas)."""
    source = load_table(name).source
    with open(source.path, "rb") as f:
        raw = f.read()
    assert hashlib.sha256(raw).hexdigest() == source.sha256
    return json.loads(raw) if source.path.endswith(".json") else list(csv.DictReader(raw.decode().splitlines()))


def _stocks(sel: str) -> list[list[float]]:
    year = sel.removeprefix("year=")
    price = {(r["symbol"], r["date"]): float(r["price"]) for r in _records("stocks")}
    symbols = sorted({s for s, _ in price})
    return [[price[s, f"{m} 1 {year}"] for m in MONTHS] for s in symbols]


def _weather(sel: str) -> list[list[float]]:
    assert sel == "precipitation"
    total: dict = defaultdict(float)
    for r in _records("seattle-weather"):
        year, month, _ = r["date"].split("/")
        total[year, int(month)] += float(r["precipitation"])
    return [[total[y, m] for m in range(1, 13)] for y in sorted({y for y, _ in total})]


def _iowa(sel: str) -> list[list[float]]:
    value = {(r["source"], r["year"][:4]): float(r["net_generation"]) for r in _records("iowa-electricity")}
    years = sorted({y for _, y in value})
    if sel != "all":
        first, last = sel.split("-")
        years = [y for y in years if first <= y <= last]
    return [[value[s, y] for y in years] for s in ("Fossil Fuels", "Nuclear Energy", "Renewables")]


def _employment(sel: str) -> list[list[float]]:
    year = sel.removeprefix("goods/")
    rows = [r for r in _records("us-employment") if r["month"].startswith(year)]
    return [[float(r[c]) for r in rows] for c in ("mining_and_logging", "construction", "manufacturing")]


def _barley(sel: str) -> list[list[float]]:
    site = sel.removeprefix("site=")
    rows = [r for r in _records("barley") if r["site"] == site]
    varieties = sorted({r["variety"] for r in rows})
    value = {(r["year"], r["variety"]): r["yield"] for r in rows}
    return [[value[y, v] for v in varieties] for y in sorted({r["year"] for r in rows})]


def _cars(sel: str) -> list[list[float]]:
    rows = _records("cars")
    if sel != "all":
        rows = [r for r in rows if r["Year"][:4] == sel.removeprefix("year=")]
    counts = Counter(r["Origin"] for r in rows)
    return [[float(counts[o]) for o in ("USA", "Europe", "Japan")]]


BY_HAND = {"stocks": _stocks, "seattle-weather": _weather, "iowa-electricity": _iowa,
           "us-employment": _employment, "barley": _barley, "cars": _cars}


def test_every_table_is_described_and_drawable():
    assert set(BY_HAND) == set(HOW)
    pool = load_pool(VEGA_ROOT)
    assert {"line", "area", "grouped_bar", "pie"} <= set(pool.by_kind) and not pool.skipped
    assert {t.origin for t in pool.tables.tables} == {VEGA_ROOT}


def test_thirty_rows_recomputed_by_hand_from_the_tables_and_their_golds_by_the_programs(real_rows):
    assert len(real_rows) >= 30
    sources = set()
    for row in real_rows[:30]:
        origin, _, path = row["data_source"].partition(":")
        assert origin == VEGA_ROOT and row["tables_sha256"] == load_pool(VEGA_ROOT).digest
        table, _, selection = path.partition("/")
        sources.add(table)
        hand = [[float(round(v)) for v in series] for series in BY_HAND[table](selection)]
        chart = json.loads(row["chart_spec"])
        assert [s["values"] for s in chart["data"]["series"]] == hand, row["id"]
        for series, values in zip(chart["data"]["series"], hand):
            series["values"] = values
        assert answer_row({**row, "chart_spec": json.dumps(chart)}) == row["answer"], row["id"]
    assert len(sources) >= 2


def test_the_card_names_every_file_and_the_rows_their_table(release_root, real_rows):
    card = (release_root / "chartprobe-legend" / "README.md").read_text(encoding="utf-8")
    assert "## Data sources: vega_datasets tables" in card
    for name in HOW:
        assert f"| `{name}` | `{load_table(name).source.sha256[:16]}` |" in card
    assert all(r["data_source"].startswith(f"{VEGA_ROOT}:") for r in real_rows)
