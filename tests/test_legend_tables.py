"""``chartprobe build legend --tables DIR`` (issue #16, acceptance check 4): ChartBench data tables
as the legend builder's second data source (LegendBench §4.1).

The fixture ``tests/fixtures/chartbench`` is a tiny folder in ChartBench's released layout (index
``QA/Acc+/<chart_type>/<image_type>/meta.json``, tables under ``data/``) whose true statements hold
on its tables. Contradicting tables are made from copies of it in ``tmp_path``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from chartprobe.dataset_builders.legend.sources import TablePool
from chartprobe.dataset_builders.legend.tables import TablesError, read_tables

from chartprobe.cli import main

FIXTURE = Path(__file__).parent / "fixtures" / "chartbench"
TINY = """dataset: legend
preset: tiny
seed: 0
shard_size: 2
configs:
  snapshot:
    splits: {test: 5}
    params: {chains_per_chart: 2, extra_probes: 2, interventions_per_group: 3}
  channel_study:
    splits: {test: 2}
    params: {study: channel, themes: [default], add_labels: [false], legend_positions: [upper right],
             legend_columns: [1], num_series: [3, 4]}
  order_study:
    splits: {test: 2}
    params: {study: order, themes: [default], add_labels: [false], legend_positions: [outside right],
             legend_columns: [1], num_series: [3, 4], channels: [[color]]}
  visibility_study:
    splits: {test: 1}
    params: {study: visibility, themes: [default], add_labels: [false], legend_positions: [upper right],
             legend_columns: [1], num_series: [3, 4], channels: [[color]]}
