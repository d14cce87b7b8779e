"""chartprobe-families: family structure, executable QA validity, answer-change rates, oracle, card."""

from __future__ import annotations

import io
import json
from collections import Counter, defaultdict

import pytest
from chartprobe.dataset_builders.core.spec import ChartSpec
from chartprobe.dataset_builders.families.builder import (
    CONFIG_GROUPS,
    FamiliesDataset,
    family_ids,
    source_of,
)
from chartprobe.dataset_builders.families.card import EXAMPLE_IMAGE
from chartprobe.dataset_builders.families.source import (
    FAMILY_SOURCES,
    GROUPS,
    N_VARIANTS,
    REASONING_TYPES,
    same_schema,
)
from chartprobe.dataset_builders.release.preset import load_preset, preset_path
from chartprobe.eval_tasks.metrics.families import score_family_record
from datasets import load_dataset
from PIL import Image

CONFIGS = list(CONFIG_GROUPS)
MIN_CHANGE_RATE = 0.8


@pytest.fixture(scope="module")
def release(release_root):
    return release_root / "chartprobe-families"


@pytest.fixture(scope="module")
def rows(release):
    return {c: load_dataset(str(release), c, split="test").remove_columns(["image"]).to_list() for c in CONFIGS}


def _families(config_rows):
    out = defaultdict(list)
    for r in config_rows:
        out[r["family_id"]].append(r)
    return out


def test_source_templates_cover_the_testbed():
    sources = dict(FAMILY_SOURCES.items())
    assert len(sources) >= 12
    assert {cls.group for cls in sources.values()} == set(GROUPS)
    assert {cls.reasoning_type for cls in sources.values()} == set(REASONING_TYPES)
    assert {"grouped_bar", "stacked_bar", "hbar", "line", "scatter", "pie", "donut", "area", "heatmap",
            "histogram", "gantt"} <= {cls.kind for cls in sources.values()}
    for name, cls in sources.items():
        assert len(set(cls.regimes)) >= 3, f"{name}: regimes must change data in several ways"
        for regime in cls.regimes:
            assert callable(cls().regime_fn(regime)), (name, regime)


@pytest.mark.parametrize("config", CONFIGS)
def test_every_family_is_complete(rows, config):
    families = _families(rows[config])
    assert families
    for fid, members in families.items():
        if config == "resolution":
            assert sorted(m["scale"] for m in members) == [0.5, 0.75, 1.0]
            continue
        roles = Counter(m["role"] for m in members)
        assert roles == {"original": 1, "reconstruction": 1, "variant": N_VARIANTS}, fid
        assert sorted(m["variant_seed"] for m in members if m["role"] == "variant") == list(range(N_VARIANTS))
        assert {m["original_answer"] for m in members} == {next(m["answer"] for m in members
                                                              if m["role"] == "original")}


def test_group_configs_hold_the_same_families_as_all(rows):
    by_id = {r["id"]: r for r in rows["all"]}
    grouped = [r for g in GROUPS for r in rows[g]]
    assert len(grouped) == len(rows["all"])
    for r in grouped:
        assert by_id[r["id"]] == r


@pytest.mark.parametrize("config", CONFIGS)
def test_every_answer_reruns_from_the_spec(rows, config):
    """Acceptance 2: answer == generate_answer(data) re-run on the row's stored spec and params."""
    for r in rows[config]:
        source = FAMILY_SOURCES.get(r["source"])()
        spec, params = ChartSpec.from_json(r["spec"]), json.loads(r["qa_params"])
        assert source.answer(spec, params) == r["answer"], r["id"]
        assert source.adapt_question(spec, params) == r["question"], r["id"]
        assert r["question_adapted"] == (r["question"] != r["original_question"])


def test_variants_keep_kind_series_and_question_intent(rows):
    for fid, members in _families(rows["all"]).items():
        recon = ChartSpec.from_json(next(m["spec"] for m in members if m["role"] == "reconstruction"))
        original = ChartSpec.from_json(next(m["spec"] for m in members if m["role"] == "original"))
        assert original.data == recon.data and original.style.theme == "scraped"
        for m in members:
            spec = ChartSpec.from_json(m["spec"])
            assert spec.kind == source_of(fid).kind == m["chart_kind"]
            assert same_schema(recon, spec), m["id"]
            # Every member is asked the source question: wording never follows the new data.
            assert not m["question_adapted"] and m["question"] == m["original_question"], m["id"]
            if m["role"] == "variant":
                assert spec.style.theme == "default" and spec.data != recon.data


