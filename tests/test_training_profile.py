"""Capability profiles, prompt format and training config (training/profile.py, format.py, config.py).

Pure tests: no torch, no model. The lm-eval side of profiles (a real ``--output_path``
folder) is exercised in tests/test_training_sft.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from chartprobe.eval_tasks.runner import tasks_path
from chartprobe.training.config import ConfigError, TrainConfig, field_docs, parse_config, to_dict
from chartprobe.training.format import INSTRUCTION, prompt_text, to_prompt_completion
from chartprobe.training.profile import (
    SCHEMA,
    ProfileError,
    compare,
    format_comparison,
    load_profile,
    profile_from_lm_eval,
    profile_from_samples,
    region_accuracy,
)
from chartprobe.training.select import SelectionError


def _doc(i: int, skill: str, answer: str = "3", held_out: bool = False, domain: str = "bar") -> dict:
    return {"id": f"d{i}", "chart_id": f"c{i}", "template_id": f"{skill[0].upper()}-T{i % 2}", "skill": skill,
            "answer": answer, "answer_type": "text" if held_out else "integer", "domain": domain,
            "chart_kind": domain, "held_out": held_out}


SAMPLES = [(_doc(0, "perception"), "3"), (_doc(1, "perception"), "4"), (_doc(2, "grounding"), "3"),
           (_doc(3, "grounding"), "3"), (_doc(4, "reasoning", domain="pie"), ""),
           (_doc(5, "complex", answer="Canada", held_out=True), "Canada")]


def test_profile_from_samples_fills_every_region_and_keeps_cr_apart():
    p = profile_from_samples(SAMPLES, model="m", source="s")
    assert p["schema"] == SCHEMA and p["n"] == 5
    assert p["regions"]["skill"] == {"grounding": {"accuracy": 1.0, "n": 2}, "perception": {"accuracy": 0.5, "n": 2},
                                     "reasoning": {"accuracy": 0.0, "n": 1}}
    assert p["regions"]["domain"]["pie"]["accuracy"] == 0.0
    assert set(p["regions"]["template_id"]) == {"P-T0", "P-T1", "G-T0", "G-T1", "R-T0"}
    assert "complex" not in p["regions"]["skill"]
    assert p["complex"]["bar"]["fuzzy"] == 1.0 and p["complex"]["bar"]["n"] == 1
    assert p["parse_failure_rate"] == pytest.approx(1 / 6)
    assert region_accuracy(p, "skill")["perception"] == 0.5


def _write_lm_eval_folder(root: Path, stamp: str, predictions: dict[int, str]) -> Path:
    run = root / "org__model"
    run.mkdir(parents=True, exist_ok=True)
    results = {"results": {"chartprobe_probes_bar_perception": {"accuracy,none": 0.5}},
               "n-samples": {"chartprobe_probes_bar_perception": {"effective": 2}},
               "config": {"model_args": "pretrained=org/model"}}
    (run / f"results_{stamp}.json").write_text(json.dumps(results))
    lines = [json.dumps({"doc": doc, "filtered_resps": [predictions.get(i, pred)]}) for i, (doc, pred)
             in enumerate(SAMPLES)]
    (run / f"samples_chartprobe_probes_mixed_{stamp}.jsonl").write_text("\n".join(lines))
    return root


def test_profile_from_an_lm_eval_folder_uses_the_newest_run(tmp_path):
    _write_lm_eval_folder(tmp_path, "2026-01-01T00-00-00.1", {0: "9"})
    _write_lm_eval_folder(tmp_path, "2026-02-01T00-00-00.1", {})
    p = profile_from_lm_eval(tmp_path)
    assert p["model"] == "pretrained=org/model"
    assert p["regions"]["skill"]["perception"]["accuracy"] == 0.5  # the newer run: "3" is right
    assert load_profile(tmp_path) == p


def test_profile_from_results_json_alone_and_from_profile_file(tmp_path):
    results = {"results": {"chartprobe_probes_bar_perception": {"accuracy,none": 0.2},
                           "chartprobe_probes_pie_perception": {"accuracy,none": 0.6},
                           "chartprobe_probes_bar_grounding": {"accuracy,none": 0.9},
                           "chartprobe_cr_bar": {"fuzzy,none": 0.4, "accuracy,none": 0.1}},
               "n-samples": {"chartprobe_probes_bar_perception": {"effective": 30},
                             "chartprobe_probes_pie_perception": {"effective": 10}}}
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results))
    p = load_profile(path)
    assert p["regions"]["skill"]["perception"] == {"accuracy": pytest.approx(0.3), "n": 40}
    assert p["regions"]["domain"]["pie"]["accuracy"] == 0.6
    assert p["complex"]["bar"]["fuzzy"] == 0.4
    saved = tmp_path / "profile.json"
    saved.write_text(json.dumps(p))
    assert load_profile(saved)["regions"] == p["regions"]


@pytest.mark.parametrize("bad,match", [({"regions": {}}, "schema"),
                                       ({"schema": SCHEMA, "regions": {}}, "regions"),
                                       ({"schema": SCHEMA, "regions": {"skill": {"p": {"accuracy": 2}}}}, r"\[0, 1\]")])
def test_invalid_profiles_fail_clearly(tmp_path, bad, match):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(ProfileError, match=match):
        load_profile(path)
    with pytest.raises(ProfileError, match="no such"):
        load_profile(tmp_path / "missing.json")


def test_compare_and_table():
    base = profile_from_samples(SAMPLES, model="base")
    tuned = profile_from_samples([(d, d["answer"]) for d, _ in SAMPLES], model="tuned")
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
