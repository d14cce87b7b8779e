"""``chartprobe build judge --released DIR`` (issue #16 part 3): the released ChartJudgeBench data
imported into the ``chartprobe-judge`` schema.

The fixture ``tests/fixtures/chartjudgebench`` (written by its ``make_fixture.py``) is a tiny copy in
the released layout and schema (``CPA/``, ``ChartReproduction/``, ``ChartEditing/``
``train-00000-of-00001.parquet``, as github CSU-JPG/ChartJudgeBench @ 63ea2449 reads them): 14 CPA
pairs, two per criterion, and 6 + 6 CRJ items. Broken inputs are made from copies of it in ``tmp_path``.
"""

from __future__ import annotations

import io
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from chartprobe.dataset_builders.judge.flaws._base import DIMENSIONS
from chartprobe.dataset_builders.judge.released import read_released
from chartprobe.dataset_builders.judge.released_rows import ReleasedError

from chartprobe.cli import main

FIXTURE = Path(__file__).parent / "fixtures" / "chartjudgebench"
FILES = {"cpa": "CPA/train-00000-of-00001.parquet", "crj_reproduction": "ChartReproduction/train-00000-of-00001.parquet",
         "crj_editing": "ChartEditing/train-00000-of-00001.parquet"}
CONFIGS = tuple(FILES)


def _released(config: str) -> list[dict]:
    return pq.read_table(FIXTURE / FILES[config]).to_pylist()


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "chartjudgebench"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns("*.py"))
    return root


def _rewrite(root: Path, config: str, edit) -> None:
    """Apply ``edit(table) -> table`` to a copy's parquet file of ``config``."""
    path = root / FILES[config]
    pq.write_table(edit(pq.read_table(path)), path)


def _set(column: str, index: int, value: Any) -> Callable[[pa.Table], pa.Table]:
    """An edit for :func:`_rewrite`: row ``index`` of ``column`` becomes ``value``."""
    def edit(table: pa.Table) -> pa.Table:
        values = table.column(column).to_pylist()
        values[index] = value
        field = table.schema.field(column)
        return table.set_column(table.column_names.index(column), field, pa.array(values, field.type))
    return edit


# -- the mapping -----------------------------------------------------------------------------------

def test_cpa_pairs_map_better_and_worse_by_column_and_criteria_to_ours():
    found = read_released(FIXTURE)
    rows, released = found.rows["cpa"], _released("cpa")
    assert len(rows) == 14 and {r["criterion"] for r in rows} == set(DIMENSIONS)
    for row, raw in zip(rows, released, strict=True):
        assert row["pair_id"] == row["id"] == f"cjb-cpa-{raw['pair_id']}"  # int ids keyed as str(), as released
        assert row["criterion"] == raw["subcategory"].lower() and row["dimension"] == raw["category"].lower()
        assert row["image_better"] == raw["better_image"]["bytes"] and row["image_worse"] == raw["worse_image"]["bytes"]
        assert row["chart_kind"] == raw["chart_type"] and row["data_source"] == f"chartjudgebench:{raw['pair_id']}"
        assert (row["evidence"], row["strategy"], row["spec_better"], row["spec_worse"]) == ("{}", "", "", "")


@pytest.mark.parametrize(("config", "reference", "candidate"), [
    ("crj_reproduction", "target", "input"),  # ground truth first, the generated chart second (ChartReproductionProtocol)
    ("crj_editing", "reference", "edited"),   # the original first, the edit result second (ChartEditingProtocol)
])
def test_crj_items_keep_the_released_labels_and_image_order(config, reference, candidate):
    rows, released = read_released(FIXTURE).rows[config], _released(config)
    for row, raw in zip(rows, released, strict=True):
        assert row["label"] == row["answer"] == raw["decision"].title() and row["answer_type"] == "choice"
        assert row["failure"] == ("none" if row["label"] == "Accept" else "unspecified")
        assert row["image_reference"] == raw[reference]["bytes"] and row["image_candidate"] == raw[candidate]["bytes"]
        assert row["item_id"] == row["id"] == f"cjb-{config}-{raw['example_id']}"
        assert (row["evidence"], row["edit"], row["spec_reference"], row["spec_candidate"]) == ("{}", "", "", "")
        if config == "crj_editing":
            assert row["instruction"] == row["question"] == raw["instruction"] and row["task"] == "editing"
        else:
            assert row["instruction"] == "" and row["question"].startswith("Generate Python code")
    assert [r["label"] for r in rows].count("Accept") == 3


def test_provenance_revision_licence_and_digest():
    found = read_released(FIXTURE)
    assert found.revisions == ("0123456789abcdef0123456789abcdef01234567",) and found.license == "cc-by-4.0"
    assert sorted(f.path for f in found.files) == sorted(FILES.values()) and len(found.digest) == 64
    assert read_released(FIXTURE).digest == found.digest
    assert dict(found.converted) == {"cpa": 28, "crj_editing": 0, "crj_reproduction": 0}  # the RGBA CPA charts


