"""``chartprobe-legend`` train / validation / test splits, disjoint by base chart and by data table
(issue #17, item 1).

Adding splits must leave the test rows byte-identical (every RNG is keyed by the item id); with
ChartBench tables (``tests/fixtures/chartbench``: 2 line, 2 grouped-bar, 1 pie table) each kind's
tables are partitioned between the splits, and a kind with fewer tables than splits is refused
with one line before anything is written; ``verify`` refuses any release where a base chart or a
table is in two splits, all configs together.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from chartprobe.dataset_builders.legend.builder import LegendDataset
from chartprobe.dataset_builders.legend.disjoint import DISJOINT_COLUMNS, chart_identity, check_disjoint
from chartprobe.dataset_builders.legend.sources import TablePool
from chartprobe.dataset_builders.legend.table_shares import apportion, share_pool, split_shares
from chartprobe.dataset_builders.legend.tables import TablesError, read_tables
from chartprobe.dataset_builders.release.preset import load_preset, preset_path

from chartprobe.cli import main

FIXTURE = Path(__file__).parent / "fixtures" / "chartbench"
KNOBS = "{chains_per_chart: 1, extra_probes: 1, interventions_per_group: 1}"
TINY = """dataset: legend
preset: tiny
seed: 0
shard_size: 2
configs:
  snapshot:
    splits: {splits}
    params: {knobs}
  order_study:
    splits: {{test: 1}}
    params: {{study: order, themes: [default], add_labels: [false], legend_positions: [outside right],
             legend_columns: [1], num_series: [3, 4], channels: [[color]]}}
"""
TABLES = """dataset: legend
preset: tiny-tables
seed: 0
shard_size: 2
configs:
  snapshot:
    splits: {splits}
    params: {{chains_per_chart: 1, extra_probes: 1, interventions_per_group: 1{extra}}}
