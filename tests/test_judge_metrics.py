"""Judge metrics: Table 2 arithmetic, two-pass outcomes, verdict parsing and majority voting."""

from __future__ import annotations

import math

import pytest
from chartprobe.eval_tasks.metrics import judge as jm


def _crj(label: str, verdict: str | None) -> dict:
    return {"item_id": f"{label}-{id(object())}", "label": label, "verdicts": [verdict]}


def test_table2_reproduction_arithmetic_from_counts_and_from_records():
    # LLaVA-Critic-R1, Chart Reproduction: 156 Accept / 159 Reject, recall 98.1%, specificity 9.4%.
    tp, tn = 153, 15
    confusion = {"tp": tp, "fn": 156 - tp, "tn": tn, "fp": 159 - tn}
    m = jm.crj_metrics(confusion=confusion)
    assert round(100 * m["recall"], 1) == 98.1 and round(100 * m["specificity"], 1) == 9.4
    assert round(100 * m["accuracy"], 1) == 53.3
    assert round(100 * m["precision"], 1) == 51.5
    # F1 = 306/453 = 67.5497%: the paper's 67.6 is that value shown to two decimals (67.55) and
    # then rounded half-up to one, so the exact arithmetic is checked at two decimals.
    assert f"{100 * m['f1']:.2f}" == "67.55"
    records = ([_crj("Accept", "accept")] * tp + [_crj("Accept", "reject")] * (156 - tp)
               + [_crj("Reject", "reject")] * tn + [_crj("Reject", "accept")] * (159 - tn))
    assert {k: v for k, v in jm.crj_metrics(records).items() if k != "confusion"} == \
        {k: v for k, v in m.items() if k != "confusion"}
    assert jm.crj_metrics(records)["accept_rate"] == pytest.approx(297 / 315)


def test_always_accept_has_specificity_zero_and_recall_one():
    records = [_crj("Accept", "accept")] * 5 + [_crj("Reject", "accept")] * 5
    m = jm.crj_metrics(records)
    assert m["specificity"] == 0.0 and m["recall"] == 1.0 and m["accept_rate"] == 1.0 and m["accuracy"] == 0.5


def test_unparsable_verdicts_count_as_wrong_and_never_as_accept():
    m = jm.crj_metrics([_crj("Accept", None), _crj("Reject", None)])
    assert m["accuracy"] == 0.0 and m["parse_fail_rate"] == 1.0 and m["accept_rate"] == 0.0


def _cpa(pair: str, order: str, choice: str | None, criterion: str = "aspect_ratio") -> dict:
    return {"pair_id": pair, "order": order, "criterion": criterion, "dimension": "visual_effects",
            "chart_kind": "bar", "choices": [choice]}


def test_two_pass_outcomes_partition_the_pairs():
    records = [*(_cpa("p1", o, c) for o, c in (("better_first", "A"), ("worse_first", "B"))),   # correct
               *(_cpa("p2", o, c) for o, c in (("better_first", "B"), ("worse_first", "A"))),   # consistent wrong
               *(_cpa("p3", o, c) for o, c in (("better_first", "A"), ("worse_first", "A"))),   # bias A
               *(_cpa("p4", o, c) for o, c in (("better_first", "B"), ("worse_first", "B"))),   # bias B
               *(_cpa("p5", o, c) for o, c in (("better_first", "A"), ("worse_first", None)))]  # parse fail
    out = jm.cpa_outcomes(records)
    assert out == {o: 0.2 for o in jm.CPA_OUTCOMES}
    summary = jm.cpa_summary(records)
    assert summary["two_pass_accuracy"] == 0.2 and summary["one_pass_accuracy"] == 0.5
    assert summary["per_criterion"] == {"aspect_ratio": 0.2} and summary["n_pairs"] == 5


def test_first_position_agent_scores_zero_two_pass_and_full_bias_a():
    records = [_cpa(f"p{i}", o, "A") for i in range(4) for o in ("better_first", "worse_first")]
    s = jm.cpa_summary(records)
    assert s["two_pass_accuracy"] == 0.0 and s["bias_a_rate"] == 1.0 and s["one_pass_accuracy"] == 0.5
    assert s["first_position_rate"] == 1.0


@pytest.mark.parametrize(("text", "choice"), [
    ("[Answer]: Image A. [Reason]: cleaner layout", "A"), ("[Answer]: Image B\n[Reason]: Image A overlaps", "B"),
    ("**Answer:** Image B", "B"), ("Image A", "A"), ("(B)", "B"), ("I cannot tell", None), ("", None)])
def test_parse_choice(text, choice):
    assert jm.parse_choice(text) == choice


@pytest.mark.parametrize(("text", "verdict"), [
    ("[Answer]: Accept. [Reason]: Data Accuracy: values match.", "accept"),
    ("[Answer]: Reject. [Reason]: accepting would miss the clipped bar", "reject"),
    ("Reject", "reject"), ("\x00\ufffd" * 100, None), ("accept or reject?", None)])
def test_parse_verdict(text, verdict):
    assert jm.parse_verdict(text) == verdict


def test_majority_voting_over_k_samples():
    assert jm.majority(["accept", "reject", "reject", "accept", "accept"], 3) == "reject"
    assert jm.majority(["accept", "reject", "reject", "accept", "accept"], 5) == "accept"
    assert jm.majority(["accept", "reject"], 2) is None and jm.majority([None, None], 1) is None
    records = [{"item_id": "a", "label": "Accept", "verdicts": ["reject", "accept", "accept", "accept", "reject"]},
               {"item_id": "b", "label": "Reject", "verdicts": ["reject"] * 5}]
    curve = jm.voting_curve(records, "crj")
    assert sorted(curve) == [1, 3, 5]
    assert curve[1]["accuracy"] == 0.5 and curve[3]["accuracy"] == 1.0 and curve[5]["accuracy"] == 1.0


def test_empty_groups_give_nan_not_errors():
    assert math.isnan(jm.cpa_outcomes([])["correct"])
    assert jm.crj_metrics([])["accuracy"] == 0.0