def test_the_released_fallback_field_names_read_the_same(tmp_path):
    """data.py reads ``sample_id``/``main_category``/``better``/``ground_truth``/``generated_image``/
    ``query``... where the first names are absent: so does the importer."""
    root = _copy(tmp_path)
    renames = {"cpa": {"pair_id": "sample_id", "category": "main_category", "subcategory": "sub_category",
                       "better_image": "better", "worse_image": "worse"},
               "crj_reproduction": {"example_id": "case_id", "decision": "ground_truth", "input": "generated_image",
                                    "target": "target_image"},
               "crj_editing": {"example_id": "sample_id", "instruction": "query", "reference": "reference_image",
                               "edited": "edited_image"}}
    for config, names in renames.items():
        _rewrite(root, config, lambda t, n=names: t.rename_columns([n.get(c, c) for c in t.column_names]))
    again, first = read_released(root), read_released(FIXTURE)
    assert {c: list(r) for c, r in again.rows.items()} == {c: list(r) for c, r in first.rows.items()}


def test_images_keep_rgb_bytes_and_convert_others_as_the_released_code_does():
    from chartprobe.dataset_builders.judge.released_images import embed
    from PIL import Image

    rgba = _released("cpa")[0]["better_image"]["bytes"]
    out = embed(rgba, "x")
    with Image.open(io.BytesIO(out)) as im, Image.open(io.BytesIO(rgba)) as src:
        assert (im.format, im.mode, src.mode) == ("PNG", "RGB", "RGBA")
        assert im.tobytes() == src.convert("RGB").tobytes()  # the pixels to_pil_image hands a model
    jpeg = _released("crj_reproduction")[0]["target"]["bytes"]
    png = _released("crj_editing")[0]["reference"]["bytes"]
    assert jpeg[:2] == b"\xff\xd8" and embed(jpeg, "x") == jpeg and embed(png, "x") == png


def test_an_image_cell_with_only_a_path_is_read_inside_the_folder(tmp_path):
    root = _copy(tmp_path)
    image = _released("crj_editing")[1]["edited"]["bytes"]
    (root / "images").mkdir()
    (root / "images" / "e.png").write_bytes(image)
    _rewrite(root, "crj_editing", _set("edited", 1, {"bytes": None, "path": "images/e.png"}))
    assert read_released(root).rows["crj_editing"][1]["image_candidate"] == image
    _rewrite(root, "crj_editing", _set("edited", 1, {"bytes": None, "path": "../outside.png"}))
    with pytest.raises(ReleasedError, match="points outside the released folder"):
        read_released(root)


# -- bad input: one line, nothing written -------------------------------------------------------------

