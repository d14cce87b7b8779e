"""Splits are never pooled (issue 41, point 1): test and validation tasks scored into one samples
folder give headlines of the test split alone in ``score``, ``profile``, ``report`` and ``compare``;
validation shows up only where it is labelled as such."""

from __future__ import annotations

import json

import pytest
from chartprobe.eval_tasks.metrics import legend as lm
from chartprobe.eval_tasks.rescoring.gold import ReleaseGold
from chartprobe.eval_tasks.rescoring.predictions import write_samples
from chartprobe.eval_tasks.rescoring.rescore import write_scored
from chartprobe.eval_tasks.suites import suite_for_release
from chartprobe.eval_tasks.suites._task_index import task_index

STAMP = "2026-01-01T00-00-00.000001"
TEST_TASKS = ("chartprobe_legend", "chartprobe_probes_bar_grounding", "chartprobe_probes_bar_perception",
              "chartprobe_probes_bar_reasoning")
VAL_TASKS = ("chartprobe_legend_val", "chartprobe_probes_val_bar", "chartprobe_probes_val_hbar",
             "chartprobe_probes_val_pie", "chartprobe_probes_val_shapes")


def _answers(docs, right_every):
    """Gold on every ``right_every``-th document, a wrong number elsewhere: the splits differ."""
    return [str(d["answer"]) if i % right_every == 0 else "7" for i, d in enumerate(docs)]


@pytest.fixture(scope="module")
def scored(release_root, tmp_path_factory):
    """Two models' samples (test tasks mixed, validation tasks all right) scored by ``chartprobe score``;
    returns (results path, hand-scored test records per model and suite)."""
    root = tmp_path_factory.mktemp("split_pooling")
    gold, index = ReleaseGold(release_root), task_index()
    by_hand: dict[str, dict[str, list]] = {}
    for model, every in (("model-a", 2), ("model-b", 3)):
        by_hand[model] = {"legend": [], "probes": []}
        for task in TEST_TASKS + VAL_TASKS:
            docs = list(gold.documents(index[task]).values())
            answers = _answers(docs, every) if task in TEST_TASKS else [str(d["answer"]) for d in docs]
            write_samples(root / "samples" / model, task, docs, answers, STAMP)
            if task in TEST_TASKS:  # the test split's records, scored here, not through `score`
                suite = suite_for_release(index[task].release)
                by_hand[model][suite.name] += [{**suite.score(d, a), "task": task} for d, a in zip(docs, answers)]
    out = root / "results.json"
    write_scored([root / "samples"], out, releases=release_root, progress=False)
    return out, by_hand


def _legend_expected(records):
    return suite_for_release("legend").headline(lm.profile(records))


def test_score_headlines_are_the_test_split_alone(scored):
    out, by_hand = scored
    doc = json.loads(out.read_text())
    for model, entry in doc["models"].items():
        legend = suite_for_release("legend")
        got = legend.headline(entry["suites"]["legend"])
        assert got == _legend_expected(by_hand[model]["legend"])
        assert got["QA acc"] < 1.0  # the validation rows (all right) would have raised it
        probes = suite_for_release("probes")
        expected = probes.summarize(by_hand[model]["probes"])
        assert entry["suites"]["probes"]["per_domain_skill"] == expected["per_domain_skill"]
        assert set(entry["suites"]["probes"]["per_domain_skill"]) == {"bar"}  # no val-only domain leaks in
        # validation apart, labelled, never in the headline
        assert entry["suites_by_split"]["legend"]["validation"]["qa_acc"] == 1.0
        assert set(entry["suites_by_split"]["probes"]) == {"validation"}
        assert entry["suite_coverage"]["legend"] == {"test": 1.0, "validation": 1.0}
        assert entry["tasks"]["chartprobe_legend_val"]["split"] == "validation"
        assert entry["tasks"]["chartprobe_legend"]["split"] == "test"