"""
LINE_1 = "data/line_multi/genescloud/1.txt"
CONFIGS = ("snapshot", "channel_study", "order_study", "visibility_study")


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "chartbench"
    shutil.copytree(FIXTURE, root)
    return root


def _edit_cell(root: Path, rel: str, row: str, column: str, value: str) -> None:
    path = root / rel
    lines = [line.split(",") for line in path.read_text().splitlines()]
    col = lines[0].index(column)
    for cells in lines:
        if cells[0] == row:
            cells[col] = value
    path.write_text("\n".join(",".join(c) for c in lines) + "\n")


# -- the reader ------------------------------------------------------------------------------

def test_reader_parses_the_fixture():
    ts = read_tables(FIXTURE)
    by_path = {t.data_path: t for t in ts.tables}
    assert sorted(by_path) == ["data/bar_multi/genescloud/1.txt", "data/bar_multi/genescloud/3.txt",
                               "data/line_multi/genescloud/0.txt", LINE_1, "data/pie/genescloud/0.txt"]
    line = by_path["data/line_multi/genescloud/0.txt"]
    assert (line.kind, line.x_label, line.series) == ("line", "Years", ("China", "India", "Brazil"))
    assert line.y_label == "Millions of Units Sold"  # from the data_meta entry
    assert line.x_values == ("2017", "2018", "2019", "2020", "2021", "2022")
    assert line.value("Brazil", "2018") == 80.0
    assert by_path[LINE_1].y_label == "Quadrillion BTUs"  # no data_meta entry: the chart_number metric
    bars = by_path["data/bar_multi/genescloud/3.txt"]
    assert (bars.kind, bars.x_label, bars.series) == ("grouped_bar", "Brand", ("2018", "2019", "2020"))
    pie = by_path["data/pie/genescloud/0.txt"]
    assert (pie.kind, pie.series, pie.values, pie.n_items) == ("pie", ("Percentage",), ((35.0, 25.0, 22.0, 18.0),), 4)
    assert ts.entries == 6 and dict(ts.statements) == {"checked and true": 15}
    assert dict(ts.skipped) == {"image type vertical_stacked: not a legend kind chartprobe draws": 1}
    assert read_tables(FIXTURE).digest == ts.digest and len(ts.digest) == 64
    pool = TablePool.of(ts)
    assert {k: len(v) for k, v in pool.by_kind.items()} == {"grouped_bar": 2, "line": 2, "pie": 1}


@pytest.mark.parametrize("edit, statement", [
    (("2018", "Nuclear", "9.6"), "chart_number"),        # the stated value is 8.6
    (("2020", "Renewables", "7.0"), "number_compare"),   # Renewables must beat Nuclear (8.2) in 2020
    (("2019", "Natural Gas", "41.0"), "high_number"),    # Natural Gas peaks at 40.0 in 2022
])
def test_a_table_its_true_statements_contradict_is_refused(tmp_path, edit, statement):
    root = _copy(tmp_path)
    _edit_cell(root, LINE_1, *edit)
    with pytest.raises(TablesError, match=statement) as info:
        read_tables(root)
    assert LINE_1 in str(info.value) and "\n" not in str(info.value)


def test_a_misread_table_is_refused_not_accepted(tmp_path):
    """The same numbers transposed (x values as columns): no statement reads against it."""
    root = _copy(tmp_path)
    rows = [line.split(",") for line in (root / LINE_1).read_text().splitlines()]
    (root / LINE_1).write_text("\n".join(",".join(col) for col in zip(*rows)) + "\n")
    with pytest.raises(TablesError, match="refusing an unchecked table"):
        read_tables(root)


@pytest.mark.parametrize("breakage, message", [
    (lambda r: shutil.rmtree(r), "no such folder"),
    (lambda r: shutil.rmtree(r / "QA"), "no ChartBench index"),
    (lambda r: (r / LINE_1).write_text("Years,Coal\n2017,lots\n"), "'lots' is not a number"),
    (lambda r: (r / LINE_1).write_text("Years,Coal,Gas\n2017,1\n"), "row 2 has 2 cells"),
    (lambda r: (r / LINE_1).write_text("Years\tCoal\n2017\t1\n"), "tab-separated"),
    (lambda r: (r / LINE_1).unlink(), "missing"),
    (lambda r: (r / "QA/Acc+/pie/pie/meta.json").write_text("{"), "invalid JSON"),
])
def test_malformed_folders_fail_with_one_clear_line(tmp_path, breakage, message):
    root = _copy(tmp_path)
    breakage(root)
    with pytest.raises(TablesError, match=message) as info:
        read_tables(root)
    assert "\n" not in str(info.value)


# -- the command -------------------------------------------------------------------------------

def test_cli_refuses_a_contradicting_table_with_one_line_and_writes_nothing(tmp_path, capsys):
    root = _copy(tmp_path)
    _edit_cell(root, LINE_1, "2018", "Nuclear", "9.6")
    out = tmp_path / "releases"
    assert main(["build", "legend", "--out", str(out), "--tables", str(root), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("chartprobe: error:") and LINE_1 in err[0], err
    assert not out.exists()


def test_tables_are_legend_only(tmp_path, capsys):
    assert main(["build", "smoke", "--out", str(tmp_path / "r"), "--tables", str(FIXTURE)]) == 2
    assert "only `chartprobe build legend`" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def _build(tmp_path: Path, name: str, tables: Path, *extra: str) -> tuple[Path, str]:
    from chartprobe.dataset_builders.release.card import read_card_metadata

    preset = tmp_path / "legend-tiny.yaml"
    preset.write_text(TINY)
    out = tmp_path / name
    assert main(["build", "legend", "--preset", str(preset), "--out", str(out), "--tables", str(tables),
                 "--quiet", *extra]) == 0
    release = out / "chartprobe-legend"
    return release, read_card_metadata(release)["chartprobe"]["content_hash"]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, str, Path]:
    tmp = tmp_path_factory.mktemp("legend-tables")
    release, digest = _build(tmp, "a", FIXTURE)
    return release, digest, tmp


def test_release_draws_every_chart_from_its_table_and_records_it(built):
    from datasets import load_dataset

    release, _, _ = built
    ts = read_tables(FIXTURE)
    tables = {f"chartbench:{t.data_path}": t for t in ts.tables}
    used = set()
    for config in CONFIGS:
        rows = load_dataset(str(release), config, split="test").remove_columns("image")
        assert len(rows) > 0, config
        for r in rows:
            table = tables[r["data_source"]]  # every row names a verified table
            used.add(r["data_source"])
            assert r["tables_sha256"] == ts.digest
            data = json.loads(r["chart_spec"])["data"]
            labels = json.loads(r["legend_spec"])["labels"]
            assert data["categories"] == list(table.x_values) or table.kind == "pie"
            if table.kind == "pie":  # the legend names the wedges: the table's rows
                assert [s["values"] for s in data["series"]] == [list(table.values[0])]
                assert sorted(labels) == sorted(table.x_values)
            else:
                assert [s["values"] for s in data["series"]] == [list(v) for v in table.values], r["id"]
                assert sorted(labels) == sorted(table.series)
            assert json.loads(r["spec"])["axes"]["y_label"] in ("", table.y_label)
    assert used == set(tables)  # the 5 items of the snapshot use each table once


def test_card_names_the_source_licence_counts_and_the_table_set(built):
    from chartprobe.dataset_builders.release.card import read_card_metadata

    release, _, _ = built
    text = (release / "README.md").read_text()
    digest = read_tables(FIXTURE).digest
    assert "## Data sources: ChartBench tables" in text and "**MIT**" in text
    assert "53e41b857619f4041fcd86cb31d8d029638d8a70" in text and digest in text
    assert "image type vertical_stacked: not a legend kind chartprobe draws (1)" in text
    assert "| snapshot/test |" in text.split("## Composition by data source")[1]
    recipe = read_card_metadata(release)["chartprobe"]["recipe"]
    assert all(c["params"]["tables_sha256"] == digest for c in recipe["configs"].values())


def test_acceptance_release_from_tables_passes_validate(built, tmp_path, capsys):
    release, _, _ = built
    assert main(["validate", str(release), "--out", str(tmp_path)]) == 0, capsys.readouterr().out
    doc = json.loads((tmp_path / "validity.json").read_text())[0]
    assert doc["passed"] and any(c["agent"] == "oracle" and c["value"] == 1.0 for c in doc["checks"])


def test_same_tables_same_hash_other_tables_other_hash(built):
    _, digest, tmp = built
    _, digest2 = _build(tmp, "b", FIXTURE, "--num-proc", "2")
    assert digest2 == digest
    other = _copy(tmp)  # one more index entry (skipped): same rows drawn, a different table set
    (other / "QA/Acc+/line/line_err").mkdir(parents=True)
    (other / "QA/Acc+/line/line_err/meta.json").write_text(json.dumps(
        {"0.txt": {"image_type": "line_err", "data_path": "./data/line_err/0.txt", "QA": {}}}))
    _, digest3 = _build(tmp, "c", other)
    assert digest3 != digest
