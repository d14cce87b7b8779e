"""Abstention as the paper defines it (issue #22): AP/AR/AF1 over every row scored, and the
``elimination_answerable`` rows (hidden entry recoverable by elimination) as a separate slice.

The build test makes two one-chart snapshot items (a 2-series line chart, a 3-wedge pie) with the real builder,
so the row column, its feature and the metrics slice are checked end to end (a few seconds)."""

from __future__ import annotations

import json

import pytest
from chartprobe.dataset_builders.legend.elimination import elimination_answerable, row_elimination_answerable
from chartprobe.dataset_builders.legend.templates import LEGEND_TEMPLATES
from chartprobe.dataset_builders.legend.unit import Factor, LegendSide
from chartprobe.eval_tasks.metrics import legend as lm

IDK = "I don't know"


def _rec(id_, *, refused=False, expected="base", family="none", intervention="none", group=None, elim=False):
    return {"id": id_, "group_id": group or id_, "expected": expected, "intervention_family": family,
            "intervention": intervention, "abstained": refused, "correct": refused == (expected == "abstain"),
            "parse_failed": False, "answer": IDK if expected == "abstain" else "1",
            "answer_type": "abstain" if expected == "abstain" else "integer", "elimination_answerable": elim}


def _issue_records():
    """50 answerability groups (base + mask_full variant): 15 variants refused (the hits), 13 base rows
    refused; plus 40 scale_down (preserving) groups whose answerable variant is refused.

    Old rule (answerability variants + their bases only): AP = 15 / (15 + 13) = 0.536.
    Paper rule (every row): AP = 15 / (15 + 13 + 40) = 0.221; AR = 15 / 50 either way."""
    out = []
    for i in range(50):
        out.append(_rec(f"g{i}", refused=i < 13))
        out.append(_rec(f"g{i}-mask", refused=i < 15, expected="abstain", family="answerability",
                        intervention="mask_full", group=f"g{i}"))
    for i in range(40):
        out.append(_rec(f"s{i}"))
        out.append(_rec(f"s{i}-scale", refused=True, expected="preserve", family="preserving",
                        intervention="scale_down", group=f"s{i}"))
    return out


def test_refusals_on_answerable_scale_down_variants_cost_precision():
    records = _issue_records()
    old = lm.abstention(lm.abstention_scope(records))
    assert round(old["ap"], 3) == 0.536 and old["refusals"] == 28
    prof = lm.profile(records)
    assert round(prof["ap"], 3) == 0.221 and prof["ap"] == pytest.approx(15 / 68)
    assert prof["ar"] == pytest.approx(15 / 50) and old["ar"] == prof["ar"]
    assert prof["af1"] == pytest.approx(lm.harmonic_mean(15 / 68, 15 / 50))
    assert prof["af1"] == pytest.approx(2 * 15 / (68 + 50))


def test_a_model_that_never_refuses_scores_zero():
    records = [{**r, "abstained": False} for r in _issue_records()]
    prof = lm.profile(records)
    assert (prof["ap"], prof["ar"], prof["af1"]) == (0.0, 0.0, 0.0)
    answerable_only = [r for r in records if r["expected"] != "abstain"]
    assert lm.abstention(answerable_only) == {"ap": 0.0, "ar": None, "af1": None, "refusals": 0,
                                              "unanswerable": 0}
    assert lm.abstention([])["ap"] is None


def test_elimination_slice_excludes_the_flagged_rows():
    records = _issue_records()
    for r in records[21:40:2]:  # the mask rows of g10..g19 flagged: g10..g14 refused (hits), g15..g19 not
        r["elimination_answerable"] = True
    prof = lm.profile(records)
    assert prof["n_elim"] == 10 and prof["elim_refusal_rate"] == 0.5
    # without them: 15 - 5 hits, 68 - 5 refusals, 50 - 10 abstain rows
    assert prof["ap_excl_elim"] == pytest.approx(10 / 63) and prof["ar_excl_elim"] == pytest.approx(10 / 40)
    assert prof["af1_excl_elim"] == pytest.approx(2 * 10 / (63 + 40))
    assert prof["ap"] == pytest.approx(15 / 68)  # the headline keeps the strict rule
    assert lm.profile(_issue_records())["elim_refusal_rate"] is None


# ---------------------------------------------------------------- the rule on legend sides


def _plain(n, visible=None, form="box"):
    return LegendSide(labels=tuple(f"S{i}" for i in range(n)), form=form, visible=visible)


@pytest.mark.parametrize(("legend", "evidence", "anchor", "want"), [
    (_plain(2, (True, False)), ["legend/entry/1"], "label", True),            # hide_target, 2 series
    (_plain(3, (True, True, False)), ["legend/entry/2"], "label", True),      # hide_target, 3 series
    (_plain(3, (True, False, False)), ["legend/entry/2"], "label", False),    # keep_distractor, 3 series
    (_plain(2, (False, True), "direct"), ["legend/direct/0"], "label", True),  # direct labels
    (_plain(2, (True, False)), ["legend/entry/1"], "item", False),            # asks for the hidden label
    (_plain(2, form="none"), ["legend/entry/0"], "label", False),             # mask_full, 2 series
    (_plain(1, form="none"), ["legend/entry/0"], "label", True),              # the only series
    (_plain(2, (True, False)), ["legend/entry/0"], "label", False),           # evidence visible
    (_plain(3, (True, False, False)), ["legend/entry/1", "legend/entry/2"], "label", False),
    (LegendSide(labels=("x",), form="none"), ["legend/colorbar"], "label", False),
])
def test_elimination_rule(legend, evidence, anchor, want):
    assert elimination_answerable(legend, evidence, anchor) is want


