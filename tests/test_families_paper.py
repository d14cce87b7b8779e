"""``chartprobe_families_paper``: Chartographer's released evaluation protocol, checked against its code.

The released code is ``compling-wat/Chartographer`` at commit 1f02025c: the QA prompt is
``CHARTMUSEUM_PROMPTS["QA"]`` in ``src/config/task_prompts.py``; ``generate_predictions.py`` fills
``[QUESTION]`` and sends one user message, the clients append the image after its text, decode
1,024 new tokens (local) or send no limit and no temperature (API); ``src/common/answers.py``
extracts the first ``<answer>`` block of ``response + "</answer>"``, else the whole response.
"""

from __future__ import annotations

import base64
import glob
import hashlib
import json
import logging
from pathlib import Path

import pytest
from chartprobe.eval_tasks.harness.interleaved_chat import decoding_fields
from chartprobe.eval_tasks.metrics import families as fm
from chartprobe.eval_tasks.rescoring import data
from chartprobe.eval_tasks.scoring import paper_prompts as pp
from chat_standin import recording_server
from lm_eval_run import run_chartprobe_eval

# sha256 of the released string value CHARTMUSEUM_PROMPTS["QA"] (no final newline), computed when it
# was copied; the released repository has no manifest
RELEASED_QA_SHA256 = "0e4af9051f462a7cdeffe55c33663eaeebe63d1eb2ad69962b332a4582c462a6"


def test_qa_prompt_is_the_released_string():
    text = pp.released_prompt("chartographer_qa")
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == RELEASED_QA_SHA256
    # what the earlier hand-written task prompt lost: the stray leading quote, line breaks, trailing spaces
    assert text.startswith('"Please answer the question using the chart image.\n\nQuestion: [QUESTION]\n\n')
    assert text.count("[QUESTION]") == 1 and "<rationale> \n" in text and text.endswith("\n</answer>")


def test_layout_fills_the_question_and_puts_the_image_after_the_text():
    lay = pp.layout("chartographer_layout", "qa")
    assert lay.images() == ["image"] and lay.system is None
    prompt = pp.render(lay, {"question": "Which year is highest? [QUESTION]"}, "<image>")["prompt"]
    released = pp.released_prompt("chartographer_qa")
    # str.replace, as released: a placeholder inside the question itself is left as it is
    assert prompt == released.replace("[QUESTION]", "Which year is highest? [QUESTION]") + "<image>"


def test_an_edited_layout_is_refused(tmp_path, monkeypatch):
    src = pp.PAPER_DIR / "chartographer_layout.json"
    (tmp_path / src.name).write_text(src.read_text().replace('"[QUESTION]"', '"[QUESTION] "'))
    monkeypatch.setattr(pp, "PAPER_DIR", tmp_path)
    pp._layouts.cache_clear()
    try:
        with pytest.raises(pp.PaperPromptChangedError, match="chartographer_layout.json"):
            pp.layout("chartographer_layout", "qa")
    finally:
        pp._layouts.cache_clear()


@pytest.mark.parametrize(("response", "extracted"), [
    ("<rationale> r </rationale> \n<answer> \n42\n</answer>", "42"),
    ("<answer>12</answer> later <answer>13</answer>", "12"),         # the first block
    ("<rationale>x</rationale><answer> 7, 9", "7, 9"),                # an open block runs to the end
    ("<Answer>Yes</ANSWER>", "Yes"),                                  # case-insensitive
    ("  The bars show it.\nSo 7  \n", "The bars show it.\nSo 7"),    # no tag: the whole response
    ("</answer> 3 <answer>4</answer>", "4"),                          # a stray close tag first
    ("<answer >5</answer>", "<answer >5</answer>"),                   # not the released tag: whole text
    ("<answer></answer> 5", ""),                                      # an empty first block stays empty
    ("", ""),
])
def test_released_extraction_edge_strings(response, extracted):
    assert fm.paper_extract(response) == extracted


def _row(role="original", answer="12", answer_type="number"):
    return {"family_id": "f0", "role": role, "answer": answer, "answer_type": answer_type, "question": "How many?"}


def test_released_scoring_asks_the_judge_about_the_released_extraction():
    asked = []

    class Judge:
        def decide(self, question, target, prediction):
            from types import SimpleNamespace

            asked.append(prediction)
            return SimpleNamespace(correct=prediction == target, judge_id="stub", verdict="yes")

    whole = "The tallest bar reads 12.\nIt is 12"
    ours = fm.score_family_record(_row(), whole, Judge())
    paper = fm.score_family_record(_row(), whole, Judge(), released=True)
    assert asked[0] == "It is 12" and asked[-1] == whole  # ours: the last line; released: the whole text
    assert paper["paper_correct"] == paper["correct"] is False and paper["judge"] == "stub"
    assert ours["paper_extracted"] == paper["paper_extracted"] == whole
    # no judge: the typed scorer reads the released extraction (first block 12, not the later 13)
    typed = fm.score_family_record(_row(), "<answer>12</answer> no, <answer>13</answer>", released=True)
    assert typed["correct"] is True and typed["judge"] == "typed" and typed["normalized"] == "12"