def test_profile_legendbench_block_is_the_test_snapshot_alone(scored):
    from chartprobe.training.profile_sources import profile_from_results_file

    out, by_hand = scored
    prof = profile_from_results_file(out, model="model-a")
    legend = prof["benchmarks"]["legend"]
    hand = lm.profile(by_hand["model-a"]["legend"])
    assert legend["legendbench"]["qa_acc"] == hand["qa_acc"]
    assert legend["legendbench"]["n"] == len(by_hand["model-a"]["legend"])
    assert legend["extra_split"] == "test"
    assert legend["extra_by_split"]["validation"]["legendbench"]["qa_acc"] == 1.0
    assert legend["coverage"] == 1.0


def test_report_and_compare_headlines_are_the_test_split_alone(scored, tmp_path):
    from chartprobe.eval_tasks.report.build import build_report
    from chartprobe.eval_tasks.report.compare import headline_of

    out, by_hand = scored
    report = build_report([out], tmp_path / "report", compare=("model-a", "model-b"))
    md = (tmp_path / "report" / "report.md").read_text()
    for model in ("model-a", "model-b"):
        prof = report["models"][model]["legend"]
        assert prof["split"] == "test"
        assert prof["headline"] == _legend_expected(by_hand[model]["legend"])
        assert prof["other_splits"]["validation"]["qa_acc"] == 1.0
        probes = report["models"][model]["probes"]
        assert probes["summary"]["per_domain_skill"] == \
            suite_for_release("probes").summarize(by_hand[model]["probes"])["per_domain_skill"]
    legend = suite_for_release("legend")
    diff = report["compare"]["suites"]["legend"]["metrics"]
    assert report["compare"]["split"] == "test"
    hand_a = headline_of(legend, by_hand["model-a"]["legend"])
    hand_b = headline_of(legend, by_hand["model-b"]["legend"])
    assert {k: v["a"] for k, v in diff.items()} == hand_a
    assert {k: v["b"] for k, v in diff.items()} == hand_b
    table = md[md.index("## Comparison: legend"):].split("\n\n")[1]
    assert "split" in table.splitlines()[0] and "coverage" in table.splitlines()[0]
    assert all("| test |" in line for line in table.splitlines()[2:])


def test_space_leaderboard_headlines_are_the_test_tasks_alone(scored, tmp_path, monkeypatch, release_root):
    """The Space's leaderboard (``--predictions`` of the results file): by default only test tasks,
    each with the value ``score`` wrote; validation tasks appear only in the all-metrics view, their
    column labelled [validation]."""
    import shutil
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "spaces"))
    monkeypatch.setenv("CHARTPROBE_DATA", str(release_root))
    from chartspace.leaderboard import ALL_METRICS, board, split_of
    from chartspace.preload import preload
    from chartspace.views.leaderboard import board_html

    out, by_hand = scored
    served = tmp_path / "served"
    served.mkdir()
    shutil.copy(out, served / "results.json")
    preds = preload(served, tmp_path)
    assert set(preds.runs) == {"model-a", "model-b"}
    default = board(preds)
    assert set(default.tasks) == set(TEST_TASKS)  # no validation task in the headline view
    doc = json.loads(out.read_text())
    checked = 0
    for task, metric, values in default.rows:
        for model, value in zip(default.models, values):
            if value is not None and metric in doc["models"][model]["tasks"][task]["metrics"]:
                assert value[0] == doc["models"][model]["tasks"][task]["metrics"][metric], (task, metric, model)
                checked += 1
    assert checked >= len(TEST_TASKS) * 2  # every test task's headline, for both models
    legend = next(values for task, metric, values in default.rows if (task, metric) == ("chartprobe_legend", "qa_accuracy"))
    assert [v[0] for v in legend] == [lm.profile(by_hand[m]["legend"])["qa_acc"] for m in default.models]  # by hand
    every = board(preds, metric=ALL_METRICS)
    assert set(VAL_TASKS) <= set(every.tasks) and all(split_of(t) == "validation" for t in VAL_TASKS)
    _, _, html, _ = board_html(preds, None, ALL_METRICS)
    assert "[validation]" in str(html) and "[test]" in str(html)
