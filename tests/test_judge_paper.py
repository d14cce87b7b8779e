"""The paper-protocol ChartJudgeBench tasks (``chartprobe_judge_*_paper``) against the released code.

The released evaluation code is ``CSU-JPG/ChartJudgeBench``; the rules reimplemented in
``chartprobe.eval_tasks.metrics.judge_paper`` come from its ``chartjudge_bench/parsing.py`` and
``scoring.py`` (commit 63ea244), the prompts from ``prompt_assets/paper_v1`` (commit 84510713),
whose ``manifest.json`` records the sha256 values checked here. The peer numbers are the
Qwen2-VL-7B Chart Reproduction row of the paper's Table 2.
"""

from __future__ import annotations

import base64
import glob
import hashlib
import json
from pathlib import Path

import pytest
from chartprobe.eval_tasks.metrics import judge as jm
from chartprobe.eval_tasks.metrics import judge_paper as jp
from chartprobe.eval_tasks.scoring import paper_prompts as pp
from chat_standin import recording_server
from lm_eval_run import run_chartprobe_eval

# prompt_assets/paper_v1/manifest.json of the released code: name -> sha256 of the prompt text
RELEASED_MANIFEST = {
    "chart_reproduction_system": "edd6825266a513281e3a32063cc50e782a5b322956fae548db6a30dfbe3e3be8",
    "chart_editing_system": "d8c6aee9ef4c33bd67c1d0c25ce4160174165834df53036cf4b8b8c4593348ed",
    "cpa_system_instruction": "2302f7ce41f73904c573d006f0df9e747e5fb93f3dde858bc09e90d68a7cb17e",
}


@pytest.mark.parametrize("name", sorted(RELEASED_MANIFEST))
def test_frozen_prompts_are_byte_identical_to_the_released_files(name):
    text = pp.released_prompt(f"chartjudgebench_{name}")
    assert hashlib.sha256(text.encode()).hexdigest() == RELEASED_MANIFEST[name]


def test_an_edited_prompt_is_refused(tmp_path, monkeypatch):
    for f in pp.PAPER_DIR.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    target = tmp_path / "chartjudgebench_chart_editing_system.txt"
    target.write_bytes(target.read_bytes().replace(b"strict", b"lenient"))
    monkeypatch.setattr(pp, "PAPER_DIR", tmp_path)
    pp.released_prompt.cache_clear()
    try:
        with pytest.raises(pp.PaperPromptChangedError, match="byte-identical"):
            pp.released_prompt("chartjudgebench_chart_editing_system")
    finally:
        pp.released_prompt.cache_clear()


@pytest.mark.parametrize(("text", "choice"), [
    ("<think>A is cleaner</think> \\boxed{Image A}", "A"),
    ("\\boxed{image b}", "B"),
    ("<think>maybe \\boxed{Image B}</think> \\boxed{Image A}", "B"),  # the first box, thinking included
    ("[Answer]: Image A\n[Reason]: clean", "A"),  # the [Answer] fallback
    ("\\boxed{ImageA} [Answer]: Image B", None),  # a boxed match that is not "Image A" ends the search
    ("Image A is better", None),
    ("\\boxed{A}", None),
    ("", None),
])
def test_released_cpa_parser(text, choice):
    assert jp.parse_choice_released(text) == choice


@pytest.mark.parametrize(("text", "verdict"), [
    ("[Answer]: Accept\n[Reason]: Data Accuracy: all bars match.", "accept"),
    ("[answer] reject", "reject"),
    ("<think>I could Accept it</think>[Answer]: Reject", "reject"),
    ("Reject: the legend is missing", "reject"),  # case-sensitive substring fallback
    ("I accept this", None),  # lower-case words are not the fallback's
    ("Accept or Reject? Hard to say.", None),
    (None, None),
])
def test_released_crj_parser(text, verdict):
    assert jp.parse_verdict_released(text) == verdict