"""


def _build(tmp: Path, name: str, text: str, *extra: str) -> Path:
    preset = tmp / f"{name}.yaml"
    preset.write_text(text)
    out = tmp / name
    assert main(["build", "legend", "--preset", str(preset), "--out", str(out), "--quiet", *extra]) == 0
    return out / "chartprobe-legend"


def _rows(release: Path, config: str, split: str) -> list[dict]:
    from datasets import Image, load_dataset

    ds = load_dataset(str(release), config, split=split).cast_column("image", Image(decode=False))
    return [{**r, "image": r["image"]["bytes"]} for r in ds]


def _columns(release: Path) -> dict[str, dict[str, dict[str, list]]]:
    from datasets import load_dataset

    out: dict[str, dict[str, dict[str, list]]] = {}
    for config in ("snapshot", "order_study"):
        for split, ds in load_dataset(str(release), config).items():
            out.setdefault(config, {})[split] = ds.select_columns(list(DISJOINT_COLUMNS)).to_dict()
    return out


# -- the bundled presets --------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["small", "full"])
def test_bundled_presets_give_the_snapshot_three_splits_and_keep_the_studies_test_only(name):
    preset = load_preset(preset_path("legend", name))
    assert list(preset.configs["snapshot"].splits) == ["train", "validation", "test"]
    studies = {c: list(p.splits) for c, p in preset.configs.items() if c != "snapshot"}
    # the three studies in every preset; the style study (two engines) and the real-table snapshot
    # where the preset asks for them
    assert {"channel_study", "order_study", "visibility_study"} <= set(studies) <= {
        "channel_study", "order_study", "visibility_study", "style_shift", "real"}
    assert all(splits == ["test"] for splits in studies.values())
    builder = LegendDataset()
    test = builder.item_keys(preset, "snapshot", "test")
    assert test[0] == "snapshot-test-0000" and len(test) == preset.configs["snapshot"].splits["test"]
    assert not set(test) & set(builder.item_keys(preset, "snapshot", "train"))


# -- (a) synthetic: three splits, disjoint, and the test split unchanged ----------------------------

@pytest.fixture(scope="module")
def synthetic(tmp_path_factory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("legend-splits")
    only_test = _build(tmp, "only-test", TINY.format(splits="{test: 3}", knobs=KNOBS))
    three = _build(tmp, "three", TINY.format(splits="{train: 2, validation: 1, test: 3}", knobs=KNOBS))
    return only_test, three


def test_a_preset_with_three_splits_builds_them_disjoint(synthetic):
    from datasets import load_dataset

    _, three = synthetic
    splits = load_dataset(str(three), "snapshot")
    assert sorted(splits) == ["test", "train", "validation"]
    assert {s: len(set(ds["base_id"])) for s, ds in splits.items()} == {"train": 2, "validation": 1, "test": 3}
    check_disjoint(_columns(three))  # the build's own verify ran it too; this is the release as read back
    card = (three / "README.md").read_text()
    assert "## Splits" in card and "| snapshot/train |" in card


def test_adding_splits_leaves_every_test_row_byte_identical(synthetic):
    only_test, three = synthetic
    for config in ("snapshot", "order_study"):
        before, after = _rows(only_test, config, "test"), _rows(three, config, "test")
        assert len(before) > 0 and [r["id"] for r in before] == [r["id"] for r in after], config
        assert before == after, config  # every column, PNG bytes included


# -- (b) ChartBench tables: partitioned between the splits, or refused -------------------------------

def test_tables_are_partitioned_between_the_splits(tmp_path):
    text = TABLES.format(splits="{train: 2, test: 2}", extra=", chart_kinds: [line, grouped_bar]")
    release = _build(tmp_path, "tables", text, "--tables", str(FIXTURE))
    used = {s: {r["data_source"] for r in _rows(release, "snapshot", s)} for s in ("train", "test")}
    assert not used["train"] & used["test"]
    assert used["train"] | used["test"] == {f"chartbench:{t.data_path}" for t in read_tables(FIXTURE).tables
                                            if t.kind in ("line", "grouped_bar")}


@pytest.mark.parametrize("extra, message", [
    # pie has one table for two splits (train item 2 and test item 2 both draw a pie)
    ("", "1 usable pie table(s) for 2 splits that draw pie (test, train)"),
    # each split gets one of the two line tables; only one of them has exactly 3 series
    (", chart_kinds: [line], num_series: [3, 3]", "has none with 3-3 legend items"),
])
def test_a_kind_short_of_tables_for_its_splits_is_refused_with_one_line(tmp_path, capsys, extra, message):
    preset = tmp_path / "legend-short.yaml"
    preset.write_text(TABLES.format(splits="{train: 3, test: 3}", extra=extra))
    out = tmp_path / "releases"
    assert main(["build", "legend", "--preset", str(preset), "--out", str(out), "--tables", str(FIXTURE),
                 "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("chartprobe: error:") and message in err[0], err
    assert not out.exists()  # nothing half-written


def test_shares_are_proportional_contiguous_in_hash_order_and_whole_for_one_split():
    assert apportion(10, {"test": 900, "train": 600, "validation": 100}) == {"test": 5, "train": 4, "validation": 1}
    assert apportion(3, {"test": 900, "train": 600, "validation": 1}) == {"test": 1, "train": 1, "validation": 1}
    pool = TablePool.of(read_tables(FIXTURE))
    shares = split_shares(pool, {"line": {"train": 5, "test": 9}, "pie": {"test": 2}})
    line = set(pool.by_kind["line"])
    assert len(shares["train"]["line"]) == len(shares["test"]["line"]) == 1
    assert set(shares["train"]["line"]) | set(shares["test"]["line"]) == line
    assert "pie" not in shares["train"] and shares["test"]["pie"] == pool.by_kind["pie"]
    # One split: the share is the whole pool in its own order, so a test-only preset draws as before.
    whole = split_shares(pool, {k: {"test": 3} for k in pool.by_kind})["test"]
    assert share_pool(pool, whole).by_kind == pool.by_kind
    with pytest.raises(TablesError, match="1 usable pie table"):
        split_shares(pool, {"pie": {"train": 1, "test": 1}})


# -- (c) the release-wide check on crafted columns ----------------------------------------------------

def _spec(values: list[float], labels: list[str], theme: str = "default") -> tuple[str, str]:
    chart = {"kind": "pie", "style": {"theme": theme},
             "data": {"categories": ["item 1", "item 2"], "series": [{"name": "Share", "values": values}]}}
    return json.dumps(chart), json.dumps({"labels": labels, "order": None})


def _cols(*rows: tuple[str, tuple[str, str], str]) -> dict[str, list]:
    return {"id": [r[0] for r in rows], "chart_spec": [r[1][0] for r in rows],
            "legend_spec": [r[1][1] for r in rows], "data_source": [r[2] for r in rows]}


A = _spec([30.0, 70.0], ["Apple", "Tesla"])


def test_the_same_chart_in_two_splits_is_refused_naming_both_and_an_id():
    restyled = _spec([30.0, 70.0], ["Tesla", "Apple"], theme="dark")  # same data and labels, other style
    release = {"snapshot": {"train": _cols(("snapshot-train-0000-a", A, "synthetic"))},
               "order_study": {"test": _cols(("order_study-test-0003-b", restyled, "synthetic"))}}
    with pytest.raises(ValueError, match="two splits") as info:
        check_disjoint(release)
    text = str(info.value)
    assert "'train'" in text and "'test'" in text and "order_study-test-0003-b" in text and "\n" not in text


def test_the_same_table_in_two_splits_is_refused_even_with_other_values():
    src = "chartbench:data/pie/genescloud/0.txt"
    release = {"snapshot": {"train": _cols(("t-0", A, src)),
                            "test": _cols(("s-0", _spec([40.0, 60.0], ["Apple", "Tesla"]), src))}}
    with pytest.raises(ValueError, match=r"ChartBench table chartbench:data/pie/genescloud/0\.txt is in two splits"):
        check_disjoint(release)


def test_disjoint_splits_and_reuse_within_a_split_pass():
    src = "chartbench:data/pie/genescloud/0.txt"
    other_labels = _spec([30.0, 70.0], ["Intel", "Sony"])  # same two wedge sizes, another chart
    release = {"snapshot": {"train": _cols(("t-0", _spec([10.0, 90.0], ["Apple", "Tesla"]), "synthetic")),
                            "validation": _cols(("v-0", other_labels, "synthetic")),
                            "test": _cols(("s-0", A, src), ("s-1", A, src))},
               "channel_study": {"test": _cols(("c-0", A, src))}}  # the same chart and table, one split
    check_disjoint(release)
    assert chart_identity(*A) != chart_identity(*other_labels)


def test_verify_runs_the_check():
    from datasets import Dataset

    def split(rid: str) -> Dataset:
        return Dataset.from_dict({**_cols((rid, A, "synthetic")), "group_id": [rid], "answer": ["x"],
                                  "expected": ["base"], "intervention_family": [""], "target_legend_index": [0],
                                  "study_factor": [""], "study_level": [""], "spec": [A[0]], "question": ["q?"],
                                  "text_overlap_max": [0.0], "legend_text_cover_max": [0.0]})

    with pytest.raises(ValueError, match="two splits"):
        LegendDataset().verify({"snapshot": {"train": split("a"), "test": split("b")}})
    LegendDataset().verify({"snapshot": {"test": split("b")}})
