"""Real tables: the recipes over ``vega_datasets``' offline copies, the ``real_*`` probe configs
built from them (every value recomputed by hand from the files, every gold re-derived by the
programs), and a user's CSV through a mapping file."""

from __future__ import annotations

import csv
import hashlib
import json
import math
from dataclasses import replace

import pytest

pytest.importorskip("vega_datasets")

from chartprobe.dataset_builders.core.real.mapping import load_mapping
from chartprobe.dataset_builders.core.real.recipes import RECIPES
from chartprobe.dataset_builders.probes.config_sets import pool_for
from chartprobe.dataset_builders.probes.orders import is_monotone
from chartprobe.dataset_builders.probes.program import answer_row
from chartprobe.dataset_builders.probes.real import MIN_SHARE_OF_MAX
from chartprobe.dataset_builders.release.hub import build_release
from chartprobe.dataset_builders.release.labels import as_text
from chartprobe.dataset_builders.release.preset import load_preset, preset_path

CONFIGS = ("real_bar", "real_hbar", "real_pie")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@pytest.fixture(scope="module")
def real_rows(probes_release):
    from datasets import load_dataset

    return {c: list(as_text(load_dataset(str(probes_release), c, split="test"))) for c in CONFIGS}


def _records(table: dict) -> list[dict]:
    """The source file read by hand (csv / json, no pandas), after checking its digest."""
    with open(table["path"], "rb") as f:
        raw = f.read()
    assert hashlib.sha256(raw).hexdigest() == table["sha256"], table["path"]
    if table["path"].endswith(".json"):
        return json.loads(raw)
    return list(csv.DictReader(raw.decode("utf-8").splitlines()))


def _year_month(record: dict) -> tuple[str, str]:
    """(year, month abbreviation) of a record's date, whichever way its table writes it."""
    if "symbol" in record:  # stocks: "Jan 1 2000"
        month, _, year = record["date"].split(" ")
        return year, month
    if "date" in record:  # seattle-weather: "2012/01/31"
        year, month, _ = record["date"].split("/")
        return year, MONTHS[int(month) - 1]
    year, month = record["month"].split("-")[:2]  # us-employment: "2006-01-01"
    return year, MONTHS[int(month) - 1]


# What each recipe's category label must say about one of its records, written out by hand.
LABEL_OF = {
    "barley": lambda r, m: r["variety"],
    "wheat": lambda r, m: str(r["year"]),
    "iowa-electricity": lambda r, m: r["source"],
    "cars": lambda r, m: r["Origin"],
    "stocks": lambda r, m: _year_month(r)[1],
    "seattle-precipitation": lambda r, m: _year_month(r)[1],
    "seattle-weather-days": lambda r, m: r["weather"].capitalize(),
    "us-employment": lambda r, m: m,  # a wide table: the label names the column (checked below)
}


def _filter_holds(record: dict, column: str, wanted: str) -> bool:
    if column in record:
        return str(record[column]) == wanted
    return _year_month(record)[0] == wanted  # a year derived from the record's date


def _by_hand(source: dict) -> list[float]:
    """Each category's value recomputed from the file: its rows, filter, label and aggregation."""
    records = _records(source["table"])
    out = []
    for cat in source["categories"]:
        rows = [records[i] for i in cat["rows"]]
        assert rows, cat
        for record in rows:
            assert all(_filter_holds(record, k, v) for k, v in source["filter"].items()), (record, source["filter"])
            label = LABEL_OF[source["recipe"]](record, cat["measure"])
            if source["recipe"] == "us-employment":
                assert cat["label"].split()[0][:4].lower() in label, (cat["label"], label)
            else:
                assert label == cat["label"], (label, cat["label"])
        if source["agg"] == "count":
            total = float(len(rows))
        else:
            numbers = [float(r[cat["measure"]]) for r in rows]
            total = {"value": numbers[0], "sum": math.fsum(numbers),
                     "mean": math.fsum(numbers) / len(numbers)}[source["agg"]]
        out.append(float(round(total * source["scale"])))
    return out


def test_every_recipe_lists_slices_of_integers_with_their_rows():
    assert set(RECIPES.names()) == set(LABEL_OF)
    for name, make in RECIPES.items():
        slices = list(make())
        assert slices, name
        for s in slices:
            assert len(s.categories) == len(s.values) == len(s.rows) >= 2, (name, s.title)
            assert all(v == int(v) for v in s.values) and all(s.rows), (name, s.title)
            json.dumps(s.provenance())