def _crj_records(tp, fp, tn, fn, unparsable=0, unparsable_text="Accept or Reject? Hard to say."):
    """Items with released-format answers: ``unparsable`` of the Reject-gold items get ``unparsable_text``."""
    recs, n = [], 0
    for gold, said, count in (("Accept", "Accept", tp), ("Reject", "Accept", fp), ("Reject", "Reject", tn),
                              ("Accept", "Reject", fn), ("Reject", None, unparsable)):
        for _ in range(count):
            text = unparsable_text if said is None else f"[Answer]: {said}\n[Reason]: Data Accuracy: checked."
            recs.append({"item_id": f"i{n}", "label": gold, "text": text})
            n += 1
    return recs


def _score_released(recs):
    return jp.crj_paper_metrics([{**r, "verdicts": [jp.parse_verdict_released(r["text"])]} for r in recs])


def test_released_rules_reproduce_the_papers_qwen2_vl_7b_reproduction_row():
    """Table 2, Qwen2-VL-7B, Chart Reproduction (315 items): Acc 52.4, Prec 51.0, Rec 99.4, Spec 6.3,
    F1 67.4. The only confusion matrix those five rounded numbers admit is TP 155, FP 149, TN 10,
    FN 1, with no parse failure (checked by search below); its precision is 155/304 = 0.5099."""
    admissible = [(tp, fp, tn, fn) for tp in range(316) for fp in range(316 - tp) for tn in range(316 - tp - fp)
                  for fn in [315 - tp - fp - tn]
                  if tp + tn == 165 and tp + fp and tp + fn and tn + fp
                  and round(100 * tp / (tp + fp), 1) == 51.0 and round(100 * tp / (tp + fn), 1) == 99.4
                  and round(100 * tn / (tn + fp), 1) == 6.3]
    assert admissible == [(155, 149, 10, 1)]
    m = _score_released(_crj_records(155, 149, 10, 1))
    assert [round(100 * m[k], 1) for k in ("accuracy", "precision", "recall", "specificity", "f1")] == \
        [52.4, 51.0, 99.4, 6.3, 67.4]
    assert m["precision"] == pytest.approx(0.5099, abs=5e-5) and m["parse_fail_rate"] == 0


def test_unparsable_verdicts_leave_precision_under_the_released_rule_and_only_there():
    """12 of the row's 149 false accepts made unparsable: the released rule drops them from precision,
    specificity and F1 (precision 155/292 = 0.5308) but still counts them wrong in accuracy; our
    default rule counts each as the wrong label, an Accept, so precision stays 0.5099."""
    recs = _crj_records(155, 137, 10, 1, unparsable=12)
    released = _score_released(recs)
    assert released["precision"] == pytest.approx(155 / 292) and round(released["precision"], 4) == 0.5308
    assert released["accuracy"] == pytest.approx(165 / 315) and released["parse_fail_rate"] == pytest.approx(12 / 315)
    assert released["specificity"] == pytest.approx(10 / 147)
    ours = jm.crj_metrics([{**r, "verdicts": [jm.parse_verdict(r["text"])]} for r in recs])
    assert round(ours["precision"], 4) == 0.5099 and ours["specificity"] == pytest.approx(10 / 159)


def test_released_cpa_outcomes_and_voting():
    """Pair outcomes from released-format answers; with three samples, a first wrong answer is outvoted."""
    def rec(pid, order, *texts):
        return {"pair_id": pid, "order": order, "criterion": "axis_scaling", "dimension": "data_fidelity",
                "chart_kind": "bar", "choices": [jp.parse_choice_released(t) for t in texts]}

    a, b = "<think>...</think>\\boxed{Image A}", "\\boxed{Image B}"
    records = [rec("p0", "better_first", a), rec("p0", "worse_first", b),  # correct
               rec("p1", "better_first", a), rec("p1", "worse_first", a),  # bias A
               rec("p2", "better_first", "[Answer]: Image B"), rec("p2", "worse_first", "no idea")]  # parse fail
    s = jm.cpa_summary(records)
    assert (s["two_pass_accuracy"], s["bias_a_rate"], s["parse_fail_rate"]) == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    voted = [rec("p0", "better_first", b, a, a), rec("p0", "worse_first", b, b, a)]
    assert jm.cpa_summary(voted, k=1)["two_pass_accuracy"] == 0
    assert jm.cpa_summary(voted, k=3)["two_pass_accuracy"] == 1


