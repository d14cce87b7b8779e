"""Cards the Hub reads right (issue 21 part 3): dataset cards through ``DatasetCardData`` with the Hub's
``size_categories``/``language`` vocabularies, checked offline as ``datasets`` parses them; judge images
first in the viewer; the adapter's card through ``ModelCard`` with the closed loop's results."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from chartprobe.dataset_builders.release.card_meta import CardError, check_card, size_category
from chartprobe.dataset_builders.release.dataset import DATASETS


@pytest.mark.parametrize("name", DATASETS.names())
def test_every_release_card_validates_and_declares_its_size(release_root, name):
    release = release_root / f"chartprobe-{name}"
    card = check_card((release / "README.md").read_text(encoding="utf-8"))
    data = card.data
    rows = sum(s["num_examples"] for info in data.dataset_info for s in info["splits"])
    assert data.size_categories == [size_category(rows)]
    assert data.language == ["en"] and data.pretty_name and data.task_categories
    assert data.chartprobe["dataset"] == name  # our provenance block survives the Hub's card class
    assert "synthetic" in data.tags


@pytest.mark.parametrize(("rows", "bucket"), [(0, "n<1K"), (999, "n<1K"), (1000, "1K<n<10K"),
                                              (26_689, "10K<n<100K"), (2_000_000, "1M<n<10M")])
def test_size_category_buckets(rows, bucket):
    assert size_category(rows) == bucket


def _mutated(release_root, old: str, new: str) -> str:
    # the smoke release stays under 1,000 rows whatever configs the probes preset gains
    name = "smoke" if old.startswith("- n<1K") else "probes"
    text = (release_root / f"chartprobe-{name}" / "README.md").read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(("old", "new", "message"), [
    ("- n<1K\n", "- tiny\n", "'tiny' is not a Hub size category"),
    ("- n<1K\n", "- 1K<n<10K\n", "but dataset_info declares"),
    ("language:\n- en\n", "language:\n- english\n", "'english' is not a Hub language code"),
    ("language:\n- en\n", "", "no language"),
    ("  default: true\n", "", "0 default configs"),
])
def test_a_card_the_hub_would_misread_is_refused(release_root, old, new, message):
    with pytest.raises(CardError, match=re.escape(message)):
        check_card(_mutated(release_root, old, new))


def test_judge_images_come_right_after_the_id(release_root):
    """In the parquet files and in the card's features, which the Hub's viewer shows in order."""
    import pyarrow.parquet as pq
    from chartprobe.dataset_builders.release.card import read_card_metadata

    release = release_root / "chartprobe-judge"
    infos = {i["config_name"]: [f["name"] for f in i["features"]] for i in read_card_metadata(release)["dataset_info"]}
    for config, images in {"cpa": ["image_better", "image_worse"],
                           "crj_reproduction": ["image_reference", "image_candidate"],
                           "crj_editing": ["image_reference", "image_candidate"]}.items():
        for part in sorted((release / config).glob("*.parquet")):
            assert pq.read_schema(part).names[:3] == ["id", *images], part
        assert infos[config][:3] == ["id", *images], infos[config]


def test_citations_name_their_source_and_invent_no_author():
    for name in DATASETS.names():
        citation = DATASETS.get(name).citation
        if citation:
            assert "title" in citation and "year" in citation and "author" in citation, name
    assert "LegendBench authors" not in DATASETS.get("legend").citation  # the old placeholder


def _cfg() -> SimpleNamespace:
    return SimpleNamespace(model="tiny/vlm", data=None, skills="P+G", select="atomic", lora_r=8, lora_alpha=16,
                           lora_targets=["q_proj", "v_proj"], epochs=1, max_steps=0, learning_rate=1e-4,
                           per_device_batch_size=2, grad_accum=1, seed=0, domains=["bar", "pie"])


def test_the_adapter_card_is_a_model_card_and_gains_the_loop_results():
    from chartprobe.training.card import PROBES_DATASET, card_with_results, model_card
    from huggingface_hub import ModelCard

    selection = {"train": SimpleNamespace(ids=["a", "b"], counts={"perception": 2}, mode="atomic"),
                 "validation": SimpleNamespace(ids=["c"])}
    text = model_card(_cfg(), selection, {"train_losses": [1.0, 0.5], "train_loss": 0.75, "steps": 2})
    card = ModelCard(text)
    assert card.data.base_model == "tiny/vlm" and card.data.datasets == [PROBES_DATASET]
    assert card.data.library_name == "peft" and not card.data.eval_results

    cmp = {"base": "tiny/vlm", "tuned": "tiny/vlm+lora", "tasks": "chartprobe_probes_bar", "limit": 4,
           "regions": {"skill": {"perception": {"base": 0.25, "tuned": 0.5, "delta": 0.25}},
                       "domain": {"bar": {"base": 0.3, "tuned": 0.4, "delta": 0.1}}},
           "complex": {"bar": {"base": 0.1, "tuned": 0.2, "delta": 0.1}}}
    done = ModelCard(card_with_results(text, cmp, "adapter"))
    results = {(r.metric_name, r.dataset_config): r.metric_value for r in done.data.eval_results}
    assert results == {("accuracy (skill=perception)", None): 0.5, ("accuracy (domain=bar)", "bar"): 0.4,
                       ("complex reasoning fuzzy (bar)", "cr_bar"): 0.2}
    assert done.data.model_name == "adapter" and done.data.base_model == "tiny/vlm"
    assert "## Closed-loop results" in done.text and "| skill=perception | 25.0 | 50.0 | +25.0 |" in done.text
    assert "# LoRA adapter" in done.text  # the body is kept


@pytest.mark.parametrize(("name", "config", "column"), [("probes", "bar", "template_id"), ("probes", "bar", "skill"),
                                                        ("judge", "cpa", "criterion")])
def test_categorical_columns_are_class_labels_that_stratify(release_root, name, config, column):
    from datasets import ClassLabel, load_dataset

    ds = load_dataset(str(release_root / f"chartprobe-{name}"), config, split="test",
                      download_mode="force_redownload")  # not a cached copy from before the change
    assert isinstance(ds.features[column], ClassLabel)
    counts = {}
    for value in ds[column]:
        counts[value] = counts.get(value, 0) + 1
    keep = [i for i, v in enumerate(ds[column]) if counts[v] >= 2]  # stratifying needs 2+ per class
    parts = ds.select(keep).train_test_split(test_size=0.5, stratify_by_column=column, seed=0)
    assert set(parts["train"][column]) == set(parts["test"][column])


def test_chartprobe_reads_class_labels_as_names(release_root, monkeypatch):
    from chartprobe.dataset_builders.probes.templates import TEMPLATES
    from chartprobe.eval_tasks.rescoring.data import load_release
    from chartprobe.eval_tasks.rescoring.predictions import load_release_rows

    rows = load_release_rows(release_root / "chartprobe-probes", only={("bar", "test")})[("bar", "test")]
    assert {r["skill"] for r in rows} <= {"perception", "grounding", "reasoning"}
    assert all(r["template_id"] in TEMPLATES.names() for r in rows)
    monkeypatch.setenv("CHARTPROBE_DATA", str(release_root))
    docs = load_release("probes", "bar", {"skill": "perception"})["test"]
    assert len(docs) and set(docs["skill"]) == {"perception"} and docs[0]["template_id"].startswith("P-")
    cpa = load_release("judge", "cpa")["test"]
    assert set(cpa["criterion"]) <= {"aspect_ratio", "axis_scaling", "color_consistency", "component_positioning",
                                     "data_encoding", "text_occlusion", "visual_style"}
