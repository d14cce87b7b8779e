"""``chartprobe report --paper-tables``: Chartographer's tables from crafted results of three models in two
groups, every cell below computed by hand from the records in ``_records`` (§3.4, A.8, Appendix B).

The crafted families (two on ChartQA, one on ChartMuseum; original, reconstruction, two variants):

- model A (proprietary): ChartQA q1 O+ R+ V(+, stale -), q2 O- R+ V(+, -); ChartMuseum m1 O+ R- V(stale -,
  noisy -); rescaled reconstructions of m1: 75% right, 50% wrong.
- model B (proprietary): everything right; rescaled reconstructions right.
- model C (open-source): everything wrong, every answer a new one; no resolution rows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from chartprobe.eval_tasks.report.paper_tables import Cell, Row, Table
from chartprobe.eval_tasks.rescoring.results import FORMAT, to_columns

from chartprobe.cli import main

GROUPS = "Proprietary models: [model-A, model-B]\nOpen-source models: [model-C]\n"


def _family(fid: str, group: str, outcomes: list[tuple[str, bool, str]], reasoning: str | None = None) -> list[dict]:
    out = []
    for i, (role, correct, normalized) in enumerate(outcomes):
        out.append({"task": "chartprobe_families", "family_id": fid, "role": role, "correct": correct,
                    "normalized": normalized, "group": group, "source": fid, "resolution": False,
                    "reasoning_type": reasoning, "variant_seed": i - 2 if role == "variant" else -1})
    return out


def _resolution(fid: str, group: str, scale: float, correct: bool) -> dict:
    return {"task": "chartprobe_families_resolution", "family_id": fid, "role": "reconstruction",
            "correct": correct, "normalized": "z", "group": group, "source": fid, "resolution": True,
            "scale": scale, "reasoning_type": "visual"}


def _records() -> dict[str, list[dict]]:
    a = (_family("chartqa_val-q1", "chartqa", [("original", True, "a"), ("reconstruction", True, "a"),
                                               ("variant", True, "b"), ("variant", False, "a")])
         + _family("chartqa_val-q2", "chartqa", [("original", False, "x"), ("reconstruction", True, "a"),
                                                 ("variant", True, "b"), ("variant", False, "y")])
         + _family("chartmuseum_dev-m1", "chartmuseum", [("original", True, "7"), ("reconstruction", False, "8"),
                                                         ("variant", False, "7"), ("variant", False, "9")], "visual")
         + [_resolution("chartmuseum_dev-m1", "chartmuseum", 0.75, True),
            _resolution("chartmuseum_dev-m1", "chartmuseum", 0.5, False)])
    right = [("original", True, "g"), ("reconstruction", True, "g"), ("variant", True, "h"), ("variant", True, "i")]
    b = (_family("chartqa_val-q1", "chartqa", right) + _family("chartqa_val-q2", "chartqa", right)
         + _family("chartmuseum_dev-m1", "chartmuseum", right, "visual")
         + [_resolution("chartmuseum_dev-m1", "chartmuseum", 0.75, True),
            _resolution("chartmuseum_dev-m1", "chartmuseum", 0.5, True)])
    wrong = [("original", False, "w1"), ("reconstruction", False, "w2"), ("variant", False, "w3"),
             ("variant", False, "w4")]
    c = (_family("chartqa_val-q1", "chartqa", wrong) + _family("chartqa_val-q2", "chartqa", wrong)
         + _family("chartmuseum_dev-m1", "chartmuseum", wrong, "visual"))
    return {"model-A": a, "model-B": b, "model-C": c}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = tmp_path_factory.mktemp("paper-tables")
    models = {}
    for model, records in _records().items():
        for i, r in enumerate(records):
            r["doc_id"] = i
        models[model] = {"records": {"families": to_columns(records)}}
    (root / "results.json").write_text(json.dumps({"format": FORMAT, "models": models}))
    (root / "groups.yaml").write_text(GROUPS)
    assert main(["report", str(root / "results.json"), "--out", str(root / "rep"), "--paper-tables",
                 "--model-groups", str(root / "groups.yaml")]) == 0
    doc = json.loads((root / "rep" / "report.json").read_text())
    return {"tables": {t["key"]: t for t in doc["paper_tables"]}, "out": root / "rep", "root": root}


def _cells(table: dict) -> dict[str, list[tuple[str, int | None]]]:
    """row label -> [(printed value, n), ...]; sections left out."""
    return {r["label"]: [(c["text"], c["n"]) for c in r["cells"]] for r in table["rows"] if r["kind"] != "section"}


def test_table_1_oa_ra_va_rvc_per_model_dataset_and_group_average(report):
    t = report["tables"]["chartographer-1"]
    assert t["spans"] == [["ChartQA", 4], ["ChartMuseum", 4]]
    assert [r["label"] for r in t["rows"]] == ["Proprietary models", "model-A", "model-B", "Proprietary average",
                                               "Open-source models", "model-C", "Open-source average"]
    cells = _cells(t)
    # A, ChartQA: OA 1/2, RA 2/2, VA 2/4, RVC 100*(.5-.5)/.5 = 0; its two family differences (-.5, +.5) cancel: p = 1
    assert cells["model-A"][:4] == [("0.500", 2), ("1.000", 2), ("0.500", 4), ("+0.0", 2)]
    # A, ChartMuseum: OA 1, RA 0, VA 0, RVC -100 (one family: p = 1, no star)
    assert cells["model-A"][4:] == [("1.000", 1), ("0.000", 1), ("0.000", 2), ("-100.0", 1)]
    assert cells["Proprietary average"] == [("0.750", 2), ("1.000", 2), ("0.750", 2), ("+0.0", 2),
                                            ("1.000", 2), ("0.500", 2), ("0.500", 2), ("-50.0", 2)]
    # C: OA 0, so RVC is undefined (an en dash) and its group average has no value
    assert cells["model-C"][3] == ("–", 2) and cells["Open-source average"][3] == ("–", None)


def test_table_2_resolution_on_chartmuseum(report):
    cells = _cells(report["tables"]["chartographer-2"])
    assert list(cells) == ["model-A", "model-B", "Mean"]  # C has no resolution rows
    assert cells["model-A"] == [("1.000", 1), ("0.000", 1), ("1.000", 1), ("0.000", 1)]
    assert cells["Mean"] == [("1.000", 2), ("0.500", 2), ("1.000", 2), ("0.500", 2)]


def test_table_3_update_outcomes_averaged_within_groups(report):
    t = report["tables"]["chartographer-3"]
    assert t["spans"] == [["Proprietary", 3], ["Open-source", 3]]
    cells = _cells(t)
    # ChartQA: A's solved family q1 -> CU 1/2, SP 1/2; B all CU; C solved nothing
    assert cells["ChartQA"] == [("0.750", 2), ("0.000", 2), ("0.250", 2), ("–", None), ("–", None), ("–", None)]
    # ChartMuseum: A's m1 -> SP ("7" again) and NU ("9")
    assert cells["ChartMuseum"][:3] == [("0.500", 2), ("0.250", 2), ("0.250", 2)]


def test_table_8_original_and_reconstruction_controls(report):
    cells = _cells(report["tables"]["chartographer-8"])
    # ChartQA agreement: A 1/2, B 1, C 1 (both wrong) -> 0.833; CVA-R: A .5, B 1; RVC-R: A -50, B 0
    assert cells["ChartQA"] == [("0.833", 3), ("0.750", 2), ("0.750", 2), ("+0.0%", 2), ("-25.0%", 2)]
    # ChartMuseum: agreement A 0, B 1, C 1; CVA-R only B (A's reconstruction failed); RVC-R: A's RA is 0
    assert cells["ChartMuseum"] == [("0.667", 3), ("0.500", 2), ("1.000", 1), ("-50.0%", 2), ("+0.0%", 1)]


def test_table_9_original_reconstruction_counts_pooled(report):
    cells = _cells(report["tables"]["chartographer-9"])
    assert cells["ChartQA"] == [("2", 3), ("1", 3), ("0", 3), ("3", 3)]
    assert cells["ChartMuseum"] == [("1", 3), ("0", 3), ("1", 3), ("1", 3)]


def test_table_15_cva_by_reasoning_type(report):
    t = report["tables"]["chartographer-15"]
    assert t["columns"] == ["Model", "Text", "Visual/text", "Synthesis", "Visual"]
    cells = _cells(t)
    assert cells["model-A"] == [("–", None), ("–", None), ("–", None), ("0.000", 1)]
    assert cells["model-B"][3] == ("1.000", 1) and cells["model-C"][3] == ("–", 1)


def test_markdown_and_latex_files(report):
    out = report["out"]
    md = (out / "paper_tables" / "chartographer-1.md").read_text()
    assert "|  | ChartQA |  |  |  | ChartMuseum |  |  |  |" in md
    assert "| **Proprietary average** | 0.750 (2) | 1.000 (2) |" in md
    tex = (out / "paper_tables" / "chartographer-1.tex").read_text()
    assert r"\toprule" in tex and r"\bottomrule" in tex and r"\multicolumn{4}{c}{ChartMuseum}" in tex
    assert r"\cmidrule(lr){2-5} \cmidrule(lr){6-9}" in tex and r"\textit{Open-source models}" in tex
    assert r"model-A & 0.500\,{\scriptsize(2)}" in tex
    assert (out / "paper_tables.md").read_text().count("**Chartographer Table") == 6


def test_stars_and_escapes_render_as_the_paper_prints_them():
    t = Table("x-1", "Rates of 5% & more", ("Model", "RVC"), [Row("gpt_4o", (Cell(-24.3, 147, "signed1", "**"),))])
    assert "| gpt_4o | **-24.3 (147) |" in t.to_markdown()
    tex = t.to_latex()
    assert r"gpt\_4o & $^{**}$-24.3\,{\scriptsize(147)} \\" in tex and r"Rates of 5\% \& more" in tex


@pytest.mark.parametrize("groups, message", [
    ("[a, b]\n", "expected a mapping of group name"),
    ("Proprietary models: [model-A]\nOpen-source models: [model-A]\n", "is in both"),
    ("Proprietary models: model-A\n", "must list model names"),
])
def test_a_bad_groups_file_is_one_line(report, tmp_path, groups, message, capsys):
    (tmp_path / "g.yaml").write_text(groups)
    assert main(["report", str(report["root"] / "results.json"), "--out", str(tmp_path / "rep"), "--paper-tables",
                 "--model-groups", str(tmp_path / "g.yaml")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0] and not (tmp_path / "rep").exists()


def test_without_the_flag_no_paper_tables_are_written(report, tmp_path):
    assert main(["report", str(report["root"] / "results.json"), "--out", str(tmp_path / "rep")]) == 0
    assert not (tmp_path / "rep" / "paper_tables.md").exists()
    assert "paper_tables" not in json.loads((tmp_path / "rep" / "report.json").read_text())
    assert Path(report["out"] / "paper_tables.md").is_file()


# --- LegendBench ------------------------------------------------------------------------------------
# Model G (general-purpose): chains c1 (parse +, locate +, extract -, reason +) and c2 (+, +, +, reason -);
# counterfactual group g1: base +, preserving variant +, altering variant -; answerability group g2: base +
# (answers), v1 unanswerable and refused (+), v2 unanswerable and answered (-), v3 answerable but refused (-).
# Model K (chart-specific): every row wrong, never refuses. G's channel and visibility studies below.


def _legend(model_right: bool) -> list[dict]:
    def row(task="chartprobe_legend", correct=True, **fields):
        return {"task": task, "correct": model_right and correct, "abstained": False, **fields}

    rows = []
    for chain, outcomes in (("c1", (True, True, False, True)), ("c2", (True, True, True, False))):
        for (role, cap), ok in zip((("parse", "guide_read"), ("locate", "bind"), ("extract", "value_extraction"),
                                    ("reason", "reason")), outcomes, strict=True):
            rows.append(row(correct=ok, chain_id=chain, chain_role=role, capability=cap))
    rows += [row(expected="base", group_id="g1"),
             row(expected="same", group_id="g1", intervention_family="preserving"),
             row(correct=False, expected="new", group_id="g1", intervention_family="altering")]
    rows += [row(expected="base", group_id="g2"),
             {**row(expected="abstain", group_id="g2", intervention_family="answerability"),
              "abstained": model_right},
             row(correct=False, expected="abstain", group_id="g2", intervention_family="answerability"),
             {**row(correct=False, expected="answer", group_id="g2", intervention_family="answerability"),
              "abstained": model_right}]
    if model_right:
        for level, outcomes in (("color", (True, True, False, True)), ("marker", (False, True, True, False))):
            for cap, ok in zip(("guide_read", "bind", "value_extraction", "reason"), outcomes, strict=True):
                rows.append(row("chartprobe_legend_channel", ok, study_factor="channel", study_level=level,
                                mark_family="point", capability=cap))
        vis = {"task": "chartprobe_legend_visibility", "study_factor": "visibility", "correct": False}
        rows += [{**vis, "expected": "base", "group_id": "v1", "abstained": False, "study_level": ""},
                 {**vis, "expected": "abstain", "group_id": "v1", "abstained": True, "study_level": "mask_full"},
                 {**vis, "expected": "abstain", "group_id": "v1", "abstained": False, "study_level": "mask_full"},
                 {**vis, "expected": "base", "group_id": "v2", "abstained": False, "study_level": ""},
                 {**vis, "expected": "answer", "group_id": "v2", "abstained": True, "study_level": "keep_target"},
                 {**vis, "expected": "abstain", "group_id": "v2", "abstained": False, "study_level": "keep_target"}]
    return rows


@pytest.fixture(scope="module")
def legend_report(tmp_path_factory):
    root = tmp_path_factory.mktemp("paper-tables-legend")
    models = {}
    for model, right in (("model-G", True), ("model-K", False)):
        records = _legend(right)
        for i, r in enumerate(records):
            r["doc_id"] = i
        models[model] = {"records": {"legend": to_columns(records)}}
    (root / "results.json").write_text(json.dumps({"format": FORMAT, "models": models}))
    (root / "groups.yaml").write_text("General-purpose models: [model-G]\nChart-specific models: [model-K]\n")
    assert main(["report", str(root / "results.json"), "--out", str(root / "rep"), "--paper-tables",
                 "--model-groups", str(root / "groups.yaml")]) == 0
    return {t["key"]: t for t in json.loads((root / "rep" / "report.json").read_text())["paper_tables"]}


def test_legendbench_table_4_capability_profile(legend_report):
    t = legend_report["legendbench-4"]
    assert [s[0] for s in t["spans"]] == ["Overall", "Parsing", "Grounding", "Reasoning", "Counterfactual",
                                          "Abstention"]
    cells = _cells(t)
    # QA 10/15; chains 0/2; guide 2/2, bind 2/2, VE 1/2, reason 1/2; Reason.|Sup.: only c2 is supported, its
    # reason row wrong; Cons. 1/1, Resp. 0/1, CR 0; AP 1 hit / 2 refusals, AR 1/2, AF1 over the 4 rows in scope
    assert cells["model-G"] == [("66.67", 15), ("0.00", 2), ("100.00", 2), ("100.00", 2), ("50.00", 2),
                                ("50.00", 2), ("0.00", 1), ("100.00", 1), ("0.00", 1), ("0.00", 2), ("50.00", 2),
                                ("50.00", 2), ("50.00", 4)]
    # K: nothing supported (an en dash), never refuses (AP 0 over no refusals, as the paper prints 0.00)
    assert cells["model-K"][6] == ("–", None) and cells["model-K"][10:] == [("0.00", None), ("0.00", 2),
                                                                              ("0.00", 4)]
    assert cells["General-purpose average"][0] == ("66.67", 1)
    assert [r["label"] for r in t["rows"] if r["kind"] == "section"] == ["General-purpose models",
                                                                          "Chart-specific models"]


def test_legendbench_table_6_channel_study_per_model(legend_report):
    assert "legendbench-6-model-k" not in legend_report  # K ran no channel study
    cells = _cells(legend_report["legendbench-6-model-g"])
    # grounding pools bind and value-extraction rows
    assert cells == {"Color": [("1.00", 4), ("0.50", 4), ("1.00", 4)], "Marker": [("0.00", 4), ("1.00", 4),
                                                                                  ("0.00", 4)]}
    assert legend_report["legendbench-6-model-g"]["rows"][0] == {"label": "Point marks", "kind": "section",
                                                                 "cells": []}


def test_legendbench_table_7_visibility_study_per_model(legend_report):
    cells = _cells(legend_report["legendbench-7-model-g"])
    # Mask_Full: 1 hit of 1 refusal, 1 of 2 unanswerable -> AF1 2/3; Keep_Target: its one refusal is wrong
    assert cells == {"Mask_Full": [("1.00", 1), ("0.50", 2), ("0.67", None)],
                     "Keep_Target": [("0.00", 1), ("0.00", 1), ("0.00", None)]}


# --- ChartJudgeBench --------------------------------------------------------------------------------
# Model P (proprietary): CPA pairs p1 (color, bar) right both ways, p2 (color, line) "A" both ways (position
# bias), p3 (encoding, bar) right; CRJ editing: TP, FP, TN and an unparsable Accept (a FN); reproduction TP, TN.
# Model Q (open-source): always "B"; CRJ editing: a FN and a TN; no reproduction run.


def _judge(model: str) -> list[dict]:
    picks = {"P": {"p1": ("A", "B"), "p2": ("A", "A"), "p3": ("A", "B")},
             "Q": {"p1": ("B", "B"), "p2": ("B", "B"), "p3": ("B", "B")}}[model]
    meta = {"p1": ("color_consistency", "visual_effects", "bar"), "p2": ("color_consistency", "visual_effects", "line"),
            "p3": ("data_encoding", "data_fidelity", "bar")}
    rows = []
    for pair, (first, second) in picks.items():
        criterion, dimension, kind = meta[pair]
        for order, choice, gold in (("better_first", first, "A"), ("worse_first", second, "B")):
            rows.append({"task": "chartprobe_judge_cpa", "pair_id": pair, "order": order, "criterion": criterion,
                         "dimension": dimension, "chart_kind": kind, "choices": [choice], "correct": choice == gold})
    crj = {"P": [("edit", "e1", "Accept", "accept"), ("edit", "e2", "Reject", "accept"),
                 ("edit", "e3", "Reject", "reject"), ("edit", "e4", "Accept", None),
                 ("repro", "r1", "Accept", "accept"), ("repro", "r2", "Reject", "reject")],
           "Q": [("edit", "e1", "Accept", "reject"), ("edit", "e2", "Reject", "reject")]}[model]
    for task, item, label, verdict in crj:
        rows.append({"task": f"chartprobe_judge_crj_{task}", "item_id": item, "label": label, "verdicts": [verdict],
                     "crj_task": "editing" if task == "edit" else "reproduction",
                     "correct": verdict is not None and verdict == label.lower()})
    return rows


@pytest.fixture(scope="module")
def judge_report(tmp_path_factory):
    root = tmp_path_factory.mktemp("paper-tables-judge")
    models = {}
    for model in ("P", "Q"):
        records = _judge(model)
        for i, r in enumerate(records):
            r["doc_id"] = i
        models[f"model-{model}"] = {"records": {"judge": to_columns(records)}}
    (root / "results.json").write_text(json.dumps({"format": FORMAT, "models": models}))
    (root / "groups.yaml").write_text(GROUPS.replace("model-A, model-B", "model-P").replace("model-C", "model-Q"))
    assert main(["report", str(root / "results.json"), "--out", str(root / "rep"), "--paper-tables",
                 "--model-groups", str(root / "groups.yaml")]) == 0
    return {t["key"]: t for t in json.loads((root / "rep" / "report.json").read_text())["paper_tables"]}


def test_chartjudgebench_table_1_cpa_by_criterion(judge_report):
    t = judge_report["chartjudgebench-1"]
    assert t["spans"] == [["Visual Effects", 3], ["Data Fidelity", 2], ["Layout Structure", 2], ["", 1]]
    assert "(chartprobe's prompts)" in t["title"]
    cells = _cells(t)
    # Color: p1 right, p2 biased -> 1/2; Encoding 1/1; Avg. the mean of the criteria asked, over 3 pairs
    assert cells["model-P"] == [("50.0", 2), ("–", None), ("–", None), ("–", None), ("100.0", 1), ("–", None),
                                ("–", None), ("75.0", 3)]
    assert cells["model-Q"][0] == ("0.0", 2) and cells["Open-source average"][7] == ("0.0", 1)


def test_chartjudgebench_table_2_crj(judge_report):
    cells = _cells(judge_report["chartjudgebench-2"])
    # editing TP, FP, TN, FN: every rate 1/2; reproduction all right
    assert cells["model-P"] == [("50.0", 4)] * 5 + [("100.0", 2)] * 5
    # Q: FN, TN -> acc 1/2, no Accept predicted (precision 0 by convention), recall 0, specificity 1
    assert cells["model-Q"][:5] == [("50.0", 2), ("0.0", 2), ("0.0", 2), ("0.0", 2), ("100.0", 2)]
    assert cells["model-Q"][5:] == [("–", None)] * 5


def test_chartjudgebench_table_5_cpa_by_chart_type(judge_report):
    t = judge_report["chartjudgebench-5"]
    assert t["columns"] == ["Model", "Bar", "Line", "Avg."]
    assert _cells(t)["model-P"] == [("100.0", 2), ("0.0", 1), ("50.0", 3)]


def test_chartjudgebench_figure_5_position_preference(judge_report):
    cells = _cells(judge_report["chartjudgebench-fig5"])
    assert cells["model-P"] == [("66.7", 6), ("33.3", 6)] and cells["model-Q"] == [("0.0", 6), ("100.0", 6)]


# --- the fine-tuning studies: ChartProbe Tables 1-3, LegendBench Table 5 --------------------------------


def _stat(mean: float, seeds: int = 3) -> dict:
    return {"mean": mean, "sd": 0.01 if seeds > 1 else 0.0, "n_seeds": seeds}


def _study(benchmark: str, settings: list[list[str]], capability: dict, crossed: dict, design: str) -> dict:
    return {"format": "chartprobe-study/1", "benchmark": benchmark, "model": "tiny-vlm", "seeds": [42, 43, 44],
            "budget": None, "tasks": "t", "profile_splits": {}, "design": design, "settings": settings,
            "tables": {"capability": capability, "crossed": crossed, "crossed_dimension": "domain_skill",
                       "crossed_title": "domain x skill"}}


PROBES_CROSSED = {  # setting -> domain/skill -> mean: base, then perception-only and grounding-only LoRA
    "base": {"bar/perception": .40, "bar/grounding": .50, "bar/reasoning": .30,
             "pie/perception": .20, "pie/grounding": .10, "pie/reasoning": .05},
    "P": {"bar/perception": .80, "bar/grounding": .45, "bar/reasoning": .35,
          "pie/perception": .60, "pie/grounding": .15, "pie/reasoning": .05},
    "G": {"bar/perception": .40, "bar/grounding": .70, "bar/reasoning": .30,
          "pie/perception": .25, "pie/grounding": .60, "pie/reasoning": .10}}
PROBES_CAPABILITY = {"CR bar (fuzzy)": {"base": .24, "P": .30, "G": .28}, "CR pie (fuzzy)": {"base": .26, "P": .40, "G": .20},
                     "chartqa relaxed_accuracy,none (lm-eval)": {"base": .50, "P": .55, "G": .52},
                     "all rows": {"base": .30, "P": .50, "G": .45}}
LEGEND_CAPABILITY = {"QA Acc": {"base": .60, "random": .65, "bottleneck": .70},
                     "Chain Acc": {"base": .30, "random": .32, "bottleneck": .40},
                     "CR": {"base": .50, "random": .45, "bottleneck": .55},
                     "AF1": {"base": .10, "random": .20, "bottleneck": .15},
                     "chartqa relaxed_accuracy,none (lm-eval)": {"base": .80, "random": .78, "bottleneck": .84},
                     "all rows": {"base": .5, "random": .5, "bottleneck": .5}}


def _stats(by_setting: dict) -> dict:
    return {k: _stat(v, 1 if k == "base" else 3) for k, v in by_setting.items()}


@pytest.fixture(scope="module")
def study_report(tmp_path_factory):
    root = tmp_path_factory.mktemp("paper-tables-study")
    probes = _study("probes", [["base", "Base"], ["P", "P"], ["G", "G"]],
                    {name: _stats(v) for name, v in PROBES_CAPABILITY.items()},
                    {s: {c: _stat(m, 1 if s == "base" else 3) for c, m in cells.items()}
                     for s, cells in PROBES_CROSSED.items()}, "skill_sets")
    legend = _study("legend", [["base", "Base"], ["random", "Random FT"], ["bottleneck", "Bottleneck FT"]],
                    {name: _stats(v) for name, v in LEGEND_CAPABILITY.items()}, {}, "selection")
    for name, doc in (("probes", probes), ("legend", legend)):
        (root / f"{name}.json").write_text(json.dumps(doc))
    (root / "results.json").write_text(json.dumps({"format": FORMAT, "models": {}}))
    assert main(["report", str(root / "results.json"), "--out", str(root / "rep"), "--paper-tables", "--study",
                 str(root / "probes.json"), str(root / "legend.json")]) == 0
    tables = {t["key"]: t for t in json.loads((root / "rep" / "report.json").read_text())["paper_tables"]}
    return {"tables": tables, "out": root / "rep"}


def _changes(table: dict) -> dict[str, list[tuple[str, float | None]]]:
    return {r["label"]: [(c["text"], None if c.get("delta") is None else round(100 * c["delta"], 1))
                         for c in r["cells"]] for r in table["rows"]}


def test_chartprobe_table_1_domain_by_skill_with_changes_over_base(study_report):
    t = study_report["tables"]["chartprobe-1"]
    assert t["spans"] == [["Bar", 3], ["Pie", 3]] and t["columns"] == ["Setting", "P", "G", "SR", "P", "G", "SR"]
    rows = _changes(t)
    assert rows["Base"] == [("40.0", None), ("50.0", None), ("30.0", None), ("20.0", None), ("10.0", None),
                            ("5.0", None)]
    assert rows["P"] == [("80.0", 40.0), ("45.0", -5.0), ("35.0", 5.0), ("60.0", 40.0), ("15.0", 5.0), ("5.0", 0.0)]
    md = (study_report["out"] / "paper_tables" / "chartprobe-1.md").read_text()
    # best per column in bold, the change as the paper's subscript, n = seeds
    assert ("| P | **80.0**<sub>↑40.0</sub> (3) | 45.0<sub>↓5.0</sub> (3) | **35.0**<sub>↑5.0</sub> (3) | "
            "**60.0**<sub>↑40.0</sub> (3) | 15.0<sub>↑5.0</sub> (3) | 5.0<sub>0.0</sub> (3) |") in md
    tex = (study_report["out"] / "paper_tables" / "chartprobe-1.tex").read_text()
    assert r"\textbf{80.0}\textsubscript{$\uparrow$40.0}\,{\scriptsize(3)}" in tex


def test_chartprobe_tables_2_and_3_cr_and_transfer(study_report):
    cr = _changes(study_report["tables"]["chartprobe-2"])
    assert study_report["tables"]["chartprobe-2"]["columns"] == ["Setting", "Bar", "Pie"]
    assert cr == {"Base": [("24.0", None), ("26.0", None)], "P": [("30.0", 6.0), ("40.0", 14.0)],
                  "G": [("28.0", 4.0), ("20.0", -6.0)]}
    transfer = study_report["tables"]["chartprobe-3"]
    assert transfer["columns"] == ["Setting", "chartqa relaxed_accuracy,none"]
    assert _changes(transfer)["P"] == [("55.0", 5.0)]


def test_legendbench_table_5_fine_tuning(study_report):
    t = study_report["tables"]["legendbench-5"]
    assert t["columns"] == ["Setting", "QA Acc", "Chain Acc", "CR", "AF1", "chartqa relaxed_accuracy,none"]
    rows = _changes(t)
    assert rows["Random FT"] == [("65.0", 5.0), ("32.0", 2.0), ("45.0", -5.0), ("20.0", 10.0), ("78.0", -2.0)]
    assert rows["Bottleneck FT"] == [("70.0", 10.0), ("40.0", 10.0), ("55.0", 5.0), ("15.0", 5.0), ("84.0", 4.0)]
    order = (study_report["out"] / "paper_tables.md").read_text()
    assert order.index("LegendBench Table 5") < order.index("ChartProbe Table 1")


def test_judge_tables_prefer_the_released_protocols_records(tmp_path):
    """With `_paper` tasks rescored (suite ``judge_paper``), a model's tables read them, not ours."""
    right = [{**r, "task": r["task"] + "_paper", "choices": ["A" if r["order"] == "better_first" else "B"],
              "correct": True} for r in _judge("P") if "pair_id" in r]
    models = {"model-P": {"records": {"judge": to_columns(_judge("P")), "judge_paper": to_columns(right)}},
              "model-Q": {"records": {"judge": to_columns(_judge("Q"))}}}
    for entry in models.values():
        for cols in entry["records"].values():
            cols["doc_id"] = list(range(len(cols["task"])))
    (tmp_path / "results.json").write_text(json.dumps({"format": FORMAT, "models": models}))
    assert main(["report", str(tmp_path / "results.json"), "--out", str(tmp_path / "rep"), "--paper-tables"]) == 0
    tables = {t["key"]: t for t in json.loads((tmp_path / "rep" / "report.json").read_text())["paper_tables"]}
    t = tables["chartjudgebench-1"]
    assert "(mixed protocols)" in t["title"]
    assert _cells(t)["model-P"][0] == ("100.0", 2) and _cells(t)["model-Q"][0] == ("0.0", 2)
    # no CRJ `_paper` run: Table 2 reads ours, and says so
    assert _cells(tables["chartjudgebench-2"])["model-P"][0] == ("50.0", 4)
    assert "(chartprobe's prompts)" in tables["chartjudgebench-2"]["title"]


def test_chartjudgebench_figures_7_and_8_accuracy_and_accept_rate(judge_report):
    fig7 = _cells(judge_report["chartjudgebench-fig7"])
    # P: one-pass 5 of 6 orders pick the better chart (p2's worse-first order picks A); two-pass 2 of 3 pairs;
    # CRJ edit 2/4, reproduction 2/2
    assert fig7["model-P"] == [("83.3", 6), ("66.7", 3), ("50.0", 4), ("100.0", 2)]
    assert fig7["model-Q"] == [("50.0", 6), ("0.0", 3), ("50.0", 2), ("–", None)]
    fig8 = _cells(judge_report["chartjudgebench-fig8"])
    # accepted: P edit e1, e2 (e4 unparsable) -> 2/4, reproduction r1 -> 1/2; Q accepts nothing
    assert fig8["model-P"] == [("50.0", 4), ("50.0", 2)] and fig8["model-Q"] == [("0.0", 2), ("–", None)]
