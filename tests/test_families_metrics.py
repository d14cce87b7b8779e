"""Chartographer family metrics reproduce the paper's arithmetic (§3.4, A.8, Tables 1, 3, 8, 9)."""

from __future__ import annotations

import importlib.util
import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import ClassVar

import pytest
from chartprobe.eval_tasks.answer_judge.equivalence import Judge
from chartprobe.eval_tasks.harness.runner import tasks_path
from chartprobe.eval_tasks.metrics import families as fm
from chartprobe.eval_tasks.scoring.typed import score_answer
from datasets import load_dataset


def _family(fid, original, recon, variants, preds=None, rtype="visual"):
    """Records of one family: correctness flags and (optional) normalized predictions."""
    preds = preds or {}
    recs = [{"family_id": fid, "role": "original", "correct": original, "normalized": preds.get("o", "a"),
             "reasoning_type": rtype},
            {"family_id": fid, "role": "reconstruction", "correct": recon, "normalized": "a",
             "reasoning_type": rtype}]
    for j, ok in enumerate(variants):
        recs.append({"family_id": fid, "role": "variant", "variant_seed": j, "correct": ok,
                     "normalized": preds.get(j, f"p{j}"), "reasoning_type": rtype})
    return recs


def test_oa_ra_agreement_from_table_9_chartqa_counts():
    """Table 9 ChartQA pooled counts 170/95/91/1,894 give Table 8's OA–RA agreement 0.917."""
    counts = {(False, False): 170, (False, True): 95, (True, False): 91, (True, True): 1894}
    records = []
    for (o, r), n in counts.items():
        for i in range(n):
            records += _family(f"{o}{r}{i}", o, r, [])
    table = fm.o_r_table(records)
    assert table == {"O-R-": 170, "O-R+": 95, "O+R-": 91, "O+R+": 1894}
    assert round(fm.agreement(table), 3) == 0.917


def test_rvc_of_the_proprietary_chartqa_average():
    """Table 1: OA 0.916, VA 0.886 -> RVC -3.3."""
    assert round(fm.relative_change(0.886, 0.916), 1) == -3.3
    assert fm.relative_change(0.5, 0.0) is None


def test_oa_ra_va_cva_and_reconstruction_controls():
    records = (_family("a", True, True, [True] * 8 + [False] * 2)
               + _family("b", False, True, [True] * 10)
               + _family("c", True, False, [False] * 10))
    assert fm.accuracy(records, "original") == pytest.approx(2 / 3)
    assert fm.accuracy(records, "reconstruction") == pytest.approx(2 / 3)
    assert fm.accuracy(records, "variant") == pytest.approx(18 / 30)
    assert fm.conditional_variant_accuracy(records) == pytest.approx(8 / 20)  # families a and c
    assert fm.conditional_variant_accuracy(records, "reconstruction") == pytest.approx(18 / 20)  # a and b
    summary = fm.family_summary(records)
    assert summary["RVC"] == pytest.approx(100 * (0.6 - 2 / 3) / (2 / 3))
    assert summary["RVC_R"] == pytest.approx(summary["RVC"])
    assert summary["families"] == 3


def test_update_outcomes_split_correct_stale_and_noisy():
    # Original answered "x" correctly; variants: 6 correct, 3 repeat "x" and are wrong, 1 other wrong.
    preds = {"o": "x", 6: "x", 7: "x", 8: "x", 9: "y"}
    records = _family("f", True, True, [True] * 6 + [False] * 4, preds) + _family("g", False, False, [False] * 10)
    out = fm.update_outcomes(records)
    assert out == {"CU": 0.6, "NU": 0.1, "SP": pytest.approx(0.3), "n": 10}  # family g is not in D
    assert out["CU"] + out["NU"] + out["SP"] == pytest.approx(1.0)


def test_sign_flip_permutation_test_and_stars():
    # 12 families solved originally and failed on every variant: exact two-sided p = 2 / 2^12.
    failing = [r for i in range(12) for r in _family(f"f{i}", True, True, [False] * 10)]
    p = fm.sign_flip_test(failing)
    assert p == pytest.approx(2 / 2 ** 12)
    assert fm.stars(p) == "***"
    unchanged = [r for i in range(12) for r in _family(f"u{i}", True, True, [True] * 10)]
    assert fm.sign_flip_test(unchanged) == 1.0 and fm.stars(1.0) == ""
    assert (fm.stars(0.04), fm.stars(0.009), fm.stars(0.2)) == ("*", "**", "")
    one = _family("solo", True, True, [False] * 10)  # one family: both signs give the same |mean|
    assert fm.sign_flip_test(one) == 1.0


def test_per_reasoning_type_cva():
    records = _family("t", True, True, [True] * 10, rtype="text") + _family("v", True, True, [False] * 10)
    per = fm.per_reasoning_type(records)
    assert per["text"]["CVA"] == 1.0 and per["visual"]["CVA"] == 0.0


def test_items_roundtrip_through_the_lm_eval_tuple():
    rec = {"family_id": "f", "role": "variant", "variant_seed": 3, "correct": True, "normalized": "x",
           "original_answer": "y", "reasoning_type": "text", "judge": "typed"}
    assert fm.from_items([fm.to_item(rec)]) == [rec]


