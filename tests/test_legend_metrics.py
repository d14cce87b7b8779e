"""LegendBench metrics reproduce the paper's arithmetic (§5.1, §5.2, §6.2, §6.3) on hand-built records,
and the lm-eval wiring (prompt, hooks, task YAMLs) matches the metrics module. No release needed."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import math
from pathlib import Path

import pytest
import yaml
from chartprobe.eval_tasks.harness.runner import tasks_path
from chartprobe.eval_tasks.metrics import legend as lm
from chartprobe.eval_tasks.metrics import legend_studies as ls
from chartprobe.eval_tasks.metrics.names import paper_key, readable
from chartprobe.eval_tasks.suites import suite_for_release
from chartprobe.eval_tasks.suites._base import AgentRun, RunSet
from chartprobe.eval_tasks.suites._task_index import _TaskLoader, task_index

IDK = "I don't know"


def _row(id_, **kw):
    base = {"id": id_, "group_id": id_, "base_id": "b0", "chain_id": "", "chain_role": "", "task_family": "T3",
            "capability": "reason", "template": "t", "intervention": "none", "intervention_family": "none",
            "expected": "base", "answer": "1", "answer_type": "integer", "target": "", "target_legend_index": -1,
            "visual_rank": -1, "study_factor": "", "study_level": ""}
    return {**base, **kw}


def _rec(id_, correct, **kw):
    return {**_row(id_, **kw), "correct": correct, "abstained": False, "parse_failed": False, "prediction": ""}


def _pairs(family, n, both_correct):
    """n base/variant groups of ``family``; the first ``both_correct`` have both rows correct."""
    out = []
    for i in range(n):
        ok = i < both_correct
        out += [_rec(f"{family}{i}", ok),
                _rec(f"{family}{i}v", ok, group_id=f"{family}{i}", intervention_family=family, expected="preserve")]
    return out


# ---------------------------------------------------------------- paper numbers


def test_cr_of_the_paper_consistency_and_responsiveness():
    """§5.2: GPT-5.6-sol, Cons 76.94 and Resp 80.22 -> CR 78.5(5)."""
    assert lm.harmonic_mean(76.94, 80.22) == pytest.approx(78.5, abs=0.1)
    records = _pairs("preserving", 10_000, 7_694) + _pairs("altering", 10_000, 8_022)
    assert lm.consistency(records) == pytest.approx(0.7694)
    assert lm.responsiveness(records) == pytest.approx(0.8022)
    assert 100 * lm.cr(records) == pytest.approx(78.5, abs=0.1)


def test_af1_of_the_paper_mask_full_condition():
    """§6.3 Table 7, Mask_Full: AP 0.94, AR 0.18 -> AF1 0.30; the same from refusal counts."""
    assert lm.harmonic_mean(0.94, 0.18) == pytest.approx(0.30, abs=0.01)
    # 2,350 unanswerable variants, 423 of them refused; 27 refusals on the intact base charts.
    records = []
    for i in range(2_350):
        records.append(_rec(f"g{i}", True))
        records.append({**_rec(f"g{i}m", i < 423, group_id=f"g{i}", intervention="mask_full",
                               intervention_family="answerability", expected="abstain", answer=IDK,
                               answer_type="abstain"), "abstained": i < 423})
    for r in records[:54:2]:
        r.update(abstained=True, correct=False)
    scores = lm.abstention(lm.abstention_scope(records))
    assert (scores["ap"], scores["ar"]) == (pytest.approx(0.94), pytest.approx(0.18))
    assert scores["af1"] == pytest.approx(0.30, abs=0.01)
    assert scores["af1"] == pytest.approx(lm.harmonic_mean(scores["ap"], scores["ar"]))


@pytest.mark.parametrize(("refused", "ap", "ar", "af1"), [
    (set(), 0.0, 0.0, 0.0),                   # never refuses: AP, AR, F1 all 0 (the paper's 0.00)
    ({"b", "m", "k"}, 1 / 3, 1.0, 0.5),       # always refuses
    ({"m"}, 1.0, 1.0, 1.0),                   # refuses exactly where the target evidence is gone
])
def test_abstention_precision_recall_f1(refused, ap, ar, af1):
    records = [_rec("b", True), _rec("m", False, group_id="b", intervention_family="answerability", expected="abstain"),
               _rec("k", True, group_id="b", intervention_family="answerability", expected="preserve"),
               _rec("other", True)]  # a group without answerability variants is out of scope
    for r in records:
        r["abstained"] = r["id"] in refused
    assert lm.abstention(lm.abstention_scope(records)) == {"ap": ap, "ar": ar, "af1": af1,
                                                           "refusals": len(refused), "unanswerable": 1}


# ---------------------------------------------------------------- chains and stages


def _chain_records():
    """Two chains: c1 (parse ok, bind ok, reason ok), c2 (parse ok, locate wrong, value ok, reason ok);
    plus an unchained reason row that is wrong."""
    spec = [("c1", "parse", "guide_read", True), ("c1", "bind", "bind", True), ("c1", "reason", "reason", True),
            ("c2", "parse", "guide_read", True), ("c2", "locate", "bind", False),
            ("c2", "value", "value_extraction", True), ("c2", "reason", "reason", True)]
    out = [_rec(f"{c}-{role}", ok, chain_id=c, chain_role=role, capability=cap) for c, role, cap, ok in spec]
    return out + [_rec("free", False, capability="reason")]


def test_chain_accuracy_stages_and_conditional_reasoning():
    records = _chain_records()
    assert lm.accuracy(records) == pytest.approx(6 / 8)
    assert lm.chain_accuracy(records) == 0.5  # c2 breaks at its locate row
    assert lm.stage_accuracy(records, "guide_read") == 1.0
    assert lm.stage_accuracy(records, "bind") == 0.5  # bind (c1) and locate (c2) pooled
    assert lm.stage_accuracy(records, "value_extraction") == 1.0
    assert lm.stage_accuracy(records, "reason") == pytest.approx(2 / 3)  # chains' reasons plus the free one
    assert lm.conditional_reasoning(records) == 1.0  # only c1 is supported, and its reason is right
    records[2]["correct"] = False  # c1's reason wrong: raw and conditional reasoning both drop
    assert lm.conditional_reasoning(records) == 0.0
    prof = lm.profile(records)
    assert set(lm.PROFILE) <= set(prof) and (prof["n"], prof["n_chains"]) == (8, 2)


def test_locate_counts_as_bind_whatever_its_capability_column():
    rec = _rec("x", True, chain_id="c", chain_role="locate", capability="value_extraction")
    assert lm.stage(rec) == "bind"


# ---------------------------------------------------------------- counterfactual pairs


def test_consistency_and_responsiveness_pair_each_variant_with_its_own_base():
    records = [_rec("g1", True), _rec("g2", False),
               _rec("g1-p", True, group_id="g1", intervention_family="preserving", expected="preserve"),
               _rec("g2-p", True, group_id="g2", intervention_family="preserving", expected="preserve"),
               _rec("g1-a", False, group_id="g1", intervention_family="altering", expected="alter"),
               _rec("g1-a2", True, group_id="g1", intervention_family="altering", expected="alter"),
               _rec("g9-p", True, group_id="g9", intervention_family="preserving", expected="preserve")]
    assert lm.consistency(records) == 0.5  # g1 both right; g2's base is wrong; g9 has no base here
    assert lm.responsiveness(records) == 0.5
    assert lm.cr(records) == 0.5
    assert lm.consistency([r for r in records if r["id"] != "g1"]) == 0.0


# ---------------------------------------------------------------- undefined metrics


@pytest.mark.parametrize("name", [*lm.PROFILE, *(m for s in ls.STUDY_METRICS.values() for m in s)])
def test_every_metric_is_none_without_applicable_rows(name):
    fns = {**lm.PROFILE, **{k: v for s in ls.STUDY_METRICS.values() for k, v in s.items()}}
    assert fns[name]([]) is None
    plain = [_rec("only", True, capability="other")]  # a lone row: QA accuracy, parse rate and AP only
    # AP is over every row: a model that never refuses has precision 0 (the paper's 0.00), not None
    assert (fns[name](plain) is None) == (name not in ("qa_acc", "parse_fail_rate", "ap"))


def test_harmonic_mean_edges():
    assert lm.harmonic_mean(None, 0.5) is None and lm.harmonic_mean(0.5, None) is None
    assert lm.harmonic_mean(0.0, 0.0) == 0.0 and lm.harmonic_mean(0.0, 1.0) == 0.0


# ---------------------------------------------------------------- order study (§6.2)


def _rotation_rows(n=3):
    """One chart, n targets with fixed visual ranks 1..n, n cyclic legend rotations per target."""
    rows = []
    for t in range(n):
        for rot in range(n):
            idx = (t + rot) % n + 1
            rows.append(_row(f"t{t}r{rot}", group_id=f"g{t}", target=f"S{t}", visual_rank=t + 1,
                             target_legend_index=idx, answer=str(t + 1), study_factor="order",
                             study_level=f"rotation_{rot}", expected="base" if rot == 0 else "preserve",
                             intervention="none" if rot == 0 else "rotate_order",
                             intervention_family="none" if rot == 0 else "configuration"))
    return rows


SHORTCUT = {"shortcut": (lambda r: str(r["target_legend_index"]), 1.0, 0.0, 1.0, 1.0),
            "reader": (lambda r: f"Rank {r['visual_rank']}", 1.0, 1.0, 0.0, 0.0),
            "abstainer": (lambda r: IDK, 0.0, 0.0, 0.0, 0.0)}


@pytest.mark.parametrize("agent", sorted(SHORTCUT))
def test_order_study_numbers(agent):
    answer, aligned, conflict, follow, follow_all = SHORTCUT[agent]
    records = [lm.score_record(r, answer(r)) for r in _rotation_rows()]
    study = ls.order_study(records)
    assert (study["n_aligned"], study["n_conflict"], study["n_rotation_sets"]) == (3, 6, 3)
    assert study["aligned_acc"] == aligned and study["conflict_acc"] == conflict
    assert study["follow_legend"] == follow and study["follow_legend_all"] == follow_all


def test_follow_legend_all_needs_every_rotation():
    records = [lm.score_record(r, str(r["target_legend_index"])) for r in _rotation_rows()]
    records[1] = lm.score_record(_rotation_rows()[1], "3")  # target 0, rotation 1: neither legend (2) nor rank (1)
    assert ls.follow_legend_all(records) == pytest.approx(2 / 3)
    assert ls.follow_legend(records) == pytest.approx(5 / 6)


def test_legend_order_agent_on_rotated_legends():
    """The shortcut agent reads the displayed legend of a real spec: 100% aligned, 0% conflict."""
    from chartprobe.dataset_builders.core.rng import rng_for
    from chartprobe.dataset_builders.probes.domains import PROBE_DOMAINS
    from chartprobe.eval_tasks.validity.agents import AGENTS

    spec = PROBE_DOMAINS["pie"].sample(rng_for(3, "legend-order-study"), "medium")
    labels, n = list(spec.data.categories), len(spec.data.categories)
    rows = []
    for rot in range(n):
        order = tuple((i + rot) % n for i in range(n))
        rotated = dataclasses.replace(spec, legend=dataclasses.replace(spec.legend, order=order))
        for t, label in enumerate(labels):
            rows.append(_row(f"{t}-{rot}", group_id=f"g{t}", target=label, visual_rank=t + 1, answer=str(t + 1),
                             target_legend_index=order.index(t) + 1, spec=rotated.to_json(), study_factor="order",
                             program='{"template": "t3_rank", "params": {}}'))
    suite, agent = suite_for_release("legend"), AGENTS.get("legend_order")()
    preds = agent.predict(suite, rows)
    assert all(p is not None for p in preds)
    records = [suite.score(r, p) for r, p in zip(rows, preds)]
    assert ls.aligned_accuracy(records) == 1.0 and ls.conflict_accuracy(records) == 0.0
    assert ls.follow_legend(records) == 1.0
    assert agent.answer(suite, {**rows[0], "visual_rank": -1}) is None  # not a rank question

    run = AgentRun("legend_order", "order_study", "test", rows, preds, records)
    checks = {c.check: c for c in suite.checks(RunSet("legend", {("order_study", "test"): rows},
                                                      {("legend_order", "order_study", "test"): run}))}
    for name in ("legend-order agent answers the rank rows", "legend-order shortcut, aligned accuracy",
                 "legend-order shortcut, conflict accuracy", "legend-order shortcut follows the legend",
                 "order rotations: each target at every legend position once"):
        assert checks[name].status == "pass", checks[name]


# ---------------------------------------------------------------- visibility and channel studies


def test_visibility_study_scores_each_level_with_its_bases():
    records = []
    for i in range(4):
        records.append({**_rec(f"g{i}", True, study_factor="visibility", study_level="full"), "abstained": i == 0})
        for level, expected in (("mask_full", "abstain"), ("keep_target", "preserve")):
            records.append({**_rec(f"g{i}{level}", False, group_id=f"g{i}", study_factor="visibility",
                                   study_level=level, intervention=level, intervention_family="answerability",
                                   expected=expected), "abstained": level == "mask_full" and i < 2})
    study = ls.visibility_study(records)
    assert set(study) == {"mask_full", "keep_target"}
    assert (study["mask_full"]["ap"], study["mask_full"]["ar"]) == (pytest.approx(2 / 3), 0.5)
    assert study["keep_target"]["ar"] is None and study["keep_target"]["ap"] == 0.0
    metrics = ls.task_metrics("visibility", records)
    assert metrics["ar_mask_full"] == 0.5 and metrics["af1_hide_target"] is None


def test_channel_study_cells():
    records = [_rec(f"{m}{lvl}{cap}", ok, study_factor="channel", mark_family=m, study_level=lvl, capability=cap)
               for m, lvl in (("point", "color"), ("area", "texture"))
               for cap, ok in (("guide_read", True), ("bind", m == "point"), ("value_extraction", False),
                               ("reason", True))]
    cells = ls.channel_study(records)
    assert list(cells) == ["area/texture", "point/color"]
    assert cells["point/color"]["bind"] == 1.0 and cells["area/texture"]["bind"] == 0.0
    assert cells["point/color"]["grounding"] == 0.5 and cells["area/texture"]["grounding"] == 0.0
    assert ls.summary(records)["channel_study"] == cells


# ---------------------------------------------------------------- lm-eval wiring


def _legend_utils():
    spec = importlib.util.spec_from_file_location("chartprobe_legend_utils", Path(tasks_path()) / "legend_utils.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_prompt_is_frozen_and_asks_for_abstention(tmp_path, monkeypatch):
    utils = _legend_utils()
    assert hashlib.sha256(utils.PROMPT_PATH.read_bytes()).hexdigest() == utils.PROMPT_SHA256
    text = utils.prompt()
    assert text.startswith("{QUESTION}") and 'reply exactly "I don\'t know"' in text and "concise" in text
    (tmp_path / "legend.txt").write_text(text + " Think step by step.")
    monkeypatch.setattr(utils, "PROMPT_PATH", tmp_path / "legend.txt")
    with pytest.raises(utils.PromptChangedError):
        utils.prompt()


TASKS = {"chartprobe_legend": ("snapshot", None), "chartprobe_legend_channel": ("channel_study", "channel"),
         "chartprobe_legend_order": ("order_study", "order"),
         "chartprobe_legend_visibility": ("visibility_study", "visibility"),
         "chartprobe_legend_style_shift": ("style_shift", "style")}


@pytest.mark.parametrize("task", sorted(TASKS))
def test_task_yaml_reports_the_profile_and_its_study(task):
    config, study = TASKS[task]
    data = task_index()[task]
    assert (data.release, data.config, ls.STUDY_FOR_CONFIG.get(config)) == ("legend", config, study)
    path = Path(tasks_path()) / f"{task}.yaml"
    doc = yaml.load(path.read_text(), Loader=_TaskLoader)
    body = yaml.load((path.parent / "_legend_yaml").read_text(), Loader=_TaskLoader)
    metric_list = doc.get("metric_list", body["metric_list"])
    table_names = [readable(n) for n in ls.metric_names(study)]  # what lm-eval's table prints
    assert [m["metric"] for m in metric_list] == table_names
    utils = _legend_utils()
    for m in metric_list:
        assert m["aggregation"] == f"!function legend_utils.{m['metric']}"
        assert callable(getattr(utils, m["metric"]))
        assert m["higher_is_better"] == (paper_key(m["metric"]) not in ls.LOWER_IS_BETTER)
    hook = doc.get("process_results", body["process_results"]).removeprefix("!function legend_utils.")
    doc_row = _row("r", answer="2", study_factor=study or "")
    assert list(getattr(utils, hook)(doc_row, ["2"])) == table_names


def test_aggregations_are_the_suite_task_metrics_with_nan_for_undefined():
    utils = _legend_utils()
    records = [lm.score_record(r, str(r["target_legend_index"])) for r in _rotation_rows()]
    expected = suite_for_release("legend").task_table(task_index()["chartprobe_legend_order"], records)
    assert "value_extraction" in expected and "ve" not in expected  # score's table reads as lm-eval's
    for name, value in expected.items():
        got = getattr(utils, name)(records)
        assert (math.isnan(got) if value is None else got == pytest.approx(value)), name
    assert expected["conflict_acc"] == 0.0 and math.isnan(utils.consistency_responsiveness_hm(records))


def test_suite_headline_and_summary():
    suite = suite_for_release("legend")
    records = _chain_records() + [lm.score_record(r, str(r["target_legend_index"])) for r in _rotation_rows()]
    summary = suite.summarize(records)
    assert summary["n"] == 8  # the profile is over the snapshot rows; the study has its own section
    assert summary["order_study"]["follow_legend"] == 1.0
    assert suite.headline(summary) == {"QA acc": summary["qa_acc"], "Chain acc": 0.5, "ConsResp": None, "AF1": None}
