"""``chartprobe build families --released DIR`` (issue #15, #16 part 3): the paper's released
Chartographer families imported into the ``chartprobe-families`` schema.

The fixture ``tests/fixtures/chartographer`` (written by its ``make_fixture.py``) is a tiny copy in the
released export layout and schema (compling-wat/Chartographer @ 1f02025c,
``export_chart_question_families.py``): six families from three source splits (ChartQA x3, CharXiv x1,
ChartMuseum x2), each original + reconstruction + seeds 0-9, and one excluded chart whose original
row stands alone. Broken inputs are made from copies of it in ``tmp_path``.
"""

from __future__ import annotations

import importlib.util
import io
import json
import re
import shutil
from pathlib import Path

import pytest
from chartprobe.dataset_builders.families import released as rel
from chartprobe.dataset_builders.families.released import load_released, read_released, released_params
from chartprobe.dataset_builders.families.released_answers import type_family
from chartprobe.dataset_builders.families.released_rows import ReleasedFamiliesError

from chartprobe.cli import main

FIXTURE = Path(__file__).parent / "fixtures" / "chartographer"
ROW_FILES = {"chartqa_val": "chartqa_families/val.jsonl", "charxiv_validation": "charxiv_families/validation.jsonl",
             "chartmuseum_dev": "chartmuseum_families/dev.jsonl"}
REVISION = "fedcba9876543210fedcba9876543210fedcba98"
TYPES = {"chartqa_val-q000000": "number", "chartqa_val-q000001": "label", "chartqa_val-q000002": "bool",
         "charxiv_validation-q000000": "year", "chartmuseum_dev-q000000": "list", "chartmuseum_dev-q000001": "text"}
CONFIGS = ("all", "chartqa", "charxiv", "chartmuseum", "resolution")


def _released_rows(split: str) -> list[dict]:
    return [json.loads(line) for line in (FIXTURE / ROW_FILES[split]).read_text().splitlines()]


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "chartographer"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return root


def _edit(root: Path, split: str, line: int, **changes) -> None:
    """Change fields of line ``line`` (0-based) of a copy's row file; a value None drops the field."""
    path = root / ROW_FILES[split]
    rows = [json.loads(x) for x in path.read_text().splitlines()]
    rows[line] = {k: v for k, v in {**rows[line], **changes}.items() if v is not None}
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def _line(split: str, qid: str, variant: str) -> int:
    return next(i for i, r in enumerate(_released_rows(split)) if (r["question_id"], r["variant"]) == (qid, variant))


# -- the mapping -----------------------------------------------------------------------------------

def test_every_family_is_imported_with_its_members_in_order_and_the_excluded_chart_skipped():
    found = read_released(FIXTURE)
    assert list(found.configs) == list(CONFIGS) and set(found.families) == set(TYPES)
    assert found.skipped == ("chartmuseum_dev-q000002",)  # its original row only: not a family
    for fid, members in found.families.items():
        assert [(m.role, m.variant_seed) for m in members] == \
            [("original", -1), ("reconstruction", -1), *(("variant", s) for s in range(10))], fid
    assert found.keys("chartqa", "test") == ["chartqa_val-q000000", "chartqa_val-q000001", "chartqa_val-q000002"]
    assert found.keys("all", "test") == found.keys("resolution", "test") and len(found.keys("all", "test")) == 6