def test_domain_constraints_hold(rows):
    for r in rows["all"]:
        spec, params = ChartSpec.from_json(r["spec"]), json.loads(r["qa_params"])
        values = spec.data.series[0].values
        if r["source"] == "pie_two_smallest":
            assert sum(values) == 100 and all(v.is_integer() for v in values)
        if r["source"] == "donut_majority":
            assert sum(values) == params["total"] and max(values) < params["majority"]
        if r["chart_kind"] == "gantt":
            assert all(b > a for a, b in zip(*(s.values for s in spec.data.series)))
        if r["answer_type"] in ("integer", "year"):
            assert str(int(r["answer"])) == r["answer"]


def test_answer_change_rate_in_the_release(rows):
    """Pooled over source templates, >= 80% of variants change the gold answer (a regression
    guard on the regimes; the validity suite bounds the stale agent by chance on the variants);
    per-template rates and the binary balance are in
    ``test_families_regimes.py``, since regimes are never conditioned on the answer."""
    variants = [r for r in rows["all"] if r["role"] == "variant"]
    assert sum(r["answer"] != r["original_answer"] for r in variants) / len(variants) >= MIN_CHANGE_RATE


@pytest.mark.parametrize("config", CONFIGS)
def test_oracle_scores_100_percent(rows, config):
    for r in rows[config]:
        rec = score_family_record(r, f"<rationale>read the chart</rationale> <answer>{r['answer']}</answer>")
        assert rec["correct"] and not rec["parse_failed"], r["id"]


def test_original_looks_scraped_and_resolution_rows_are_downscaled(release):
    ds = load_dataset(str(release), "all", split="test")
    original, recon = ds[0], ds[1]
    assert (original["role"], recon["role"]) == ("original", "reconstruction")
    assert original["degradation"].startswith("jpeg:") and recon["degradation"] == ""
    assert original["image"].width < recon["image"].width and recon["image"].size == (640, 480)
    res = load_dataset(str(release), "resolution", split="test")
    sizes = {round(r["scale"], 2): r["image"].size for r in res.select(range(3))}
    assert sizes == {1.0: (640, 480), 0.75: (480, 360), 0.5: (320, 240)}


def test_a_family_is_a_function_of_seed_and_id():
    builder = FamiliesDataset()
    preset = load_preset(preset_path("families", "small"))
    key = family_ids("timelines", 1)[0]
    first = list(builder.build_item(preset, "timelines", "test", key))
    again = list(builder.build_item(preset, "all", "test", key))
    assert [r["image"]["bytes"] for r in first] == [r["image"]["bytes"] for r in again]
    assert [r["answer"] for r in first] == [r["answer"] for r in again]


def test_full_preset_is_paper_scale():
    """Acceptance 1: the full preset has >= 440 families (Chartographer Table 5)."""
    preset = load_preset(preset_path("families", "full"))
    n_all = preset.configs["all"].splits["test"]
    assert n_all >= 440
    assert sum(preset.configs[g].splits["test"] for g in GROUPS) == n_all
    assert set(family_ids("all", n_all)) == {f for g in GROUPS
                                             for f in family_ids(g, preset.configs[g].splits["test"])}


def test_verify_rejects_an_incomplete_family():
    from datasets import Dataset

    ds = Dataset.from_dict({"family_id": ["x-0000"] * 2, "role": ["original", "variant"],
                            "variant_seed": [-1, 0], "scale": [1.0, 1.0], "answer": ["a", "b"]})
    with pytest.raises(ValueError, match="incomplete"):
        FamiliesDataset().verify({"all": {"test": ds}})


def test_card_explains_roles_regimes_reasoning_and_metrics(release):
    card = (release / "README.md").read_text()
    for needle in ("## Roles", "## Source templates and regimes", "## Reasoning types", "## Metrics",
                   "CVA", "RVC", "stale", "Chartographer", EXAMPLE_IMAGE, "bibtex"):
        assert needle in card, needle
    for name in FAMILY_SOURCES.names():
        assert f"| `{name}` |" in card, name
    # The grid the card links to ships inside the release folder.
    assert Image.open(release / EXAMPLE_IMAGE).size == (4 * 320, 3 * (240 + 18))


def test_card_grid_shows_one_family_as_3_by_4(release):
    ds = load_dataset(str(release), "all", split="test")
    png = FamiliesDataset().card_files({"all": {"test": ds}})[EXAMPLE_IMAGE]
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and img.size == (4 * 320, 3 * (240 + 18))
