"""Tasks only lm-eval's table scores (transfer tasks, ``*_paper`` tasks) in score, report and training."""

from __future__ import annotations

import json

from chartprobe.eval_tasks.report.markdown import markdown_table
from chartprobe.eval_tasks.rescoring.lm_eval_tables import lm_eval_only, lm_eval_section, metric_label
from chartprobe.training.compare import compare, format_comparison
from chartprobe.training.profile_sources import load_profile

RESULTS = {"results": {
    "chartqa": {"alias": "chartqa", "relaxed_accuracy,none": 0.5, "relaxed_accuracy_stderr,none": 0.02,
                "anywhere_accuracy,none": 0.6},
    "gsm8k": {"exact_match,flexible-extract": 0.3, "exact_match,strict-match": float("nan")},
    "chartprobe_judge_crj_repro_paper": {"precision,none": 0.51},
    "chartprobe_probes_bar_perception": {"accuracy,none": 0.9},  # rescored by chartprobe: not carried
    "chartprobe_probes_bar": {"accuracy,none": 0.9},  # one of our tags
    "chartprobe": {"accuracy,none": 0.8},  # our umbrella group
}}


def test_labels_drop_stderr_and_keep_a_non_default_filter():
    assert metric_label("relaxed_accuracy,none") == "relaxed_accuracy"
    assert metric_label("exact_match,flexible-extract") == "exact_match (flexible-extract)"
    assert metric_label("relaxed_accuracy_stderr,none") is None and metric_label("alias") is None


def test_only_tasks_chartprobe_does_not_rescore_are_carried():
    assert lm_eval_only(RESULTS) == {
        "chartqa": {"relaxed_accuracy": 0.5, "anywhere_accuracy": 0.6},
        "chartprobe_judge_crj_repro_paper": {"precision": 0.51},
        "gsm8k": {"exact_match (flexible-extract)": 0.3}}


def test_report_section_has_a_column_per_model():
    lines = lm_eval_section({"m1": {"chartqa": {"relaxed_accuracy": 0.5}}, "m2": {}}, markdown_table)
    assert "| task | metric | m1 |" in "\n".join(lines)
    assert lm_eval_section({"m1": {}}, markdown_table) == []


def _run_folder(path, chartqa: float):
    (path / "model").mkdir(parents=True)
    doc = {"results": {"chartprobe_probes_bar_perception": {"accuracy,none": 0.5},
                       "chartqa": {"relaxed_accuracy,none": chartqa}},
           "n-samples": {"chartprobe_probes_bar_perception": {"effective": 4}}, "config": {"model_args": "pretrained=x"}}
    (path / "model" / "results_2026-12-02T10-00-00.json").write_text(json.dumps(doc))
    return path


def test_training_comparison_shows_the_transfer_task_base_vs_tuned(tmp_path):
    base = load_profile(_run_folder(tmp_path / "base", 0.40))
    tuned = load_profile(_run_folder(tmp_path / "tuned", 0.45))
    cmp = compare(base, tuned)
    assert cmp["transfer"]["chartqa"]["relaxed_accuracy"]["delta"] == 0.45 - 0.40
    assert "| chartqa relaxed_accuracy (lm-eval) | 40.0 | 45.0 | +5.0 |" in format_comparison(cmp)