def test_rows_keep_the_released_questions_and_answers_typed_once_per_family():
    from chartprobe.dataset_builders.families.released_rows import family_rows

    found = read_released(FIXTURE)
    for fid, members in found.families.items():
        split, qid = fid.rsplit("-", 1)
        released = {r["variant"]: r for r in _released_rows(split) if r["question_id"] == qid}
        rows = family_rows(list(members), "v")
        assert {r["answer_type"] for r in rows} == {TYPES[fid]}
        for row, m in zip(rows, members, strict=True):
            raw = released[m.variant]
            suffix = {"original": "original", "reconstruction": "reconstruction"}.get(m.variant, f"v{m.variant_seed}")
            assert row["id"] == f"{fid}-{suffix}" and row["family_id"] == row["source"] == fid
            assert row["question"] == raw["question"] and row["group"] == split.split("_")[0]
            assert row["original_question"] == released["original"]["question"]
            assert row["question_adapted"] == (raw["question"] != released["original"]["question"])
            assert row["data_source"] == (f"chartographer:{split}/{qid}/{m.variant}#row={raw['source_row_index']}"
                                          f"@{raw['chart_id']}")
            assert (row["spec"], row["qa_params"], row["chart_kind"], row["seed"]) == ("", "{}", "unknown", None)
            assert row["regime"] == (m.role if m.role != "variant" else "unlabelled")
    rows = {fid: family_rows(list(ms), "v") for fid, ms in found.families.items()}
    # ChartQA's list labels are printed as one-item lists ("['14']"): the gold is the item
    assert [r["answer"] for r in rows["chartqa_val-q000000"]][:3] == ["14", "14.0", "12.5"]
    assert [r["answer"] for r in rows["chartqa_val-q000002"]][:4] == ["yes", "yes", "yes", "no"]  # "['Yes']", "True"
    assert rows["chartmuseum_dev-q000000"][0]["answer"] == '["Bears", "Lions"]'  # "Bears, Lions" split into items
    assert rows["chartmuseum_dev-q000000"][5]["answer"] == '["Hawks", "Wolves"]'  # "['Hawks', 'Wolves']"
    assert all(r["original_answer"] == "14" for r in rows["chartqa_val-q000000"])
    adapted = [r["variant_seed"] for r in rows["chartmuseum_dev-q000001"] if r["question_adapted"]]
    assert adapted == [3]


@pytest.mark.parametrize(("answers", "question", "kind", "gold"), [
    (["['14']", "14.0", "9"], "What is the value?", "number", ["14", "14.0", "9"]),
    (["2016", "2019"], "In which year is it highest?", "year", ["2016", "2019"]),
    (["2516", "2719"], "What is the total?", "number", ["2516", "2719"]),  # no year, no year question
    (["2016", "2012"], "Which peak?", "year", ["2016", "2012"]),  # issue 42: years 1900-2099 are exact
    (["FY2016", "Q3 2019", "Sept 2019", "2016-17", "'16"], "Which?", "year",
     ["FY2016", "Q3 2019", "Sept 2019", "2016-17", "'16"]),
    (["['Yes']", "False"], "Is 2019 above 2018?", "bool", ["yes", "no"]),
    (["A, B", "['C']", "['A', 'C']"], "Which ones?", "list", ['["A", "B"]', '["C"]', '["A", "C"]']),
    (["Germany", "France"], "Which country?", "label", ["Germany", "France"]),
    (["one two three four five six seven eight nine", "x"], "Why?", "text",
     ["one two three four five six seven eight nine", "x"]),
])
def test_answer_typing_rules(answers, question, kind, gold):
    typed = type_family(answers, question)
    assert (typed.answer_type, list(typed.answers)) == (kind, gold)


def test_the_released_fallback_columns_and_a_reasoning_type_are_read(tmp_path):
    """``question``/``answer`` may be ``reasoning_q``/``reasoning_a`` (the released ``chartographer``
    config's fallbacks, as ``resolve_column`` tries them); a row's ChartMuseum reasoning type is kept."""
    root = _copy(tmp_path)
    path = root / ROW_FILES["chartmuseum_dev"]
    rows = [json.loads(x) for x in path.read_text().splitlines()]
    for r in rows:
        r["reasoning_q"], r["reasoning_a"] = r.pop("question"), r.pop("answer")
        r["reasoning_type"] = "Visual Reasoning" if r["question_id"] == "q000000" else "Text/Visual Reasoning"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    again, first = read_released(root), read_released(FIXTURE)
    for fid in ("chartmuseum_dev-q000000", "chartmuseum_dev-q000001"):
        assert [(m.question, m.answer) for m in again.families[fid]] == \
            [(m.question, m.answer) for m in first.families[fid]]
    assert {m.reasoning_type for m in again.families["chartmuseum_dev-q000000"]} == {"visual"}
    assert {m.reasoning_type for m in again.families["chartmuseum_dev-q000001"]} == {"visual_text"}


