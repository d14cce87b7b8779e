"""chartprobe-probes: configs, oracle through the real scorer, disjointness, card, no CR in training."""

from __future__ import annotations

import json

import pytest
from chartprobe.dataset_builders.core.programs import Program, answer_of
from chartprobe.dataset_builders.probes.builder import ProbesDataset, config_domain
from chartprobe.dataset_builders.probes.domains import PROBE_DOMAINS
from chartprobe.dataset_builders.probes.templates import TEMPLATES
from chartprobe.dataset_builders.release.card import read_card_metadata
from chartprobe.dataset_builders.release.labels import as_text
from chartprobe.eval_tasks.metrics.probes import per_skill_accuracy, score_record
from datasets import load_dataset

CONFIGS = ["bar", "hbar", "pie", "shapes", "cr_bar", "cr_pie", "cr_shapes",
           "cr_ood_bar", "cr_ood_pie", "cr_ood_shapes", "style_shift_bar", "style_shift_hbar", "style_shift_pie",
           "real_bar", "real_hbar", "real_pie"]


def _splits(config):
    return ["test"] if config.startswith(("cr_", "style_shift_", "real_")) else ["train", "validation", "test"]


@pytest.fixture(scope="module")
def rows(probes_release):
    out = {}
    for config in CONFIGS:
        for split in _splits(config):
            ds = as_text(load_dataset(str(probes_release), config, split=split))  # names, as chartprobe reads
            out[(config, split)] = ds.remove_columns(["image"]).to_list()
    return out


def test_every_config_loads(probes_release):
    meta = read_card_metadata(probes_release)
    assert sorted(c["config_name"] for c in meta["configs"]) == sorted(CONFIGS)
    ds = load_dataset(str(probes_release), "pie", split="test")
    assert len(ds) > 0 and ds[0]["image"].mode == "RGB"
    assert set(ds["chart_kind"]) == {"pie"}


def _oracle_answer(row: dict) -> str:
    """Answer from the spec alone: re-render (for boxes) and re-run the recorded program."""
    domain = PROBE_DOMAINS[row["domain"]]
    spec = domain.spec_from_json(row["spec"])
    boxes = domain.render(spec).boxes if row["answer_type"] == "bbox" else {}
    return answer_of(Program.from_json(row["program"]), domain.view(spec, boxes), row["answer_type"])


@pytest.mark.parametrize("config", CONFIGS)
def test_oracle_scores_100_percent_through_the_real_scorer(rows, config):
    for split in _splits(config):
        records = [score_record(r, _oracle_answer(r)) for r in rows[(config, split)]]
        assert records, f"{config}/{split} is empty"
        assert all(r["accuracy"] == 1.0 and not r["parse_failed"] for r in records), config
        assert set(per_skill_accuracy(records).values()) == {1.0}


def test_every_probe_chart_gets_three_probes_per_skill(rows):
    value_free = {"P-COLOR-DISTINCT", "P-COUNT-BARS"}  # what printed values cannot decide
    for config in ["bar", "hbar", "pie", "shapes"]:
        for split in _splits(config):
            per_chart: dict[str, list[str]] = {}
            perception: dict[str, set[str]] = {}
            labelled: dict[str, bool] = {}
            trend: set[str] = set()
            for r in rows[(config, split)]:
                per_chart.setdefault(r["chart_id"], []).append(r["skill"])
                if r["skill"] == "perception":
                    perception.setdefault(r["chart_id"], set()).add(r["template_id"])
                labelled[r["chart_id"]] = bool((json.loads(r["spec"]).get("style") or {}).get("value_labels"))
                if r["template_id"] == "P-TREND-PATTERN":
                    trend.add(r["chart_id"])
            for chart, skills in per_chart.items():
                want = ["perception", "grounding", "reasoning"]
                if labelled[chart]:
                    # A chart that prints its values is asked only the perception it cannot give away.
                    assert perception.get(chart) and perception[chart] <= value_free, chart
                    assert sorted(s for s in skills if s != "perception") == sorted(want[1:] * 3), chart
                elif chart in trend:  # a sorted trend chart drops the probes its order alone decides
                    assert set(skills) <= set(want) and all(skills.count(s) <= 3 for s in want), chart
                else:
                    assert sorted(skills) == sorted(want * 3), chart


def test_no_complex_reasoning_item_in_any_probe_split(rows):
    for (config, split), items in rows.items():
        held = {r["held_out"] for r in items}
        assert held == ({True} if config.startswith("cr_") else {False}), (config, split)
        if config.startswith("cr_"):
            assert {r["skill"] for r in items} == {"complex"}