def test_compositional_legends_eliminate_per_factor():
    region = Factor("Region", "color", ("North", "South"), ("#f00", "#00f"), (0, 0, 1, 1))
    product = Factor("Product", "marker", ("A", "B"), ("o", "s"), (0, 1, 0, 1))
    side = LegendSide(labels=(), factors=(region, product), visible=(True, False, True, False))
    assert elimination_answerable(side, ["legend/entry/1", "legend/entry/3"], "label")  # one level hidden each
    three = Factor("Region", "color", ("N", "S", "E"), ("#f00", "#00f", "#0f0"), (0, 1, 2, 0))
    side = LegendSide(labels=(), factors=(three, product), visible=(True, False, False, True, True))
    assert not elimination_answerable(side, ["legend/entry/1", "legend/entry/3"], "label")


# ---------------------------------------------------------------- a tiny real build


@pytest.fixture(scope="module")
def tiny_rows():
    from chartprobe.dataset_builders.release.dataset import DATASETS
    from chartprobe.dataset_builders.release.preset import ConfigPreset, Preset

    builder = DATASETS.get("legend")()
    rows = []
    for n, kind in ((2, "line"), (3, "pie")):
        # A legend box, whose entries the edits hide: drawn from every form, a line chart's draw
        # (redrawn until it offers its crossing count) came with direct labels and no hidden entry.
        params = {"num_series": [n, n], "chart_kinds": [kind], "encoding_modes": ["single"],
                  "themes": ["default"], "add_labels": [False], "chains_per_chart": 1, "extra_probes": 1,
                  "interventions_per_group": 9, "legend_forms": ["box"]}
        preset = Preset("legend", "tiny", 0, {"snapshot": ConfigPreset({"test": 1}, params)})
        rows += [{k: v for k, v in r.items() if k != "image"}
                 for r in builder.build_item(preset, "snapshot", "test", "snapshot-test-0000")]
    assert str(builder.features("snapshot")["elimination_answerable"].dtype) == "bool"
    return rows


def _label_anchored(row):
    return LEGEND_TEMPLATES.get(row["template"]).anchor == "label"


def test_flag_marks_hidden_target_rows_of_two_series_charts(tiny_rows):
    interventions = {r["intervention"] for r in tiny_rows if r["expected"] == "abstain"}
    assert {"hide_target", "keep_distractor", "mask_full"} <= interventions
    for r in tiny_rows:
        assert r["elimination_answerable"] == row_elimination_answerable(r), r["id"]
        if r["elimination_answerable"]:
            assert r["expected"] == "abstain" and r["answer"] == IDK
            assert r["target"] and f"'{r['target']}'" in r["question"]  # the question names what is hidden
        hidden_target = r["intervention"] in ("hide_target", "keep_distractor") and r["expected"] == "abstain"
        if r["num_series"] == 2:  # one entry left: it names the other series, the target is the rest
            assert r["elimination_answerable"] == (hidden_target and _label_anchored(r)), r["id"]
        else:  # 3 series: keep_distractor leaves two candidates; hide_target still leaves one
            want = r["intervention"] == "hide_target" and r["expected"] == "abstain" and _label_anchored(r)
            assert r["elimination_answerable"] == want, r["id"]
    flagged = {(r["num_series"], r["intervention"]) for r in tiny_rows if r["elimination_answerable"]}
    # On 2 series both edits show the one other entry: the same image and question, asked once
    # (issue 45), so a group carries one of them.
    assert {(2, "hide_target"), (2, "keep_distractor")} & flagged
    assert not any(r["elimination_answerable"] for r in tiny_rows if r["intervention"] == "mask_full")
    assert all(isinstance(json.loads(r["evidence"]), list) for r in tiny_rows)


def test_slice_is_reported_for_a_built_release(tiny_rows):
    """A model that refuses exactly where the evidence cannot be recovered: perfect without the
    elimination-answerable rows, recall below 1 under the paper's strict rule."""
    from chartprobe.eval_tasks.suites import suite_for_release

    suite = suite_for_release("legend")
    def reply(r):  # on an elimination-answerable row it answers (wrong under the strict gold)
        return "42" if r["elimination_answerable"] else r["answer"]

    strict_reader = [suite.score(r, reply(r)) for r in tiny_rows]
    summary = suite.summarize(strict_reader)
    n_elim = sum(r["elimination_answerable"] for r in tiny_rows)
    n_abstain = sum(r["expected"] == "abstain" for r in tiny_rows)
    assert summary["n_elim"] == n_elim > 0
    assert summary["ap"] == 1.0 and summary["ar"] == pytest.approx(1 - n_elim / n_abstain)
    assert (summary["ap_excl_elim"], summary["ar_excl_elim"], summary["af1_excl_elim"]) == (1.0, 1.0, 1.0)
    assert summary["elim_refusal_rate"] == 0.0
    assert all(rec["elimination_answerable"] is not None for rec in strict_reader)