def test_a_label_kept_as_a_list_reads_as_its_printed_form(tmp_path):
    """ChartQA's ``label`` is a list; the export ``str()``s it (``"['14']"``), a copy that kept the list
    (``["14"]``) gives the same gold."""
    from chartprobe.dataset_builders.families.released_rows import family_rows

    root = _copy(tmp_path)
    _edit(root, "chartqa_val", 0, answer=["14"])
    members = read_released(root).families["chartqa_val-q000000"]
    assert members[0].answer == '["14"]' and family_rows(list(members), "v")[0]["answer"] == "14"


def test_provenance_revision_licence_and_digest():
    found = read_released(FIXTURE)
    assert found.revisions == (REVISION,) and found.license == "cc-by-sa-4.0"
    row_files = sorted(f.path for f in found.files if f.rows is not None)
    assert row_files == sorted(ROW_FILES.values()) and len(found.digest) == 64
    assert read_released(FIXTURE).digest == found.digest
    images = [f.path for f in found.files if f.rows is None]
    assert len(images) == len(set(images)) == 60  # a chart's images are shared by its questions, read once
    assert not any("chart_data" in p for p in images)


def test_images_are_found_where_the_export_and_the_restore_location_put_them():
    from PIL import Image

    found = read_released(FIXTURE)
    originals = {fid: ms[0].image for fid, ms in found.families.items()}
    assert originals["chartqa_val-q000000"] == "chartqa_families/images/original/c000000.png"
    assert originals["charxiv_validation-q000000"] == "originals/charxiv_validation/0.jpg"  # named, not shipped
    assert originals["chartmuseum_dev-q000001"] == "originals/chartmuseum_dev/1.png"  # image ""
    seed3 = found.families["chartmuseum_dev-q000000"][5]
    assert seed3.image == "chartmuseum_families/images/seed_3/c000000.png"
    png = (FIXTURE / seed3.image).read_bytes()
    assert found.image_bytes(seed3) == png  # RGB PNG: byte for byte
    jpeg_member = found.families["charxiv_validation-q000000"][0]
    out = found.image_bytes(jpeg_member)
    with Image.open(io.BytesIO(out)) as im, Image.open(FIXTURE / jpeg_member.image) as src:
        assert (im.format, im.mode) == ("PNG", "RGB") and im.tobytes() == src.convert("RGB").tobytes()


# -- bad input: one line, nothing written -------------------------------------------------------------

def _drop(root: Path, rel_path: str) -> None:
    (root / rel_path).unlink()