def test_charts_are_disjoint_across_splits_and_cr_sets(rows):
    seen_ids, seen_tables = {}, {}
    for (config, split), items in rows.items():
        domain, _ = config_domain(config)
        for r in items:
            assert seen_ids.setdefault(r["chart_id"], (config, split)) == (config, split)
            spec = json.loads(r["spec"])
            table = json.dumps(spec.get("data", spec.get("objects")), sort_keys=True)
            assert seen_tables.setdefault((domain, table), (config, split)) == (config, split)


def test_verify_rejects_a_repeated_data_table():
    from datasets import Dataset

    spec = json.dumps({"data": {"categories": ["A"], "series": []}})
    a = Dataset.from_dict({"chart_id": ["bar-train-0"], "spec": [spec]})
    b = Dataset.from_dict({"chart_id": ["bar-test-0"], "spec": [spec]})
    with pytest.raises(ValueError, match="repeats a data table"):
        ProbesDataset().verify({"bar": {"train": a, "test": b}})


def test_tiers_cover_the_paper_ranges(rows):
    tiers = {"simple": (3, 5), "medium": (6, 10), "complex": (11, 24)}
    for r in rows[("bar", "train")]:
        lo, hi = tiers[r["tier"]]
        assert lo <= r["n_marks"] <= hi
    assert {r["tier"] for r in rows[("bar", "train")]} == set(tiers)


def test_card_lists_every_template_and_cites_the_paper(probes_release):
    card = (probes_release / "README.md").read_text()
    assert "ChartProbe: A Diagnostic Study on Visual Reasoning" in card and "bibtex" in card
    for name, cls in TEMPLATES.items():
        line = next((ln for ln in card.splitlines() if ln.startswith(f"| `{name}` |")), None)
        assert line is not None, f"{name} missing from the card"
        assert f"| {cls.answer_type} |" in line and "(no applicable chart)" not in line, line


def test_bbox_rows_carry_target_boxes(rows):
    bbox_rows = [r for items in rows.values() for r in items if r["answer_type"] == "bbox"]
    assert bbox_rows
    for r in bbox_rows:
        assert r["target_bbox"] == pytest.approx(json.loads(r["answer"]), abs=1e-4)
        assert all(0.0 <= v <= 1.0 for v in r["target_bbox"])
    assert all(r["target_bbox"] is None for items in rows.values() for r in items if r["answer_type"] != "bbox")


# Closed answer sets: a majority class above 1.5x uniform would let a model pass by guessing.
CLOSED_ANSWERS = {"P-HEIGHT-2X": 2, "P-HEIGHT-COMPARE": 2, "P-TREND-PATTERN": 3,
                  "S-R-MORE-THAN": 2, "S-R-SAME-ATTR": 2, "S-CR-EQUAL-COUNTS": 2}


@pytest.mark.parametrize("template_id,n_classes", sorted(CLOSED_ANSWERS.items()))
def test_closed_answer_templates_are_balanced(template_id, n_classes):
    from collections import Counter

    from chartprobe.dataset_builders.core.rng import rng_for
    from chartprobe.dataset_builders.probes.domains import TIERS
    from chartprobe.dataset_builders.probes.orders import ORDER_REGIMES

    tpl = TEMPLATES.get(template_id)()
    domains = ["shapes"] if tpl.domain == "shapes" else ["bar", "hbar", "pie"]
    answers = Counter()
    for d in domains:
        domain = PROBE_DOMAINS[d]
        for i in range(240 // len(domains)):
            # A trend probe is only asked on trend charts, whose orders cycle through the regimes.
            order = ORDER_REGIMES[i % len(ORDER_REGIMES)] if tpl.needs_trend else "shuffled"
            spec = domain.sample(rng_for(11, d, i), TIERS[i % 3], order)
            q = tpl.instantiate(domain.view(spec, {}), rng_for(11, d, i, template_id))
            if q is not None:
                answers[q.answer] += 1
    assert len(answers) == n_classes, answers
    share = max(answers.values()) / sum(answers.values())
    assert share <= 1.5 / n_classes, (template_id, answers)


def test_splits_live_in_disjoint_hash_classes_of_their_data_table(rows):
    """Disjointness holds by construction at any scale: each split samples only data tables in
    its own hash class (CR sets in a fourth), so no table can be shared across splits."""
    from chartprobe.dataset_builders.probes.slots import table_slot

    slots = {"train": 0, "validation": 1, "test": 2}
    splits_of = {config: {s for c, s in rows if c == config} for config, _ in rows}
    for (config, split), items in rows.items():
        if config.startswith("real_") and len(splits_of[config]) == 1:
            continue  # real tables: a one-split config keeps every window (probes/real.py), no split to avoid
        domain = PROBE_DOMAINS[config_domain(config)[0]]
        want = 3 if config.startswith("cr_") else slots[split]
        for spec_json in {r["spec"] for r in items}:
            assert table_slot(domain.spec_from_json(spec_json)) == want, (config, split)