BAD = {
    "no_folder": (lambda r: shutil.rmtree(r), "no such folder"),
    "no_config": (lambda r: shutil.rmtree(r / "ChartEditing"), "no ChartEditing/train-*.parquet"),
    "not_parquet": (lambda r: (r / FILES["cpa"]).write_bytes(b"not parquet"), "not a parquet file"),
    "missing_field": (lambda r: _rewrite(r, "crj_reproduction", lambda t: t.drop_columns(["decision"])),
                      "no field 'decision' / 'ground_truth'"),
    "null_id": (lambda r: _rewrite(r, "crj_editing", _set("example_id", 2, None)), "row 2: id is missing"),
    "unknown_label": (lambda r: _rewrite(r, "crj_reproduction", _set("decision", 1, "maybe")),
                      "row 1: unknown label 'maybe'"),
    "unknown_criterion": (lambda r: _rewrite(r, "cpa", _set("subcategory", 3, "Axis_Scale")),
                          "row 3: unknown CPA criterion 'Axis_Scale'"),
    "wrong_dimension": (lambda r: _rewrite(r, "cpa", _set("category", 0, "Data_Fidelity")),
                        "category 'Data_Fidelity' does not hold criterion 'Color_Consistency'"),
    "duplicate_id": (lambda r: _rewrite(r, "crj_editing", _set("example_id", 4, "edit_001")),
                     "row 4: duplicate id 'edit_001'"),
    "empty_instruction": (lambda r: _rewrite(r, "crj_editing", _set("instruction", 0, " ")),
                          "the edit instruction is ' '"),
    "not_an_image": (lambda r: _rewrite(r, "cpa", _set("worse_image", 5, {"bytes": b"GIF?", "path": None})),
                     "row 5, field 'worse_image': not an image"),
    "no_image": (lambda r: _rewrite(r, "cpa", _set("better_image", 6, None)), "image cell is missing"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_released_folders_fail_with_one_clear_line(tmp_path, case):
    breakage, message = BAD[case]
    root = _copy(tmp_path)
    breakage(root)
    with pytest.raises(ReleasedError, match=re.escape(message)) as info:
        read_released(root)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("case", ["no_config", "unknown_label", "not_parquet"])
def test_cli_refuses_bad_input_with_one_line_and_writes_nothing(tmp_path, capsys, case):
    root = _copy(tmp_path)
    BAD[case][0](root)
    out = tmp_path / "releases"
    assert main(["build", "judge", "--released", str(root), "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("chartprobe: error:"), err
    assert not out.exists()


def test_released_is_judge_only(tmp_path, capsys):
    assert main(["build", "smoke", "--out", str(tmp_path / "r"), "--released", str(FIXTURE)]) == 2
    assert "only `chartprobe build judge`" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_a_preset_split_other_than_test_is_refused(tmp_path, capsys):
    preset = tmp_path / "judge-x.yaml"
    preset.write_text("dataset: judge\npreset: x\nconfigs:\n  cpa: {splits: {validation: 1}, params: {pairs: {}}}\n")
    assert main(["build", "judge", "--preset", str(preset), "--released", str(FIXTURE),
                 "--out", str(tmp_path / "r"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "configs.cpa: the released ChartJudgeBench data has one split, 'train'" in err and err.count("\n") == 1


# -- the release -------------------------------------------------------------------------------------

def _build(out: Path, root: Path = FIXTURE, *extra: str) -> tuple[Path, str]:
    from chartprobe.dataset_builders.release.card import read_card_metadata

    assert main(["build", "judge", "--released", str(root), "--out", str(out), "--quiet", *extra]) == 0
    release = out / "chartprobe-judge"
    return release, read_card_metadata(release)["chartprobe"]["content_hash"]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, str, Path]:
    tmp = tmp_path_factory.mktemp("judge-released")
    release, digest = _build(tmp / "a")
    return release, digest, tmp


def test_release_loads_with_our_features_and_the_released_rows(built):
    from chartprobe.dataset_builders.judge.builder import JudgeDataset
    from chartprobe.dataset_builders.release.labels import as_text
    from datasets import load_dataset

    release, _, _ = built
    found = read_released(FIXTURE)
    for config in CONFIGS:
        ds = load_dataset(str(release), config, split="test")
        assert ds.features == JudgeDataset().features(config)
        assert len(ds) == len(found.rows[config])
        for row, mapped in zip(as_text(ds), found.rows[config], strict=True):  # names, as chartprobe reads
            images = JudgeDataset().features(config).keys() & {"image_better", "image_worse", "image_reference",
                                                                "image_candidate"}
            assert {k: v for k, v in row.items() if k not in images | {"seed", "generator_version"}} == \
                {k: v for k, v in mapped.items() if k not in images}
            assert row["seed"] is None and all(row[k].mode == "RGB" for k in images)


def test_card_names_source_revision_licence_mapping_and_recipe(built, capsys):
    from chartprobe.dataset_builders.release.card import read_card_metadata

    release, _, _ = built
    text = (release / "README.md").read_text()
    found = read_released(FIXTURE)
    assert "## Data source: the released ChartJudgeBench data" in text and "**CC BY 4.0**" in text
    assert "63ea2449c6d037f54526b55a855d6f2a19dbf247" in text and found.digest in text
    assert "0123456789abcdef0123456789abcdef01234567" in text and "### Field mapping" in text
    assert "| `crj_editing` | 6 | 335 | Accept 3, Reject 3 |" in text
    assert "## CPA: one verified pair per criterion" not in text  # the synthetic card's claims are not made
    meta = read_card_metadata(release)
    assert meta["license"] == "cc-by-4.0"
    assert all(c["params"]["released_sha256"] == found.digest for c in meta["chartprobe"]["recipe"]["configs"].values())
    # what `chartprobe push` checks: the folder is the build's, its content hash the card's
    assert main(["push", str(release), "--repo", "chartprobe/chartprobe-judge", "--tag", "v0.1.0", "--dry-run"]) == 0
    assert "dry run: nothing was uploaded" in capsys.readouterr().out


def test_acceptance_imported_release_passes_validate(built, tmp_path, capsys):
    """Every agent but image_stats: the fixture's PIL drawings paint each flaw in crude pixels (a
    blot, a clipped bar) that the learned agent rightly reads (CPA .875 on 12 pairs); it is
    tested on our own charts in test_image_stats.py, and would judge the real released images."""
    from chartprobe.eval_tasks.suites import suite_for_release
    from chartprobe.eval_tasks.validity.agents import AGENTS

    release, _, _ = built
    suite = suite_for_release("judge")
    agents = [n for n in AGENTS.names() if n != "image_stats" and AGENTS.get(n)().applies_to_suite(suite)]
    assert main(["validate", str(release), "--out", str(tmp_path), "--agents", ",".join(agents)]) == 0, \
        capsys.readouterr().out
    doc = json.loads((tmp_path / "validity.json").read_text())[0]
    assert doc["passed"] and not [c for c in doc["checks"] if c["status"] == "fail"]
    oracle = [c for c in doc["checks"] if c["agent"] == "oracle"]
    assert len(oracle) == 3 and all(c["value"] == 1.0 for c in oracle)


def test_same_folder_same_hash_changed_label_other_hash(built):
    _, digest, tmp = built
    assert _build(tmp / "b", FIXTURE, "--num-proc", "2", "--seed", "7")[1] == digest  # nothing is sampled
    other = _copy(tmp)
    _rewrite(other, "crj_reproduction", _set("decision", 0, "Reject"))
    assert _build(tmp / "c", other)[1] != digest


def test_chartprobe_score_reads_the_imported_rows(built, tmp_path):
    """The oracle's and the first-position agent's samples, scored by ``chartprobe score`` against the release."""
    release, _, _ = built
    samples = tmp_path / "samples"
    assert main(["validate", str(release), "--agents", "oracle,first_position,always_accept",
                 "--predictions-out", str(samples)]) == 0
    results = tmp_path / "results.json"
    assert main(["score", "--predictions", str(samples), "--releases", str(release.parent), "--out", str(results)]) == 0
    models = json.loads(results.read_text())["models"]
    oracle = models["oracle"]["tasks"]
    assert oracle["chartprobe_judge_cpa"]["metrics"]["two_pass_accuracy"] == 1.0
    assert oracle["chartprobe_judge_cpa"]["metrics"]["acc_axis_scaling"] == 1.0
    for task in ("chartprobe_judge_crj_repro", "chartprobe_judge_crj_edit"):
        assert oracle[task]["metrics"]["accuracy"] == 1.0 and oracle[task]["metrics"]["f1"] == 1.0
        accept = models["always_accept"]["tasks"][task]["metrics"]
        assert accept["recall"] == 1.0 and accept["specificity"] == 0.0 and accept["accuracy"] == 0.5
    first = models["first_position"]["tasks"]["chartprobe_judge_cpa"]["metrics"]
    assert first["two_pass_accuracy"] == 0.0 and first["bias_a_rate"] == 1.0


def test_lm_eval_tasks_read_the_imported_release_unchanged(built, monkeypatch):
    from chartprobe.eval_tasks.harness.runner import tasks_path
    from chartprobe.eval_tasks.rescoring import data
    from lm_eval.tasks import TaskManager

    release, _, _ = built
    monkeypatch.setenv(data.ENV_VAR, str(release.parent))
    names = ["chartprobe_judge_cpa", "chartprobe_judge_crj_repro", "chartprobe_judge_crj_edit",
             "chartprobe_judge_cpa_paper", "chartprobe_judge_crj_edit_paper"]
    tasks = TaskManager(include_path=tasks_path(), include_defaults=False,
                        metadata={"pretrained": "x"}).load(names)["tasks"]
    cpa = list(tasks["chartprobe_judge_cpa"].test_docs())
    assert len(cpa) == 28  # 14 pairs, each in both orders, consecutive
    for first, second in zip(cpa[::2], cpa[1::2]):
        assert first["pair_id"] == second["pair_id"] and (first["answer"], second["answer"]) == ("A", "B")
    for name in names:
        doc = next(iter(tasks[name].test_docs()))
        assert len(tasks[name].doc_to_image(doc)) == 2 and tasks[name].doc_to_target(doc) in {"A", "B", "Accept", "Reject"}
    edit = list(tasks["chartprobe_judge_crj_edit"].test_docs())
    assert {d["instruction"] for d in edit} == {r["instruction"] for r in _released("crj_editing")}


def test_synthetic_rows_say_synthetic():
    from chartprobe.dataset_builders.judge.builder import JudgeDataset
    from chartprobe.dataset_builders.release.preset import load_preset, preset_path

    preset = load_preset(preset_path("judge", "small"))
    key = JudgeDataset().item_keys(preset, "crj_editing", "test")[0]
    (row,) = JudgeDataset().build_item(preset, "crj_editing", "test", key)
    assert row["data_source"] == "synthetic" and row["seed"] == preset.seed


def test_a_preset_may_name_the_released_folder_without_cpa_pairs(tmp_path):
    from chartprobe.dataset_builders.release.preset import load_preset

    preset = tmp_path / "judge-released.yaml"
    preset.write_text(f"dataset: judge\npreset: released\nconfigs:\n  cpa: {{splits: {{test: 1}}, "
                      f"params: {{released: '{FIXTURE}'}}}}\n")
    loaded = load_preset(preset)
    from chartprobe.dataset_builders.judge.builder import JudgeDataset

    assert len(JudgeDataset().item_keys(loaded, "cpa", "test")) == 14