def test_thirty_rows_recomputed_by_hand_from_the_tables_and_their_golds_by_the_programs(real_rows):
    rows = [r for c in CONFIGS for r in real_rows[c]]
    assert len(rows) >= 30
    recipes = set()
    for row in rows[:30]:
        source = json.loads(row["source"])
        recipes.add(source["recipe"])
        hand = _by_hand(source)
        spec = json.loads(row["spec"])
        assert spec["data"]["categories"] == [c["label"] for c in source["categories"]]
        assert spec["data"]["series"][0]["values"] == hand
        # the gold from the hand-made data, through the recorded program
        spec["data"]["series"][0]["values"] = hand
        assert answer_row({**row, "spec": json.dumps(spec)}) == row["answer"], row["id"]
    assert len(recipes) >= 3  # the items are dealt out across tables, not all from one


def test_real_charts_never_repeat_a_window_and_hold_no_tie_run_or_invisible_mark(real_rows):
    for config, rows in real_rows.items():
        charts = {r["chart_id"]: json.loads(r["spec"]) for r in rows}
        tables = [json.dumps(s["data"], sort_keys=True) for s in charts.values()]
        assert len(set(tables)) == len(tables), config
        for spec in charts.values():
            values = spec["data"]["series"][0]["values"]
            assert len(set(values)) == len(values) and not is_monotone(tuple(values))
            assert min(values) >= MIN_SHARE_OF_MAX * max(values) > 0
        assert not any(r["template_id"].startswith("P-TREND") for r in rows)
        if config == "real_pie":  # a pie shows parts of a whole only
            assert all(json.loads(r["source"])["recipe"] in {"us-employment", "seattle-weather-days", "cars",
                                                              "iowa-electricity"} for r in rows)


SALES = {2023: (2890, 1310, 2540, 1120, 2050, 3380, 1590, 2270), 2024: (3120, 1450, 2780, 990, 2210, 3560, 1730, 2460)}
REGIONS = ("North", "South", "East", "West", "Centre", "Coast", "Hills", "Lakes")


def _sales(tmp_path, mapping: dict) -> str:
    lines = ["region,year,sales"] + [f"{r},{y},{v}" for y, values in SALES.items() for r, v in zip(REGIONS, values)]
    (tmp_path / "sales.csv").write_text("\n".join(lines) + "\n")
    (tmp_path / "sales.yaml").write_text(json.dumps(mapping))
    return str(tmp_path / "sales.yaml")


MAPPING = {"csv": "sales.csv", "title": "Sales by region, 2024", "category": "region", "value": "sales",
           "agg": "sum", "scale": 0.001, "unit": "thousand USD", "filter": {"year": 2024}}


def test_a_user_csv_through_a_mapping_file(tmp_path):
    part, kinds = load_mapping(_sales(tmp_path, {**MAPPING, "scale": 1.0, "unit": "USD"}))
    assert kinds == ("bar", "hbar") and part.recipe == "csv:sales"
    assert part.categories == REGIONS
    with open(tmp_path / "sales.csv") as f:
        by_hand = {r["region"]: float(r["sales"]) for r in csv.DictReader(f) if r["year"] == "2024"}
    assert part.values == tuple(by_hand[c] for c in part.categories)
    assert [rows for rows in part.rows] == [(8 + i,) for i in range(8)]  # the 2024 records


def test_a_real_config_builds_from_a_users_mapping_file(tmp_path):
    path = _sales(tmp_path, {**MAPPING, "scale": 1.0, "unit": "USD"})
    small = load_preset(preset_path("probes", "small"))
    config = replace(small.configs["real_bar"], splits={"test": 2}, params={"probes_per_skill": 1, "tables": [path]})
    build_release("probes", tmp_path / "out", replace(small, configs={"real_bar": config}), num_proc=1)
    from datasets import load_dataset

    rows = list(as_text(load_dataset(str(tmp_path / "out" / "chartprobe-probes"), "real_bar", split="test")))
    assert rows and {json.loads(r["source"])["recipe"] for r in rows} == {"csv:sales"}
    for row in rows:
        assert answer_row(row) == row["answer"]


@pytest.mark.parametrize(("change", "message"), [
    ({"agg": "median"}, "agg 'median' is not one of value, sum, count, mean"),
    ({"value": "revenue"}, "column 'revenue' is not in sales.csv (columns: region, year, sales)"),
    ({"colour": "red"}, "unknown colour"),
    ({"filter": {"year": 1999}}, "0 categories after the filter"),
])
def test_a_bad_mapping_is_refused_with_the_key_named(tmp_path, change, message):
    with pytest.raises(ValueError, match="mapping .*sales.yaml: ") as exc:
        load_mapping(_sales(tmp_path, {**MAPPING, **change}))
    assert message in str(exc.value)


def test_tables_are_a_param_of_real_configs_only(tmp_path):
    path = _sales(tmp_path, MAPPING)
    with pytest.raises(ValueError, match="only real_<domain> configs read tables, not 'bar'"):
        pool_for("bar", {"tables": [path]})
    assert pool_for("real_bar", {"tables": [path]})
    with pytest.raises(ValueError, match="fits a pie chart"):
        pool_for("real_pie", {"tables": [path]})  # not a whole: no pie