def _utils():
    spec = importlib.util.spec_from_file_location("families_utils", Path(tasks_path()) / "families_utils.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_memorizing_agent_gets_full_oa_and_cva_equal_to_unchanged_share(release_root):
    """Acceptance 3: always answering the original's gold answer -> OA = 1, CVA = unchanged share."""
    rows = load_dataset(str(release_root / "chartprobe-families"), "all", split="test")
    rows = rows.remove_columns(["image"]).to_list()
    utils = _utils()
    items = [utils.process_results(r, [f"<answer>{r['original_answer']}</answer>"])["original_accuracy"] for r in rows]
    variants = [r for r in rows if r["role"] == "variant"]
    # "Unchanged" as the scorer judges it: the original's answer within the variant's own tolerance
    # (a printed number is exact to its last digit).
    unchanged = sum(score_answer(r["original_answer"], r["answer"], r["answer_type"],
                                 tolerance=r.get("tolerance") or None).correct for r in variants) / len(variants)
    assert utils.original_accuracy(items) == 1.0 and utils.reconstruction_accuracy(items) == 1.0
    assert utils.conditional_variant_accuracy(items) == pytest.approx(unchanged)
    assert utils.correct_update_rate(items) == pytest.approx(unchanged)
    assert utils.stale_prediction_rate(items) == pytest.approx(1 - unchanged) and utils.noisy_update_rate(items) == 0.0
    assert utils.relative_variant_change_pct(items) == pytest.approx(100 * (unchanged - 1))
    assert utils.relative_variant_change_p(items) < 0.05


def test_small_n_sign_flip_p_is_exact_and_shared_with_lm_eval():
    """16 families: exact p = 2 / 2^16 (a 9,999-resample p could not go below 1e-4), and lm-eval's
    ``rvc_p`` and ``chartprobe score``'s summary print the same value."""
    failing = [r for i in range(16) for r in _family(f"f{i}", True, True, [False] * 10)]
    p = fm.sign_flip_test(failing)
    assert p == pytest.approx(2 / 2 ** 16)
    from chartprobe.eval_tasks.suites import suite_for_release

    assert _utils().relative_variant_change_p([fm.to_item(r) for r in failing]) == pytest.approx(p)
    assert suite_for_release("families").summarize(failing)["RVC_p"] == pytest.approx(p)
    many = [r for i in range(40) for r in _family(f"m{i}", True, True, [False] * 10)]
    assert _utils().relative_variant_change_p([fm.to_item(r) for r in many]) == suite_for_release("families").summarize(many)["RVC_p"]


def test_resolution_rows_scored_with_the_families_task_are_not_extra_reconstructions(release_root, tmp_path):
    """Issue: scoring chartprobe_families_resolution with chartprobe_families counted the 100/75/50%
    rescaled reconstructions as reconstructions (RA 0.156 instead of 0.625)."""
    from chartprobe.eval_tasks.rescoring.predictions import load_release_rows, write_samples
    from chartprobe.eval_tasks.rescoring.rescore import score_samples

    rows = load_release_rows(release_root / "chartprobe-families")
    main, res = rows[("all", "test")], rows[("resolution", "test")]
    # Right on originals and reconstructions, wrong on variants; wrong on every rescaled copy.
    right = [r["answer"] if r["role"] != "variant" else "no idea" for r in main]
    folder = tmp_path / "model"
    write_samples(folder, "chartprobe_families", main, [f"<answer>{a}</answer>" for a in right])
    write_samples(folder, "chartprobe_families_resolution", res, ["<answer>no idea</answer>"] * len(res))
    summary = score_samples([folder], releases=release_root)["models"]["model"]["suites"]["families"]
    assert summary["RA"] == 1.0 and summary["OA"] == 1.0 and summary["VA"] == 0.0
    assert summary["RVC_R"] == -100.0 and summary["n"] == len(main)


class _JudgeHandler(BaseHTTPRequestHandler):
    requests: ClassVar[list] = []

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(body)
        prompt = body["messages"][0]["content"]
        reply = "Yes" if "Answer 1: 42\nAnswer 2: 42.0" in prompt else ("maybe" if "odd" in prompt else "No")
        payload = json.dumps({"model": "judge-v1", "choices": [{"message": {"content": reply}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


def test_llm_judge_contract_against_a_loopback_endpoint(tmp_path):
    """Contract test of our calls (released prompt, temperature 0, 128 tokens), not of a real judge;
    a reply that is neither Yes nor No is an unparsable verdict, counted wrong, never an error."""
    from chartprobe.eval_tasks.answer_judge.client import fill_prompt

    server = HTTPServer(("127.0.0.1", 0), _JudgeHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        judge = Judge(base_url=f"http://127.0.0.1:{server.server_port}/v1", model="judge", cache_dir=str(tmp_path))
        doc = {"family_id": "f", "role": "variant", "question": "How many?", "answer": "42",
               "answer_type": "number", "original_answer": "40"}
        rec = fm.score_family_record(doc, "<answer>42.0</answer>", judge)
        assert rec["correct"] and rec["judge"] == "judge@judge-v1" and rec["normalized"] == "42"
        assert rec["judge_verdict"] == "yes"
        assert not fm.score_family_record(doc, "<answer>41</answer>", judge)["correct"]
        odd = judge.decide("odd question", "1", "2")
        assert (odd.correct, odd.verdict) == (False, "unparsable") and judge.counts()["parse_fail"] == 1
        sent = _JudgeHandler.requests[0]
        assert sent["temperature"] == 0 and sent["max_tokens"] == 128
        assert sent["messages"] == [{"role": "user", "content": fill_prompt("How many?", "42", "42.0")}]
    finally:
        server.shutdown()