def _reply(body):
    """Answer each task in its released format, from the text it was asked."""
    text = "".join(p.get("text", "") for m in body["messages"] if isinstance(m["content"], list)
                   for p in m["content"])
    return "<think>Image A is cleaner.</think> \\boxed{Image A}" if "Which image is better" in text \
        else "[Answer]: Accept\n[Reason]: Data Accuracy: matches."


def _image(part):
    assert part["type"] == "image_url" and part["image_url"]["url"].startswith("data:image/png;base64,")
    return base64.b64decode(part["image_url"]["url"].split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_api_model_receives_the_released_layout_and_decoding(release_root, tmp_path):
    """``chartprobe eval --model chartprobe-chat-completions`` on the paper tasks: the stand-in records
    the interleaved CPA turn, the reproduction prompt as the system turn, temperature 0.1 / top-p 0.9
    and 512 tokens; lm-eval's table scores the scripted answers by the released rules."""
    out = tmp_path / "results"
    with recording_server(_reply) as server:
        argv = ["--model", "chartprobe-chat-completions", "--apply_chat_template", "--model_args",
                (f"model=standin,base_url={server.base_url}/chat/completions,max_images=2,interleave=True,"
                 "tokenizer_backend=None,num_concurrent=1,max_retries=1"),
                "--tasks", "chartprobe_judge_cpa_paper,chartprobe_judge_crj_repro_paper", "--limit", "4",
                "--output_path", str(out)]
        run_chartprobe_eval(argv, release_root, tmp_path)
        requests = list(server.requests)
    assert len(requests) == 8
    cpa_prompt = pp.released_prompt("chartjudgebench_cpa_system_instruction")
    cpa = [r for r in requests if len(r["messages"]) == 1]
    repro = [r for r in requests if len(r["messages"]) == 2]
    assert len(cpa) == 4 and len(repro) == 4
    for r in requests:
        assert (r["temperature"], r["top_p"], r["max_tokens"]) == (0.1, 0.9, 512)
    for r in cpa:
        parts = r["messages"][0]["content"]
        assert [p["type"] for p in parts] == ["text", "image_url", "text", "image_url", "text"]
        assert parts[0]["text"] == cpa_prompt + "\n\nImage A:\n"
        assert parts[2]["text"] == "\nImage B:\n" and _image(parts[1]) and _image(parts[3])
        assert parts[4]["text"] == "\nWhich image is better? Remember to put the choice in \\boxed{}."
    for r in repro:
        system, user = r["messages"]
        assert system == {"role": "system", "content": pp.released_prompt("chartjudgebench_chart_reproduction_system")}
        assert [p.get("text") for p in user["content"] if p["type"] == "text"] == [
            "Here is the comparison:--- [Ground Truth Image] (Target) ---", "--- [Generated Image] (Model Output) ---",
            "Based on the User Query and Criteria, should we [Accept] or [Reject] this reproduction?"]
    (path,) = glob.glob(str(out / "**" / "results_*.json"), recursive=True)
    results = json.loads(Path(path).read_text())["results"]
    cpa_res, repro_res = results["chartprobe_judge_cpa_paper"], results["chartprobe_judge_crj_repro_paper"]
    # Always "Image A": every whole pair is position-A bias, none unparsed.
    assert (cpa_res["bias_a_rate,none"], cpa_res["two_pass_accuracy,none"], cpa_res["parse_fail_rate,none"]) == (1, 0, 0)
    assert repro_res["recall,none"] in (0.0, 1.0) and repro_res["parse_fail_rate,none"] == 0
