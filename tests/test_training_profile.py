"""Capability profiles, prompt format and training config (training/profile.py, format.py, config.py).

Pure tests: no torch, no model. The lm-eval side of profiles (a real ``--output_path``
folder) is exercised in tests/test_training_sft.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from chartprobe.eval_tasks.harness.runner import tasks_path
from chartprobe.training.compare import compare, format_comparison
from chartprobe.training.config import ConfigError, TrainConfig, field_docs, parse_config, to_dict
from chartprobe.training.format import INSTRUCTION, prompt_text, to_prompt_completion
from chartprobe.training.profile import (
    SCHEMA,
    ProfileError,
    benchmark_profile,
    region_accuracy,
    region_cells,
    wilson,
)
from chartprobe.training.profile_sources import load_profile, profile_from_lm_eval
from chartprobe.training.regions import get_region_set, region_sets
from chartprobe.training.select import SelectionError


def _doc(i: int, skill: str, answer: str = "3", held_out: bool = False, domain: str = "bar") -> dict:
    return {"id": f"d{i}", "chart_id": f"c{i}", "template_id": f"{skill[0].upper()}-T{i % 2}", "skill": skill,
            "answer": answer, "answer_type": "text" if held_out else "integer", "domain": domain,
            "chart_kind": domain, "held_out": held_out}


SAMPLES = [(_doc(0, "perception"), "3"), (_doc(1, "perception"), "4"), (_doc(2, "grounding"), "3"),
           (_doc(3, "grounding"), "3"), (_doc(4, "reasoning", domain="pie"), ""),
           (_doc(5, "complex", answer="Canada", held_out=True), "Canada")]


def _probes_profile(samples=SAMPLES, model="m") -> dict:
    rs = get_region_set("probes")
    section = benchmark_profile("probes", [rs.score(d, p) for d, p in samples], splits={"test": len(samples)})
    return {"schema": SCHEMA, "model": model, "benchmarks": {"probes": section}, "lm_eval_tasks": {}}


def test_wilson_interval_is_honest_at_the_edges():
    low, high = wilson(0, 36)
    assert low == 0.0 and 0.08 < high < 0.11
    low, high = wilson(18, 36)
    assert low < 0.5 < high and high - low < 0.35
    assert wilson(0, 0) == (0.0, 1.0)


def test_profile_fills_every_region_with_an_interval_and_keeps_cr_apart():
    p = _probes_profile()
    sec = p["benchmarks"]["probes"]
    assert sec["mean"]["n"] == 5 and sec["mean"]["correct"] == 3
    perception = sec["regions"]["skill"]["perception"]
    assert (perception["accuracy"], perception["n"], perception["correct"]) == (0.5, 2, 1)
    assert perception["ci_low"] < 0.5 < perception["ci_high"]
    assert sec["regions"]["domain"]["pie"]["accuracy"] == 0.0
    assert sec["regions"]["domain_skill"]["bar/grounding"]["accuracy"] == 1.0
    assert set(sec["regions"]["template_id"]) == {"P-T0", "P-T1", "G-T0", "G-T1", "R-T0"}
    assert "complex" not in sec["regions"]["skill"]
    assert sec["complex"]["bar"]["fuzzy"] == 1.0 and sec["complex"]["bar"]["n"] == 1
    assert sec["parse_failure_rate"] == pytest.approx(1 / 6)
    assert region_accuracy(p, "skill")["perception"] == 0.5


@pytest.mark.parametrize("name", sorted(region_sets()))
def test_every_region_set_names_its_release_dimensions_and_prompt(name):
    rs = region_sets()[name]
    dims = rs.dimensions()
    assert rs.default_dimension in dims and rs.table_dimension in dims
    assert all(d in dims for d in rs.compare_dims)
    assert "Where is it?" in rs.prompt({"question": "Where is it?"})
    with pytest.raises(KeyError, match="--region nope"):
        rs.dimension("nope")


def test_legend_capabilities_put_abstention_rows_apart():
    rs = get_region_set("legend")
    key = rs.dimension("capability").key
    assert key({"capability": "bind", "expected": "abstain"}) == "abstention"
    assert key({"capability": "guide_read", "chain_role": "locate"}) == "bind"
    assert key({"capability": "value_extraction", "expected": "base"}) == "value_extraction"
    assert rs.dimension("capability_channel").key({"capability": "bind", "channels": ["marker", "color"]}) == \
        "bind/color+marker"


def _write_lm_eval_folder(root: Path, stamp: str, predictions: dict[int, str], extra: dict | None = None) -> Path:
    run = root / "org__model"
    run.mkdir(parents=True, exist_ok=True)
    results = {"results": {"chartprobe_probes_bar_perception": {"accuracy,none": 0.5},
                           "chartprobe_judge_cpa": {"accuracy,none": 0.5}, **(extra or {})},
               "n-samples": {"chartprobe_probes_bar_perception": {"effective": 2}},
               "config": {"model_args": "pretrained=org/model"}}
    (run / f"results_{stamp}.json").write_text(json.dumps(results))
    lines = [json.dumps({"doc": doc, "filtered_resps": [predictions.get(i, pred)]}) for i, (doc, pred)
             in enumerate(SAMPLES)]
    (run / f"samples_chartprobe_probes_bar_perception_{stamp}.jsonl").write_text("\n".join(lines))
    (run / f"samples_chartprobe_judge_cpa_{stamp}.jsonl").write_text(json.dumps({"doc": {"id": "j"}}))
    return root


def test_profile_from_an_lm_eval_folder_uses_the_newest_run_and_says_what_it_skipped(tmp_path):
    _write_lm_eval_folder(tmp_path, "2026-01-01T00-00-00.1", {0: "9"})
    _write_lm_eval_folder(tmp_path, "2026-02-01T00-00-00.1", {}, {"chartqa": {"relaxed_accuracy,none": 0.25}})
    p = profile_from_lm_eval(tmp_path)
    assert p["schema"] == SCHEMA and p["model"] == "pretrained=org/model"
    sec = p["benchmarks"]["probes"]
    assert sec["regions"]["skill"]["perception"]["accuracy"] == 0.5  # the newer run: "3" is right
    assert sec["splits"] == {"test": 6} and sec["tasks"] == ["chartprobe_probes_bar_perception"]
    assert "no capability regions" in p["skipped_tasks"]["chartprobe_judge_cpa"]
    assert p["lm_eval_tasks"] == {"chartqa": {"relaxed_accuracy": 0.25}}
    assert load_profile(tmp_path) == p


def test_profile_from_results_json_alone_and_from_profile_file(tmp_path):
    results = {"results": {"chartprobe_probes_bar_perception": {"accuracy,none": 0.2},
                           "chartprobe_probes_pie_perception": {"accuracy,none": 0.6},
                           "chartprobe_probes_bar_grounding": {"accuracy,none": 0.9},
                           "chartprobe_cr_bar": {"fuzzy,none": 0.4, "accuracy,none": 0.1}},
               "n-samples": {"chartprobe_probes_bar_perception": {"effective": 30},
                             "chartprobe_probes_pie_perception": {"effective": 10},
                             "chartprobe_probes_bar_grounding": {"effective": 10}}}
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results))
    p = load_profile(path)
    cells = region_cells(p, "probes", "skill")
    assert cells["perception"]["accuracy"] == pytest.approx(0.3) and cells["perception"]["n"] == 40
    assert region_cells(p, "probes", "domain")["pie"]["accuracy"] == 0.6
    assert p["benchmarks"]["probes"]["complex"]["bar"]["fuzzy"] == 0.4
    saved = tmp_path / "profile.json"
    saved.write_text(json.dumps(p))
    assert load_profile(saved)["benchmarks"] == p["benchmarks"]


def test_a_v1_profile_is_read_with_intervals(tmp_path):
    v1 = {"schema": "chartprobe-profile/v1", "model": "m", "regions": {"skill": {
        "perception": {"accuracy": 0.1, "n": 10}, "grounding": {"accuracy": 0.9, "n": 10},
        "complex": {"accuracy": 0.0, "n": 9}}}}
    (tmp_path / "v1.json").write_text(json.dumps(v1))
    p = load_profile(tmp_path / "v1.json")
    cells = region_cells(p, "probes", "skill")
    assert set(cells) == {"perception", "grounding"} and cells["perception"]["correct"] == 1
    assert p["benchmarks"]["probes"]["mean"]["accuracy"] == 0.5


@pytest.mark.parametrize("bad,match", [({"regions": {}}, "schema"),
                                       ({"schema": SCHEMA, "benchmarks": {}}, "benchmarks"),
                                       ({"schema": SCHEMA, "benchmarks": {"probes": {"regions": {}}}}, "regions"),
                                       ({"schema": SCHEMA, "benchmarks": {"probes": {"regions": {
                                           "skill": {"p": {"accuracy": 2}}}}}}, r"\[0, 1\]")])
def test_invalid_profiles_fail_clearly(tmp_path, bad, match):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(ProfileError, match=match):
        load_profile(path)
    with pytest.raises(ProfileError, match="no such"):
        load_profile(tmp_path / "missing.json")
    (tmp_path / "junk.json").write_text("{not json")
    with pytest.raises(ProfileError, match="not JSON"):
        load_profile(tmp_path / "junk.json")


def test_a_profile_without_the_benchmark_names_what_it_has():
    with pytest.raises(ProfileError, match="no legend rows .* probes"):
        region_cells(_probes_profile(), "legend", "capability")


def test_compare_and_table():
    base = _probes_profile(model="base")
    tuned = _probes_profile([(d, d["answer"]) for d, _ in SAMPLES], model="tuned")
    cmp = compare(base, tuned)
    assert cmp["regions"]["skill"]["perception"] == {"base": 0.5, "tuned": 1.0, "delta": 0.5}
    assert cmp["complex"]["bar"]["delta"] == 0.0
    table = format_comparison(cmp)
    assert "| skill=perception | 50.0 | 100.0 | +50.0 |" in table
    assert "CR bar (fuzzy)" in table


def test_training_prompt_is_the_lm_eval_task_prompt_without_the_placeholder():
    task = yaml.safe_load((Path(tasks_path()) / "_probes_yaml").read_text().replace("!function", ""))
    assert task["doc_to_text"] == "{{image_token}}{{question}}" + INSTRUCTION
    row = {"question": "How many bars?", "answer": 4}
    pc = to_prompt_completion(row)
    assert pc["prompt"] == [{"role": "user", "content": prompt_text("How many bars?")}]
    assert pc["completion"] == [{"role": "assistant", "content": "4"}]  # the answer only


def test_config_flags_yaml_precedence_and_docs(tmp_path):
    docs = field_docs()
    assert set(docs) == set(to_dict(TrainConfig()))  # every field is documented (and so has --help)
    cfg_file = tmp_path / "run.yaml"
    cfg_file.write_text(yaml.safe_dump({"model": "m", "skills": "P", "learning_rate": 2e-4, "domains": "bar,pie"}))
    cfg = parse_config(["--config", str(cfg_file), "--skills", "P+G", "--max-steps", "3"])
    assert (cfg.skills, cfg.learning_rate, cfg.max_steps, cfg.domains) == ("P+G", 2e-4, 3, ["bar", "pie"])
    defaults = TrainConfig()
    assert (defaults.lora_r, defaults.lora_alpha, defaults.epochs, defaults.learning_rate, defaults.seed) == \
        (32, 64, 1.0, 1e-4, 42)
    assert defaults.per_device_batch_size * defaults.grad_accum == 8  # the paper's effective batch
    cfg_file.write_text(yaml.safe_dump({"model": "m", "learning_rat": 1}))
    with pytest.raises(ConfigError, match="learning_rat"):
        parse_config(["--config", str(cfg_file)])
    with pytest.raises(ConfigError, match="--model"):
        parse_config([])
    with pytest.raises(ConfigError, match="--profile"):
        parse_config(["--model", "m", "--select", "bottleneck"])
    with pytest.raises(SelectionError):
        parse_config(["--model", "m", "--skills", "P+CR"])


def test_study_tables_average_seeds_and_cross_the_benchmark_s_dimension():
    from chartprobe.training.study import format_study, parse_seeds, study_tables

    rs = get_region_set("legend")

    def profile(acc: float) -> dict:
        rows = [{"id": f"r{i}", "capability": cap, "chart_kind": kind, "expected": "base",
                 "correct": (i % 10) < acc * 10}
                for i, (cap, kind) in enumerate([("bind", "line"), ("value_extraction", "pie")] * 10)]
        return {"benchmarks": {"legend": benchmark_profile("legend", rows, {"test": len(rows)})},
                "lm_eval_tasks": {"chartqa": {"relaxed_accuracy": acc / 2}}}

    tables = study_tables({"base": [profile(0.2)], "random": [profile(0.4), profile(0.6)],
                           "bottleneck": [profile(0.6), profile(0.8), profile(1.0)]}, rs)
    bott = tables["capability"]["all rows"]["bottleneck"]
    assert bott["n_seeds"] == 3 and bott["mean"] == pytest.approx(0.8) and bott["sd"] == pytest.approx(0.2)
    assert tables["capability"]["chartqa relaxed_accuracy (lm-eval)"]["random"]["mean"] == pytest.approx(0.25)
    assert tables["crossed_dimension"] == "capability_chart_family"
    assert set(tables["crossed"]["random"]) == {"bind/line", "value_extraction/pie"}
    md = format_study({"benchmark": "legend", "seeds": [42, 43, 44], "budget": 40, "tasks": "chartprobe_legend",
                       "profile_splits": {"validation": 20}, "tables": tables})
    assert "| all rows | 20.0 | 50.0 ± 14.1 | 80.0 ± 20.0 |" in md
    assert "## Bottleneck FT: capability x chart family" in md
    assert parse_seeds("42,43,44") == [42, 43, 44]
    for bad in ("", "4x", "42,42", "-1"):
        with pytest.raises(ConfigError, match="--seeds"):
            parse_seeds(bad)


def test_report_adds_the_study_tables(tmp_path):
    from chartprobe.eval_tasks.report.study import STUDY_FORMAT
    from chartprobe.training.study import study_tables

    from chartprobe.cli import main

    rs = get_region_set("probes")
    prof = _probes_profile()
    study = {"format": STUDY_FORMAT, "benchmark": "probes", "seeds": [42, 43], "budget": 8,
             "tasks": "chartprobe_probes_bar", "profile_splits": {"validation": 6},
             "tables": study_tables({"base": [prof], "random": [prof, prof], "bottleneck": [prof, prof]}, rs)}
    (tmp_path / "study.json").write_text(json.dumps(study))
    (tmp_path / "empty.json").write_text(json.dumps({"format": "chartprobe-results/1", "models": {}}))
    assert main(["report", str(tmp_path / "empty.json"), "--study", str(tmp_path / "study.json"),
                 "--out", str(tmp_path / "report")]) == 0
    md = (tmp_path / "report" / "report.md").read_text()
    assert "## Fine-tuning study: probes, budget 8 rows, seeds 42, 43" in md
    assert "### Bottleneck FT: domain x skill" in md and "| skill=perception | 50.0 | 50.0 ± 0.0 |" in md
    (tmp_path / "bad.json").write_text("{}")
    assert main(["report", str(tmp_path / "empty.json"), "--study", str(tmp_path / "bad.json"),
                 "--out", str(tmp_path / "r2")]) == 2
    assert not (tmp_path / "r2").exists()


def test_a_task_whose_samples_cannot_be_scored_is_skipped_whole(tmp_path):
    _write_lm_eval_folder(tmp_path, "2026-02-01T00-00-00.1", {})
    run = tmp_path / "org__model"
    broken = [json.dumps({"doc": _doc(7, "perception"), "filtered_resps": ["3"]}),
              json.dumps({"doc": {"id": "no-columns"}, "filtered_resps": ["3"]})]
    (run / "samples_chartprobe_probes_pie_perception_2026-02-01T00-00-00.1.jsonl").write_text("\n".join(broken))
    p = profile_from_lm_eval(tmp_path)
    assert "cannot be scored" in p["skipped_tasks"]["chartprobe_probes_pie_perception"]
    assert p["benchmarks"]["probes"]["tasks"] == ["chartprobe_probes_bar_perception"]
    assert p["benchmarks"]["probes"]["mean"]["n"] == 5  # the good row of the broken task is not counted either


def test_a_region_set_must_implement_the_contract():
    from chartprobe.training.regions import RegionSet

    class Half(RegionSet):  # dimensions, score, prompt and validation_tasks missing
        pass

    with pytest.raises(TypeError, match="abstract"):
        Half()