BAD = {
    "no_folder": (lambda r: shutil.rmtree(r), "no such folder"),
    "no_rows": (lambda r: [(r / p).unlink() for p in ROW_FILES.values()], "no released rows"),
    "bad_json": (lambda r: (r / ROW_FILES["charxiv_validation"]).write_text('{"chart_id": "c0"\n'),
                 "validation.jsonl:1: invalid JSON"),
    "not_object": (lambda r: (r / ROW_FILES["charxiv_validation"]).write_text("[1, 2]\n"),
                   "validation.jsonl:1: expected a JSON object, got list"),
    "missing_field": (lambda r: _edit(r, "chartqa_val", 4, variant=None), "val.jsonl:5: no field 'variant'"),
    "no_answer": (lambda r: _edit(r, "chartqa_val", 0, answer=None),
                  "val.jsonl:1: no field 'answer' / 'reasoning_a' / 'label'"),
    "empty_question": (lambda r: _edit(r, "chartqa_val", 3, question=" "), "val.jsonl:4: field 'question' is empty"),
    "unknown_variant": (lambda r: _edit(r, "charxiv_validation", 2, variant="seed_x"),
                        "validation.jsonl:3: unknown variant 'seed_x'"),
    "unknown_benchmark": (lambda r: _edit(r, "charxiv_validation", 0, source_dataset_split="plotqa_val"),
                          "source_dataset_split 'plotqa_val' names no source benchmark"),
    "bad_row_index": (lambda r: _edit(r, "charxiv_validation", 1, source_row_index=-1),
                      "source_row_index -1 is not a non-negative integer"),
    "duplicate_row": (lambda r: _edit(r, "charxiv_validation", _line("charxiv_validation", "q000000", "seed_4"),
                                      variant="seed_3"),
                      "duplicate row charxiv_validation-q000000/seed_3"),
    "no_reconstruction": (lambda r: _edit(r, "charxiv_validation", 1, variant="seed_11"),
                          "family charxiv_validation-q000000 has no reconstruction row"),
    "mixed_charts": (lambda r: _edit(r, "charxiv_validation", 6, chart_id="c000009"), "mixes charts"),
    "missing_image": (lambda r: _drop(r, "chartqa_families/images/seed_2/c000001.png"),
                      "image 'images/seed_2/c000001.png' is missing"),
    "missing_original": (lambda r: _drop(r, "originals/chartmuseum_dev/1.png"),
                         "the original chart image '(none)' is not in the release"),
    "not_an_image": (lambda r: (r / "chartqa_families/images/seed_0/c000000.png").write_bytes(b"GIF?"),
                     "is not an image Pillow can read"),
    "outside": (lambda r: _edit(r, "chartqa_val", 5, image="../../secret.png"), "points outside the released folder"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_released_folders_fail_with_one_clear_line(tmp_path, case):
    breakage, message = BAD[case]
    root = _copy(tmp_path)
    breakage(root)
    with pytest.raises(ReleasedFamiliesError, match=re.escape(message)) as info:
        read_released(root)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("case", ["no_rows", "duplicate_row", "missing_original"])
def test_cli_refuses_bad_input_with_one_line_and_writes_nothing(tmp_path, capsys, case):
    root = _copy(tmp_path)
    BAD[case][0](root)
    out = tmp_path / "releases"
    assert main(["build", "families", "--released", str(root), "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("chartprobe: error:"), err
    assert not out.exists()


def test_released_is_for_judge_and_families_only(tmp_path, capsys):
    assert main(["build", "smoke", "--out", str(tmp_path / "r"), "--released", str(FIXTURE)]) == 2
    err = capsys.readouterr().err
    assert "only `chartprobe build judge` (ChartJudgeBench) or `chartprobe build families` (Chartographer)" in err
    assert not (tmp_path / "r").exists()


def test_a_synthetic_preset_with_released_data_names_the_configs_it_can_fill(tmp_path, capsys):
    assert main(["build", "families", "--preset", "small", "--released", str(FIXTURE),
                 "--out", str(tmp_path / "r"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "config 'bars' is not a config of the released families; a --released build holds all, chartqa, " \
           "charxiv, chartmuseum, resolution" in err and err.count("\n") == 1
    assert not (tmp_path / "r").exists()


def test_a_file_changed_after_the_check_is_refused(tmp_path):
    root = _copy(tmp_path)
    params = released_params(root)
    found = load_released(params["released"], params["released_sha256"])
    member = found.families["chartqa_val-q000001"][4]
    (root / member.image).write_bytes((root / "chartqa_families/images/seed_0/c000001.png").read_bytes())
    with pytest.raises(ReleasedFamiliesError, match="changed since the build started"):
        found.build_rows("all", "chartqa_val-q000001", "v")  # a worker's rows: every image re-hashed
    rel.LOADER.clear()  # a fresh process re-reads the folder: the recipe's sha256 no longer matches
    with pytest.raises(ReleasedFamiliesError, match=r"the released data changed since the build started \(sha256"):
        load_released(params["released"], params["released_sha256"])


# -- the release -------------------------------------------------------------------------------------

def _build(out: Path, root: Path = FIXTURE, *extra: str) -> tuple[Path, str]:
    from chartprobe.dataset_builders.release.card import read_card_metadata

    assert main(["build", "families", "--released", str(root), "--out", str(out), "--quiet", *extra]) == 0
    release = out / "chartprobe-families"
    return release, read_card_metadata(release)["chartprobe"]["content_hash"]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, str, Path]:
    tmp = tmp_path_factory.mktemp("families-released")
    release, digest = _build(tmp / "a")
    return release, digest, tmp


def _load(release: Path, config: str):
    from datasets import load_dataset

    return load_dataset(str(release), config, split="test")


def test_release_loads_with_our_features_and_the_released_rows(built):
    from chartprobe.dataset_builders.families.builder import FamiliesDataset
    from datasets import Image

    release, _, _ = built
    found = read_released(FIXTURE)
    for config in CONFIGS:
        ds = _load(release, config)
        assert ds.features == FamiliesDataset().features(config)
        assert list(dict.fromkeys(ds["family_id"])) == found.keys(config, "test")
    rows = list(_load(release, "all").cast_column("image", Image(decode=False)))
    members = [m for ms in found.families.values() for m in ms]
    assert len(rows) == len(members) == 72
    for row, m in zip(rows, members, strict=True):
        assert row["id"].startswith(m.family_id) and row["role"] == m.role and row["variant_seed"] == m.variant_seed
        if m.image.endswith(".png"):  # every released RGB PNG is embedded byte for byte
            assert row["image"]["bytes"] == (FIXTURE / m.image).read_bytes()
    res = list(_load(release, "resolution").cast_column("image", Image(decode=False)))
    assert [r["scale"] for r in res[:3]] == [1.0, 0.75, 0.5] and len(res) == 18
    assert {r["role"] for r in res} == {"reconstruction"} and res[1]["degradation"] == "bicubic:0.75"
    assert res[0]["image"]["bytes"] == (FIXTURE / members[1].image).read_bytes()
    from PIL import Image as PILImage

    sizes = [PILImage.open(io.BytesIO(r["image"]["bytes"])).size for r in res[:3]]
    assert sizes == [(40, 28), (30, 21), (20, 14)]


def test_card_names_source_revision_licence_hashes_mapping_and_recipe(built, capsys):
    from chartprobe.dataset_builders.release.card import read_card_metadata

    release, _, _ = built
    text = (release / "README.md").read_text()
    found = read_released(FIXTURE)
    assert "## Data source: the released Chartographer families" in text and "**CC BY-SA 4.0**" in text
    assert "1f02025c21a7d9d0f4807b1c742b2d1ecbe6e083" in text and found.digest in text and REVISION in text
    assert "ChartQA (GPL-3.0)" in text and "### Field mapping" in text and "### Answer types" in text
    assert "`chartprobe score --judge`" in text and "skipped: 1" in text
    assert "| `chartmuseum` | 2 | 142 | 24 | 20 | 1 | list 1, text 1 |" in text
    assert "## Source templates and regimes" not in text  # the synthetic card's claims are not made
    assert not (release / "images").exists()  # no example grid: the originals are the sources'
    meta = read_card_metadata(release)
    assert meta["license"] == "cc-by-sa-4.0" and "released-data" in meta["tags"] and "synthetic" not in meta["tags"]
    recipe = meta["chartprobe"]["recipe"]
    assert recipe["preset"] == "released" and list(recipe["configs"]) == sorted(CONFIGS)
    assert all(c["params"]["released_sha256"] == found.digest for c in recipe["configs"].values())
    assert main(["push", str(release), "--repo", "chartprobe/chartprobe-families", "--tag", "v0.1.0", "--dry-run"]) == 0
    assert "dry run: nothing was uploaded" in capsys.readouterr().out


def test_same_folder_same_hash_changed_answer_other_hash(built):
    _, digest, tmp = built
    assert _build(tmp / "b", FIXTURE, "--num-proc", "2", "--seed", "7")[1] == digest  # nothing is sampled
    other = _copy(tmp)
    _edit(other, "charxiv_validation", 3, answer="2017")
    assert _build(tmp / "c", other)[1] != digest


def test_acceptance_imported_release_passes_validate(built, tmp_path, capsys):
    release, _, _ = built
    assert main(["validate", str(release), "--out", str(tmp_path)]) == 0, capsys.readouterr().out
    doc = json.loads((tmp_path / "validity.json").read_text())[0]
    assert doc["passed"] and not [c for c in doc["checks"] if c["status"] == "fail"]
    oracle = [c for c in doc["checks"] if c["agent"] == "oracle"]
    assert len(oracle) == len(CONFIGS) and all(c["value"] == 1.0 for c in oracle)


# -- metrics on crafted predictions ---------------------------------------------------------------------

PLAN = {  # family -> (original, reconstruction, variants 0-9): ok | bad (wrong) | stale | noisy
    "chartqa_val-q000000": ("ok", "ok", ["ok"] * 8 + ["stale", "noisy"]),
    "chartqa_val-q000001": ("bad", "ok", ["ok"] * 5 + ["noisy"] * 5),
    "chartqa_val-q000002": ("ok", "bad", ["ok"] * 10),
    "charxiv_validation-q000000": ("bad", "bad", ["noisy"] * 10),
    "chartmuseum_dev-q000000": ("ok", "ok", ["ok"] * 3 + ["stale"] * 3 + ["noisy"] * 4),
    "chartmuseum_dev-q000001": ("ok", "ok", ["ok"] * 10),
}
WRONG = {"number": "-987654", "label": "Atlantis", "year": "1111", "list": "Zebras", "text": "zzzz qqqq"}


def _said(row: dict, gold: str) -> str:
    return ", ".join(json.loads(gold)) if row["answer_type"] == "list" else gold


def _prediction(row: dict) -> str:
    original, recon, variants = PLAN[row["family_id"]]
    kind = {"original": original, "reconstruction": recon}.get(row["role"]) or variants[row["variant_seed"]]
    if kind == "ok":
        answer = _said(row, row["answer"])
    elif kind == "stale":  # the original's answer, which the variant's gold is not
        assert row["answer"] != row["original_answer"]
        answer = _said(row, row["original_answer"])
    elif row["answer_type"] == "bool":
        answer = "no" if row["answer"] == "yes" else "yes"
    else:
        answer = WRONG[row["answer_type"]]
    return f"<rationale>crafted</rationale> <answer>{answer}</answer>"


EXPECTED = {"OA": 4 / 6, "RA": 4 / 6, "VA": 36 / 60, "RVC": -10.0, "CVA": 31 / 40, "CU": 31 / 40, "NU": 5 / 40,
            "SP": 4 / 40}
"""By hand from PLAN: originals right A C E F; reconstructions right A B E F; variants right 8 + 5 + 10
+ 0 + 3 + 10 = 36 of 60; RVC = 100 (0.6 - 2/3) / (2/3); of the 40 variants of A C E F, 31 right, 4
stale (A seed 8, E seeds 3-5) and 5 noisy (A seed 9, E seeds 6-9)."""
PER_GROUP = {"chartqa": {"OA": 2 / 3, "RA": 2 / 3, "VA": 23 / 30, "RVC": 15.0, "CVA": 18 / 20, "SP": 1 / 20},
             "charxiv": {"OA": 0.0, "RA": 0.0, "VA": 0.0, "RVC": None, "CVA": None},
             "chartmuseum": {"OA": 1.0, "RA": 1.0, "VA": 13 / 20, "RVC": -35.0, "CVA": 13 / 20, "SP": 3 / 20,
                             "NU": 4 / 20}}


def _close(value, expected) -> bool:
    return value is None if expected is None else value == pytest.approx(expected)


def test_family_metrics_on_crafted_predictions_match_the_hand_computed_numbers(built, tmp_path):
    """``chartprobe score`` (suite summary and its per-benchmark breakdown) and lm-eval's aggregations
    (``families_utils``) on the same predictions give the numbers computed by hand from PLAN."""
    from chartprobe.eval_tasks.harness.runner import tasks_path
    from chartprobe.eval_tasks.rescoring.predictions import load_release_rows, write_samples
    from chartprobe.eval_tasks.rescoring.rescore import score_samples

    release, _, _ = built
    rows = load_release_rows(release)[("all", "test")]
    preds = [_prediction(r) for r in rows]
    write_samples(tmp_path / "model", "chartprobe_families", rows, preds)
    summary = score_samples([tmp_path / "model"], releases=release.parent)["models"]["model"]["suites"]["families"]
    assert {k: summary[k] for k in EXPECTED} == pytest.approx(EXPECTED)
    for group, numbers in PER_GROUP.items():
        assert all(_close(summary["per_group"][group][k], v) for k, v in numbers.items()), (group, summary["per_group"])

    spec = importlib.util.spec_from_file_location("families_utils_released", Path(tasks_path()) / "families_utils.py")
    utils = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(utils)
    items = [utils.process_results(r, [p]) for r, p in zip(rows, preds, strict=True)]
    table = {"OA": "original_accuracy", "RA": "reconstruction_accuracy", "VA": "variant_accuracy",
             "RVC": "relative_variant_change_pct", "CVA": "conditional_variant_accuracy", "CU": "correct_update_rate",
             "NU": "noisy_update_rate", "SP": "stale_prediction_rate"}
    for key, metric in table.items():
        assert getattr(utils, metric)([i[metric] for i in items]) == pytest.approx(EXPECTED[key]), key


def test_lm_eval_family_tasks_read_the_imported_release_unchanged(built, monkeypatch):
    from chartprobe.eval_tasks.harness.runner import tasks_path
    from chartprobe.eval_tasks.rescoring import data
    from lm_eval.tasks import TaskManager

    release, _, _ = built
    monkeypatch.setenv(data.ENV_VAR, str(release.parent))
    names = ["chartprobe_families", "chartprobe_families_resolution"]
    tasks = TaskManager(include_path=tasks_path(), include_defaults=False,
                        metadata={"pretrained": "x"}).load(names)["tasks"]
    docs = list(tasks["chartprobe_families"].test_docs())
    assert len(docs) == 72 and {d["family_id"] for d in docs} == set(PLAN)
    assert len(list(tasks["chartprobe_families_resolution"].test_docs())) == 18
    for name in names:
        task = tasks[name]
        doc = next(iter(task.test_docs()))
        prompt = task.doc_to_text(doc)
        assert prompt.startswith("<image>Please answer the question using the chart image. Question: ")
        assert doc["question"] in prompt and task.doc_to_target(doc) == doc["answer"]
        assert len(task.doc_to_image(doc)) == 1


def test_synthetic_rows_say_synthetic():
    from chartprobe.dataset_builders.families.builder import FamiliesDataset
    from chartprobe.dataset_builders.release.preset import load_preset, preset_path

    preset = load_preset(preset_path("families", "small"))
    key = FamiliesDataset().item_keys(preset, "shares", "test")[0]
    rows = list(FamiliesDataset().build_item(preset, "shares", "test", key))
    assert {r["data_source"] for r in rows} == {"synthetic"} and rows[0]["seed"] == preset.seed