@pytest.mark.parametrize(("model", "token_param", "temperature_param", "expected"), [
    ("standin", "auto", "auto", {"max_tokens": 8, "temperature": 0}),
    ("gpt-5.1", "auto", "auto", {"max_completion_tokens": 8}),
    ("openai/o3-mini", "auto", "send", {"max_completion_tokens": 8, "temperature": 0}),
    ("standin", "max_completion_tokens", "auto", {"max_completion_tokens": 8, "temperature": 0}),
    ("standin", "none", "none", {}),  # Chartographer's released API client: neither is sent
])
def test_decoding_fields_per_model(model, token_param, temperature_param, expected):
    payload = {"model": model, "messages": [], "max_tokens": 8, "temperature": 0, "stop": [], "seed": 1}
    out = decoding_fields(payload, model, token_param, temperature_param)
    assert out == {"model": model, "messages": [], "seed": 1, **expected}  # an empty stop list is not sent


def test_bad_decoding_argument_is_refused_before_setup():
    from chartprobe.eval_tasks.harness.interleaved_chat import InterleavedChatCompletion

    with pytest.raises(ValueError, match="token_param='max_token': expected one of auto, max_tokens"):
        InterleavedChatCompletion(model="m", base_url="http://127.0.0.1:9/v1/chat/completions", token_param="max_token")


def test_loader_warns_when_the_image_would_come_first(release_root, monkeypatch, caplog):
    from chartprobe.eval_tasks.harness.tasks import families_paper_utils as fpu

    monkeypatch.setenv(data.ENV_VAR, str(release_root))
    released = pp.released_prompt("chartographer_qa")
    with caplog.at_level(logging.WARNING, logger="lm-eval"):
        plain = fpu.load_families_paper(pretrained="x")["test"]
    assert "add interleave=True" in caplog.text
    row = plain[0]
    assert row["prompt"] == released.replace("[QUESTION]", row["question"]) + "<image>"
    caplog.clear()
    api = fpu.load_families_paper(base_url="http://127.0.0.1:9/v1", interleave="True")["test"]
    assert api[0]["prompt"].endswith("</answer><image>") and not caplog.text


def _answer(body):
    return "<rationale> read the bars </rationale> \n<answer> 12 </answer>"


@pytest.mark.slow
def test_api_model_receives_the_released_layout_and_decoding(release_root, tmp_path):
    """Acceptance: the loopback stand-in records the released prompt (question filled), the image after
    it, and no token limit, temperature or stop string; lm-eval's table carries the family metrics."""
    out = tmp_path / "results"
    with recording_server(_answer) as server:
        argv = ["--model", "chartprobe-chat-completions", "--apply_chat_template", "--model_args",
                (f"model=standin,base_url={server.base_url}/chat/completions,max_images=1,interleave=True,"
                 "token_param=none,temperature_param=none,tokenizer_backend=None,num_concurrent=1,max_retries=1"),
                "--tasks", "chartprobe_families_paper", "--limit", "6", "--output_path", str(out), "--log_samples"]
        run_chartprobe_eval(argv, release_root, tmp_path)
        requests = list(server.requests)
    assert len(requests) == 6
    released = pp.released_prompt("chartographer_qa")
    (samples,) = glob.glob(str(out / "**" / "samples_chartprobe_families_paper_*.jsonl"), recursive=True)
    questions = [json.loads(line)["doc"]["question"] for line in Path(samples).read_text().splitlines()]
    asked = []
    for r in requests:
        assert not {"max_tokens", "max_completion_tokens", "temperature", "stop"} & set(r), sorted(r)
        (user,) = r["messages"]
        text, image = user["content"]
        assert text["type"] == "text" and image["type"] == "image_url"  # the image after the text
        assert base64.b64decode(image["image_url"]["url"].split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
        asked.append(text["text"])
    assert sorted(asked) == sorted(released.replace("[QUESTION]", q) for q in questions)
    (path,) = glob.glob(str(out / "**" / "results_*.json"), recursive=True)
    res = json.loads(Path(path).read_text())["results"]["chartprobe_families_paper"]
    assert 0 <= res["original_accuracy,none"] <= 1 or res["original_accuracy,none"] != res["original_accuracy,none"]
    assert "variant_accuracy,none" in res
